import BenchSupport
import Foundation
@_spi(KilnInternal) import KilnModel
import Testing

/// The envelope path's invariants (what the fuzz target checks on arbitrary bytes), on documents
/// written by hand: `code` and `data` kept as bytes read back to the same values, and `data`
/// decoded in place equals `data` decoded from its own bytes, repairs placed under `data`.
struct EnvelopeInvariantsTests {
    @Test(arguments: [
        // A friendly page.
        #"{"code":"0000","msg":"ok","data":{"page":1,"total_pages":2,"list":[{"article_id":7,"title":"t","author":{"user_id":1}}]}}"#,
        // An unfriendly one: numbers as strings, nulls, a list element that is not an article.
        #"""
        {"code": 0, "data" : { "page":"2", "totalPages":null, "list":[
          {"article_id":"7","is_top":1,"cover_url":5,"tags":["a",2,{}],"author":{"followers":"12k"}},
          "not an article", null, {} ] } , "msg": null}
        """#,
        // data of the wrong kinds: in place and alone both fail, at the same place.
        #"{"code":"1","data":[{"page":1}]}"#,
        #"{"code":"1","data":"nothing"}"#,
        // data null or absent: the client treats both as no data.
        #"{"code":"1","msg":"denied","data":null}"#,
        #"{"code":"1","msg":"denied"}"#,
        // No envelope at all.
        #"[{"code":1},{"data":{}}]"#,
        #"  "just text"  "#,
        // Repeated keys, escapes, and bytes around the values.
        #"{"data":{"page":1},"code":"\u0030","data":{"page":"3","list":[{"title":"\"q\" \u00e9"}]}}"#,
        "{\n\t\"code\" :\t-12.5e+3 ,\n \"data\" :\n{ \"list\" : [ { } , [ ] ] }\n}\n",
    ])
    func dataDecodesTheSameInPlaceAndFromItsBytes(document text: String) throws {
        let document = try JSONDocument(parsing: text)
        #expect(EnvelopeInvariants.violations(in: document) == [])
    }

    @Test func repairsFromTheKeptBytesArePlacedUnderData() throws {
        let document = try JSONDocument(parsing: #"{"code":0,"data":{"page":"x","list":[{"author":{"followers":"12k"}}]}}"#)
        let bytes = try #require(document.rawJSON(at: "data"))
        let alone = try KilnDecoder().decodeWithRepairs(ArticleData.self, from: bytes)
        let inPlace = try KilnDecoder().decodeWithRepairs(ArticleData.self, from: document, at: "data")
        #expect(alone.repairs.contains { $0.path == "list[0].author.followers" })
        #expect(inPlace.repairs.contains { $0.path == "data.list[0].author.followers" })
        #expect(inPlace.repairs.map(\.path) == alone.repairs.map { $0.under("data").path })
    }

    @Test func aBrokenInvariantIsReported() throws {
        // Not a real document's behaviour: a decoder whose reader refuses the kept bytes.
        var shallow = KilnDecoder()
        shallow.readerOptions.maxDepth = 1
        let document = try JSONDocument(parsing: #"{"code":0,"data":{"list":[[]]}}"#)
        #expect(!EnvelopeInvariants.violations(in: document, decoder: shallow).isEmpty)
    }
}

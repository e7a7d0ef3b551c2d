import BenchSupport
import Foundation
import KilnModel
import LimitDecoder
import SimdjsonLimit
import Testing

/// kiln-bench's limit row decodes what Kiln decodes: simdjson's structs (SimdjsonLimit) and
/// Kiln's `@DataModel` models of the same bytes have equal digests, on each benchmark payload and
/// on a document with the mess the models tolerate.
@Suite("simdjson limit holds what Kiln's models hold", .enabled(if: LimitDecoder.isAvailable, "built without simdjson (Linux with libsimdjson-dev only)"))
struct LimitEquivalenceTests {
    /// simdjson's digest of `data` decoded as `payload`.
    static func limitDigest(_ data: Data, _ payload: KilnLimitPayload) throws -> ModelDigest {
        let decoder = try #require(LimitDecoder(data: data, payload: payload))
        try decoder.decode()
        return decoder.digest
    }

    @Test func generatedArticles() throws {
        let data = Data(ArticlePayload.make(articles: 2_000))
        let kiln = ModelDigest(of: try KilnDecoder().decode(ArticlePage.self, from: data))
        #expect(try Self.limitDigest(data, KilnLimitPayloadArticles) == kiln)
        #expect(kiln.elements > 2_000)
    }

    @Test func messyArticles() throws {
        // Numbers as strings, "12k", 0/1 booleans, nulls, absences, and a list element that is not an object.
        let data = Data(
            #"""
            {"code":"0000","msg":null,"data":{"page":"3","total_pages":7,"list":[
              {"article_id":1,"title":"caf\u00e9 \"quoted\"","pub_date":"20160315","view_count":"12","is_top":1,
               "cover_url":null,"tags":null,"author":{"user_id":"42","nick_name":"数据","followers":"12k"}},
              7,
              {"article_id":2,"desc":"d","is_top":0,"tags":["a","b"],"author":null,"cover_url":"c"}
            ]}}
            """#.utf8)
        let kiln = ModelDigest(of: try KilnDecoder().decode(ArticlePage.self, from: data))
        #expect(try Self.limitDigest(data, KilnLimitPayloadArticles) == kiln)
        #expect(kiln.elements == 4)
    }

    @Test func twitter() throws {
        let data = try KilnDecoderEquivalenceTests.benchFile("twitter.json")
        #expect(try Self.limitDigest(data, KilnLimitPayloadTwitter) == ModelDigest(of: try KilnDecoder().decode(TwitterPage.self, from: data)))
    }

    @Test func catalog() throws {
        let data = try KilnDecoderEquivalenceTests.benchFile("citm_catalog.json")
        #expect(try Self.limitDigest(data, KilnLimitPayloadCatalog) == ModelDigest(of: try KilnDecoder().decode(Catalog.self, from: data)))
    }

    @Test func canada() throws {
        let data = try KilnDecoderEquivalenceTests.benchFile("canada.json")
        #expect(try Self.limitDigest(data, KilnLimitPayloadCanada) == ModelDigest(of: try KilnDecoder().decode(Canada.self, from: data)))
    }

    /// One member changed anywhere changes the digest, so the checks above can fail.
    @Test func digestSeesOneMember() throws {
        let data = try KilnDecoderEquivalenceTests.benchFile("twitter.json")
        var page = try KilnDecoder().decode(TwitterPage.self, from: data)
        let original = ModelDigest(of: page)
        page.statuses[page.statuses.count - 1].user.lang = "xx"
        #expect(ModelDigest(of: page) != original)
        page = try KilnDecoder().decode(TwitterPage.self, from: data)
        page.statuses[0].entities.hashtags.append(Hashtag())
        #expect(ModelDigest(of: page) != original)
    }
}

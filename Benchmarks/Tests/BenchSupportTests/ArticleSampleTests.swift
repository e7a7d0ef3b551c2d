import BenchSupport
import Foundation
@_spi(Testing) import KilnModel
import Testing

/// The benchmark's article models on a small unfriendly page: Kiln's fast path, its `Decoder`
/// path and Foundation's give the same values and the same repair log.
@Suite("Article models on an unfriendly sample")
struct ArticleSampleTests {
    static let sample = #"""
        {"code":"0000","msg":"ok","data":{"page":"2","total_pages":3,"list":[
          {"article_id":"7","title":null,"desc":"d","pub_date":20161010,"view_count":"12","is_top":1,
           "cover_url":null,"tags":["a",2,null],"author":{"user_id":1,"nick_name":"n","followers":"12k"}},
          "not an article",
          {"article_id":8,"title":"t","tags":null,"author":"nobody"}
        ]}}
        """#

    @Test func decodesFromDataBytesAndText() throws {
        let fromText = try KilnDecoder().decode(ArticlePage.self, from: Self.sample)
        let fromBytes = try KilnDecoder().decode(ArticlePage.self, from: Array(Self.sample.utf8))
        let fromData = try KilnDecoder().decode(ArticlePage.self, from: Data(Self.sample.utf8))
        #expect(fromText == fromBytes && fromBytes == fromData)
        #expect(fromText.data.page == 2)
        #expect(fromText.data.list.map(\.articleId) == [7, 8]) // "not an article" is dropped
        #expect(fromText.data.list[0].tags == ["a", "2"])
        #expect(fromText.data.list[0].isTop)
        #expect(fromText.data.list[0].title == "--")
    }

    @Test func repairLogMatchesTheFoundationPathOnAnUnfriendlySample() throws {
        let data = Data(Self.sample.utf8)
        for keyPath: JSONPath? in [nil, "data"] {
            if keyPath == nil {
                let kiln = try KilnDecoder().decodeWithRepairs(ArticlePage.self, from: data)
                let foundation = try JSONDecoder().decodeWithRepairs(ArticlePage.self, from: data)
                #expect(kiln.value == foundation.value)
                #expect(kiln.repairs == foundation.repairs)
                let generic = try KilnDecoder.decoderProtocolPath.decodeWithRepairs(ArticlePage.self, from: data)
                #expect(generic.repairs == foundation.repairs)
            } else {
                let kiln = try KilnDecoder().decodeWithRepairs(ArticleData.self, from: data, at: keyPath)
                let foundation = try JSONDecoder().decodeWithRepairs(ArticleData.self, from: data, at: keyPath)
                #expect(kiln.value == foundation.value)
                #expect(kiln.repairs == foundation.repairs)
            }
        }
        let list = try KilnDecoder().decodeWithRepairs([Article].self, from: data, at: "data.list")
        let foundationList = try JSONDecoder().decodeWithRepairs([Article].self, from: data, at: "data.list")
        #expect(list.value == foundationList.value)
        #expect(list.repairs == foundationList.repairs)
        #expect(list.repairs.contains { $0.path == "data.list[0].author.followers" && $0.kind == .invalid })
    }

    @Test func policyDefaultsApplyOnTheFastPath() throws {
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        policy.setDefault("n/a", forKey: "coverURL")
        let data = Data(Self.sample.utf8)
        let kiln = try KilnDecoder(policy: policy).decodeWithRepairs(ArticlePage.self, from: data)
        let foundation = try JSONDecoder().decodeWithRepairs(ArticlePage.self, from: data, policy: policy)
        #expect(kiln.value == foundation.value)
        #expect(kiln.repairs == foundation.repairs)
        #expect(kiln.value.data.list[0].coverURL == "n/a")
    }
}

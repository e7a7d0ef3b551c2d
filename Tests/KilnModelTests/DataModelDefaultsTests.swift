import Foundation
import KilnModel
import Testing

@Suite struct DataModelDefaultsTests {
    @Test func missingKeysTakeInitialValuesOrTypeDefaults() throws {
        let (article, repairs) = try JSONDecoder().decodeWithRepairs(Article.self, from: json("{}"))
        #expect(article.title == "--")
        #expect(article.id == 0)
        #expect(article.desc == "")
        #expect(article.tags == [])
        #expect(article.coverURL == nil)
        #expect(article.author == Author())
        #expect(article.author.nickName == "anonymous")
        #expect(article.status == .draft)
        #expect(repairs.contains { $0.path == "title" && $0.kind == .missing && $0.result == "\"--\"" })
        #expect(!repairs.contains { $0.path == "coverURL" }, "an absent optional is not a repair")
    }

    @Test func nullTakesTheDefault() throws {
        let (article, repairs) = try JSONDecoder().decodeWithRepairs(Article.self, from: json(#"{"title": null, "tags": null}"#))
        #expect(article.title == "--")
        #expect(article.tags == [])
        #expect(repairs.contains { $0.path == "title" && $0.kind == .null })
    }
}

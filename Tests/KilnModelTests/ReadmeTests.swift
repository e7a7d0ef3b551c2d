import Foundation
import KilnModel
import Testing

// The README's quick start, kept compiling and true.
@DataModel(keyStyle: .snakeCase)
struct ReadmeArticle {
    var id = 0
    var title = "--"
    @Key("pub_date", "publishDate") @Transform(.yyyyMMdd) var published: Date?
    @Key("author.name") var authorName = "anonymous"
    var viewCount: Int
    var tags: [String]
}

@Suite struct ReadmeTests {
    @Test func quickStartPrintsWhatTheReadmeSays() throws {
        let data = Data(
            #"""
            {"code": "0000", "data": [
              {"id": "7", "title": null, "pub_date": 20161010, "author": {"name": "Kai"}, "view_count": "12k", "tags": ["a", {}]}
            ]}
            """#.utf8)
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        let (articles, repairs) = try JSONDecoder().decodeWithRepairs([ReadmeArticle].self, from: data, at: "data", policy: policy)
        #expect(articles[0].id == 7)
        #expect(articles[0].title == "--")
        #expect(articles[0].authorName == "Kai")
        #expect(articles[0].published != nil)
        #expect(articles[0].tags == ["a"])
        #expect(
            repairs.map(\.description) == [
                #"data[0].id: expected Int, found "7" → 7"#,
                #"data[0].title: expected String, found null → "--""#,
                #"data[0].view_count: expected Int, found "12k" → 0"#,
                #"data[0].tags[1]: expected String, found {} → dropped"#,
            ])
        let parameters = try articles[0].parameters()
        #expect(parameters["id"] == "7")
        #expect(parameters["author[name]"] == "Kai")
        #expect(parameters["view_count"] == "0")
        #expect(parameters["pub_date"] == "20161010")
    }
}

extension ReadmeTests {
    @Test func kilnDecoderLineFromTheReadme() throws {
        let data = Data(#"{"data": [{"id": "7", "title": null, "view_count": "12k", "tags": ["a", {}]}]}"#.utf8)
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        let (fast, sameRepairs) = try KilnDecoder(policy: policy).decodeWithRepairs([ReadmeArticle].self, from: data, at: "data")
        let (slow, repairs) = try JSONDecoder().decodeWithRepairs([ReadmeArticle].self, from: data, at: "data", policy: policy)
        #expect(fast.map(\.id) == slow.map(\.id) && fast.first?.tags == ["a"])
        #expect(Set(sameRepairs) == Set(repairs))
    }
}

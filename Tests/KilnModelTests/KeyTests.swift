import Foundation
import KilnModel
import Testing

@DataModel
struct Keyed: Equatable {
    @Key("pub_date", "publishDate") var published = ""
    @Key("author.name") var authorName = "--"
    @Key("meta.stats.views", "views") var views = 0
    @Key("items[1].id") var secondID: Int?
    var userID = 0
    var avatarURLString: String?
    @Ignored var isExpanded = false
    @Ignored var cache: [String: Int]?
    var `default` = "kw"
}

@Suite struct KeyTests {
    @Test func firstPresentNonNullAliasWins() throws {
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"publishDate": "b"}"#)).published == "b")
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"pub_date": "a", "publishDate": "b"}"#)).published == "a")
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"pub_date": null, "publishDate": "b"}"#)).published == "b")
    }

    @Test func nestedPathsReachIntoObjectsAndArrays() throws {
        let value = try JSONDecoder().decode(
            Keyed.self, from: json(#"{"author": {"name": "Kai"}, "meta": {"stats": {"views": "12"}}, "items": [{"id": 1}, {"id": 2}]}"#))
        #expect(value.authorName == "Kai")
        #expect(value.views == 12)
        #expect(value.secondID == 2)
    }

    @Test func pathAliasFallsBackToPlainKey() throws {
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"views": 7}"#)).views == 7)
    }

    @Test func missingPathLogsTheFirstPath() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Keyed.self, from: json(#"{"author": "not an object"}"#))
        #expect(value.authorName == "--")
        #expect(repairs.contains { $0.path == "author.name" && $0.kind == .missing })
    }

    @Test func snakeCaseAndCamelCaseBothRead() throws {
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"user_id": 5}"#)).userID == 5)
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"userID": 6}"#)).userID == 6)
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"avatar_url_string": "x"}"#)).avatarURLString == "x")
    }

    @Test func ignoredPropertiesNeverComeFromOrGoToJSON() throws {
        let value = try JSONDecoder().decode(Keyed.self, from: json(#"{"isExpanded": true, "is_expanded": true, "cache": {"a": 1}}"#))
        #expect(value.isExpanded == false)
        #expect(value.cache == nil)
        var changed = value
        changed.isExpanded = true
        let encoded = try JSONValueEncoder().encode(changed)
        #expect(encoded["isExpanded"].isNull)
        #expect(encoded["cache"].isNull)
    }

    @Test func keywordNamedPropertiesWork() throws {
        #expect(try JSONDecoder().decode(Keyed.self, from: json(#"{"default": "x"}"#)).default == "x")
    }
}

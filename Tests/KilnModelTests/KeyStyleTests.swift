import Foundation
import KilnModel
import Testing

/// A snake_case API's page, declared once.
@DataModel(keyStyle: .snakeCase)
struct SnakePage: Equatable {
    var hasMore = false
    var nextCursor: String?
    var totalCount = 0
    var items: [SnakeItem] = []
    var author: CamelAuthor?
    @Key("pageNo") var page = 1
    @Transform(.yyyyMMdd) var publishDate: Date?
}

@DataModel(keyStyle: .snakeCase)
struct SnakeItem: Equatable {
    var itemID = 0
    var displayName = ""
}

/// Nested in a snake_case model, but its own API spells keys in camelCase.
@DataModel(keyStyle: .asWritten)
struct CamelAuthor: Equatable {
    var userName = ""
    var avatarURL: String?
}

/// No declared style: keys follow the encode's ``KeyStyle``.
@DataModel
struct UndeclaredPost: Equatable {
    var viewCount = 0
    @Transform(.yyyyMMdd) var publishDate: Date?
}

/// A way to decode, so every test runs through Foundation's decoder and through Kiln's.
struct ModelDecoder: Sendable, CustomStringConvertible {
    var description: String
    var decode: @Sendable (Data) throws -> SnakePage

    static let all = [
        ModelDecoder(description: "JSONDecoder") { try JSONDecoder().decode(SnakePage.self, from: $0) },
        ModelDecoder(description: "KilnDecoder") { try KilnDecoder().decode(SnakePage.self, from: $0) },
    ]
}

@Suite struct KeyStyleTests {
    /// The rule `@DataModel` reads and writes keys with, at compile time, and encoders apply at run
    /// time: one function, in KilnSupport.
    @Test(arguments: [
        ("authorName", "author_name"), ("userID", "user_id"), ("avatarURLString", "avatar_url_string"), ("id", "id"),
        ("page2Size", "page2_size"), ("isTop", "is_top"), ("HTTPCode", "http_code"), ("a", "a"), ("coverURL", "cover_url"),
        ("totalPages", "total_pages"),
    ])
    func snakeCaseSplitsWordsAndAcronyms(name: String, key: String) {
        #expect(KeyStyle.snakeCase(name) == key)
        #expect(KeyStyle.snakeCase.key(for: name) == key)
        #expect(KeyStyle.asWritten.key(for: name) == name)
    }

    static let snakePage = #"""
        {"has_more": true, "next_cursor": "c2", "total_count": 41, "pageNo": 2, "publish_date": "20161010",
         "items": [{"item_id": 7, "display_name": "Kai"}, {"item_id": 8, "display_name": "Lin"}],
         "author": {"userName": "kai", "avatarURL": "https://img.example.com/k.png"}}
        """#

    @Test(arguments: ModelDecoder.all)
    func decodeThenEncodeGivesBackTheSnakeCaseKeys(_ decoder: ModelDecoder) throws {
        let page = try decoder.decode(json(Self.snakePage))
        #expect(page.hasMore && page.nextCursor == "c2" && page.totalCount == 41 && page.page == 2)
        #expect(page.items.map(\.displayName) == ["Kai", "Lin"] && page.author?.userName == "kai")
        let original = try JSONDecoder().decode(JSONValue.self, from: json(Self.snakePage))
        let encoded = try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(page))
        #expect(encoded == original)
        #expect(try JSONValueEncoder().encode(page) == original)
    }

    @Test(arguments: ModelDecoder.all)
    func parametersAndFormBodyUseTheDeclaredKeys(_ decoder: ModelDecoder) throws {
        let page = try decoder.decode(json(Self.snakePage))
        let parameters = try page.parameters()
        #expect(
            parameters == [
                "has_more": "true", "next_cursor": "c2", "total_count": "41", "pageNo": "2", "publish_date": "20161010",
                "items[0][item_id]": "7", "items[0][display_name]": "Kai", "items[1][item_id]": "8", "items[1][display_name]": "Lin",
                "author[userName]": "kai", "author[avatarURL]": "https://img.example.com/k.png",
            ])
        #expect(try page.queryItems().map(\.name) == parameters.keys.sorted())
        let body = String(decoding: try page.formURLEncodedBody(), as: UTF8.self)
        #expect(body.hasPrefix("author%5BavatarURL%5D=https%3A%2F%2Fimg.example.com%2Fk.png&author%5BuserName%5D=kai&has_more=true&"))
        #expect(body.contains("&items%5B0%5D%5Bdisplay_name%5D=Kai&") && body.hasSuffix("&total_count=41"))
    }

    @Test(arguments: ModelDecoder.all)
    func styledKeyIsReadFirstAndTheSwiftNameIsAnAlias(_ decoder: ModelDecoder) throws {
        let both = try decoder.decode(json(#"{"has_more": true, "hasMore": false, "items": [{"itemID": 3}]}"#))
        #expect(both.hasMore && both.items == [SnakeItem(itemID: 3)])
        let aliasOnly = try decoder.decode(json(#"{"hasMore": true, "nextCursor": "c"}"#))
        #expect(aliasOnly.hasMore && aliasOnly.nextCursor == "c")
        // The alias is read, and written back in the declared style.
        #expect(try JSONValueEncoder().encode(aliasOnly)["has_more"] == true)
    }

    @Test func declaredAsWrittenReadsTheSwiftNameFirst() throws {
        let author = try KilnDecoder().decode(CamelAuthor.self, from: #"{"user_name": "b", "userName": "a"}"#)
        #expect(author.userName == "a")
        #expect(try KilnDecoder().decode(CamelAuthor.self, from: #"{"user_name": "b"}"#).userName == "b")
    }

    @Test func repairsNameTheStyledKey() throws {
        let (_, repairs) = try KilnDecoder().decodeWithRepairs(SnakePage.self, from: #"{"total_count": "many"}"#)
        // Missing properties are logged under the key the API would have sent.
        #expect(repairs.map(\.path) == ["has_more", "total_count", "items", "pageNo"])
    }

    @Test func declaredStyleWinsOverTheEncodersStyle() throws {
        let page = SnakePage(hasMore: true, author: CamelAuthor(userName: "kai"))
        for style in [KeyStyle.asWritten, .snakeCase] {
            let encoder = JSONEncoder()
            encoder.userInfo[.kilnKeyStyle] = style
            let value = try JSONDecoder().decode(JSONValue.self, from: encoder.encode(page))
            #expect(value["has_more"] == true && value.object?["hasMore"] == nil)
            #expect(value["author"] == ["userName": "kai"])
            #expect(try page.parameters(keyStyle: style)["author[userName]"] == "kai")
        }
    }

    @Test func undeclaredModelWritesSwiftNamesUnlessTheEncodeAsksForAStyle() throws {
        let post = try KilnDecoder().decode(UndeclaredPost.self, from: #"{"view_count": 3, "publish_date": "20161010"}"#)
        #expect(post.viewCount == 3 && post.publishDate != nil)
        #expect(try post.parameters() == ["viewCount": "3", "publishDate": "20161010"])
        #expect(try post.parameters(keyStyle: .snakeCase) == ["view_count": "3", "publish_date": "20161010"])
        let encoder = JSONEncoder()
        encoder.userInfo[.kilnKeyStyle] = KeyStyle.snakeCase
        #expect(try JSONDecoder().decode(JSONValue.self, from: encoder.encode(post)) == ["view_count": 3, "publish_date": "20161010"])
    }
}

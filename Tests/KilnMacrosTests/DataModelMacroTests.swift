import KilnMacros
import KilnModel
import SwiftSyntaxMacroExpansion
import SwiftSyntaxMacrosGenericTestSupport
import Testing

let macroSpecs: [String: MacroSpec] = [
    "DataModel": MacroSpec(type: DataModelMacro.self, conformances: ["DataModel", "KilnFastDecodable"]),
    "Key": MacroSpec(type: MarkerMacro.self),
    "Ignored": MacroSpec(type: MarkerMacro.self),
    "Transform": MacroSpec(type: MarkerMacro.self),
]

func expectExpansion(
    _ source: String, _ expanded: String, diagnostics: [DiagnosticSpec] = [],
    sourceLocation: SourceLocation = #_sourceLocation
) {
    assertMacroExpansion(source, expandedSource: expanded, diagnostics: diagnostics, macroSpecs: macroSpecs) { failure in
        Issue.record(Comment(rawValue: failure.message), sourceLocation: sourceLocation)
    }
}

@Suite struct DataModelMacroTests {
    @Test func expandsPlainProperties() {
        expectExpansion(
            """
            @DataModel
            public struct Author {
                var userID = 0
                var name: String
                var bio: String?
            }
            """,
            """
            public struct Author {
                var userID = 0
                var name: String
                var bio: String?

                public init() {
                    self.name = KilnModel.ModelDefaults.value()
                }

                public init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.userID = container.value("userID", "user_id", property: "userID", default: 0)
                    self.name = container.value("name", property: "name")
                    self.bio = container.optional("bio", property: "bio")
                }

                public init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.userID = reader.value("userID", "user_id", property: "userID", default: 0)
                    self.name = reader.value("name", property: "name")
                    self.bio = reader.optional("bio", property: "bio")
                }

                public func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.userID, property: "userID")
                    try container.encode(self.name, property: "name")
                    try container.encodeIfPresent(self.bio, property: "bio")
                    try container.finish()
                }

                public init(userID: Int = 0, name: String = KilnModel.ModelDefaults.value(), bio: String? = nil) {
                    self.userID = `userID`
                    self.name = `name`
                    self.bio = `bio`
                }
            }

            extension Author: KilnModel.DataModel, KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    @Test func expandsKeysPathsTransformsAndIgnored() {
        expectExpansion(
            """
            @DataModel
            struct Article {
                @Key("pub_date", "publishDate") @Transform(.yyyyMMdd) var published: Date?
                @Key("author.name") var authorName = "--"
                var author: Author
                @Ignored var isExpanded = false
            }
            """,
            """
            struct Article {
                var published: Date?
                var authorName = "--"
                var author: Author
                var isExpanded = false

                init() {
                    self.author = KilnModel.ModelDefaults.value()
                }

                init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.published = container.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("publishDate")])], transform: .yyyyMMdd, property: "published")
                    self.authorName = container.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    self.author = container.value("author", property: "author")
                }

                init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.published = reader.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("publishDate")])], transform: .yyyyMMdd, property: "published")
                    self.authorName = reader.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    self.author = reader.value("author", property: "author")
                }

                func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.published, at: KilnModel.JSONPath([.key("pub_date")]), transform: .yyyyMMdd)
                    try container.encode(self.authorName, at: KilnModel.JSONPath([.key("author"), .key("name")]))
                    try container.encode(self.author, merging: "author")
                    try container.finish()
                }

                init(published: Date? = nil, authorName: String = "--", author: Author = KilnModel.ModelDefaults.value(), isExpanded: Bool = false) {
                    self.published = `published`
                    self.authorName = `authorName`
                    self.author = `author`
                    self.isExpanded = `isExpanded`
                }
            }

            extension Article: KilnModel.DataModel, KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    @Test func rejectsEnumsAndNonFinalClasses() {
        expectExpansion(
            """
            @DataModel
            class Box {
                var name = ""
            }
            """,
            """
            class Box {
                var name = ""
            }
            """,
            diagnostics: [DiagnosticSpec(message: "@DataModel applies to a struct or a final class", line: 1, column: 1)]
        )
    }

    @Test func ignoredPropertyNeedsAValue() {
        expectExpansion(
            """
            @DataModel
            struct Box {
                @Ignored var cache: [String: Int]
            }
            """,
            """
            struct Box {
                var cache: [String: Int]

                init() {
                }

                init(from decoder: any Decoder) throws {
                    _ = try decoder.container(keyedBy: KilnModel.AnyCodingKey.self)
                }

                init(kiln reader: inout KilnModel.KilnObjectReader) {
                }

                func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.finish()
                }
            }

            extension Box: KilnModel.DataModel, KilnModel.KilnFastDecodable {
            }
            """,
            diagnostics: [DiagnosticSpec(message: "an @Ignored property needs an initial value or an optional type, since it never comes from JSON", line: 3, column: 18)]
        )
    }

    /// The macro (which cannot import KilnModel) and `KeyStyle` must agree on snake_case, or
    /// encoding with `.snakeCase` would write keys decoding does not try.
    @Test(arguments: ["authorName", "userID", "avatarURLString", "id", "page2Size", "isTop", "HTTPCode", "a", "coverURL", "totalPages"])
    func macroAndKeyStyleAgreeOnSnakeCase(name: String) {
        #expect(KeyStyleProbe.snake(name) == KeyStyle.snakeCase(name))
    }

    @Test func snakeCaseTwins() {
        #expect(KeyStyleProbe.snake("authorName") == "author_name")
        #expect(KeyStyleProbe.snake("userID") == "user_id")
        #expect(KeyStyleProbe.snake("avatarURLString") == "avatar_url_string")
        #expect(KeyStyleProbe.snake("id") == "id")
        #expect(KeyStyleProbe.snake("page2Size") == "page2_size")
    }
}

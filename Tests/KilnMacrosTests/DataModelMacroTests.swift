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
    "DefaultIfEmpty": MacroSpec(type: MarkerMacro.self),
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

                public nonisolated init() {
                    self.name = KilnModel.ModelDefaults.value()
                }

                public nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.userID = container.value("userID", "user_id", property: "userID", default: 0)
                    self.name = container.value("name", property: "name")
                    self.bio = container.optional("bio", property: "bio")
                }

                public nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.userID = reader.value("userID", "user_id", property: "userID", default: 0)
                    self.name = reader.value("name", property: "name")
                    self.bio = reader.optional("bio", property: "bio")
                }

                public nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.userID, property: "userID")
                    try container.encode(self.name, property: "name")
                    try container.encodeIfPresent(self.bio, property: "bio")
                    try container.finish()
                }

                public nonisolated init(userID: Int = 0, name: String = KilnModel.ModelDefaults.value(), bio: String? = nil) {
                    self.userID = `userID`
                    self.name = `name`
                    self.bio = `bio`
                }
            }

            extension Author: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
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

                nonisolated init() {
                    self.author = KilnModel.ModelDefaults.value()
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.published = container.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("publishDate")])], transform: .yyyyMMdd, property: "published")
                    self.authorName = container.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    self.author = container.value("author", property: "author")
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.published = reader.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("publishDate")])], transform: .yyyyMMdd, property: "published")
                    self.authorName = reader.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    self.author = reader.value("author", property: "author")
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.published, at: KilnModel.JSONPath([.key("pub_date")]), transform: .yyyyMMdd)
                    try container.encode(self.authorName, at: KilnModel.JSONPath([.key("author"), .key("name")]))
                    try container.encode(self.author, merging: "author")
                    try container.finish()
                }

                nonisolated init(published: Date? = nil, authorName: String = "--", author: Author = KilnModel.ModelDefaults.value(), isExpanded: Bool = false) {
                    self.published = `published`
                    self.authorName = `authorName`
                    self.author = `author`
                    self.isExpanded = `isExpanded`
                }
            }

            extension Article: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    @Test func declaredSnakeCaseReadsTheStyledKeyFirstAndWritesIt() {
        expectExpansion(
            """
            @DataModel(keyStyle: .snakeCase)
            struct Page {
                var hasMore = false
                var id: Int
                @Key("pageNo") var page = 1
                @Transform(.yyyyMMdd) var pubDate: Date?
            }
            """,
            """
            struct Page {
                var hasMore = false
                var id: Int
                var page = 1
                var pubDate: Date?

                nonisolated init() {
                    self.id = KilnModel.ModelDefaults.value()
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.hasMore = container.value("has_more", "hasMore", property: "hasMore", default: false)
                    self.id = container.value("id", property: "id")
                    self.page = container.value("pageNo", property: "page", default: 1)
                    self.pubDate = container.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("pubDate")])], transform: .yyyyMMdd, property: "pubDate")
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.hasMore = reader.value("has_more", "hasMore", property: "hasMore", default: false)
                    self.id = reader.value("id", property: "id")
                    self.page = reader.value("pageNo", property: "page", default: 1)
                    self.pubDate = reader.optional(paths: [KilnModel.JSONPath([.key("pub_date")]), KilnModel.JSONPath([.key("pubDate")])], transform: .yyyyMMdd, property: "pubDate")
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.hasMore, forKey: "has_more")
                    try container.encode(self.id, forKey: "id")
                    try container.encode(self.page, forKey: "pageNo")
                    try container.encodeIfPresent(self.pubDate, at: KilnModel.JSONPath([.key("pub_date")]), transform: .yyyyMMdd)
                    try container.finish()
                }

                nonisolated init(hasMore: Bool = false, id: Int = KilnModel.ModelDefaults.value(), page: Int = 1, pubDate: Date? = nil) {
                    self.hasMore = `hasMore`
                    self.id = `id`
                    self.page = `page`
                    self.pubDate = `pubDate`
                }
            }

            extension Page: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    /// A declared `.asWritten` reads the Swift name first, like an undeclared model, but writes it
    /// whatever style the encoder asks for.
    @Test func declaredAsWrittenFixesTheSwiftName() {
        expectExpansion(
            """
            @DataModel(keyStyle: KeyStyle.asWritten)
            struct Author {
                var userID = 0
            }
            """,
            """
            struct Author {
                var userID = 0

                nonisolated init() {
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.userID = container.value("userID", "user_id", property: "userID", default: 0)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.userID = reader.value("userID", "user_id", property: "userID", default: 0)
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.userID, forKey: "userID")
                    try container.finish()
                }

                nonisolated init(userID: Int = 0) {
                    self.userID = `userID`
                }
            }

            extension Author: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    /// Without a declared style, a transformed property's key follows the encoder's `KeyStyle`
    /// like every other property without `@Key`.
    @Test func undeclaredTransformedPropertyLeavesTheKeyToTheEncoder() {
        expectExpansion(
            """
            @DataModel
            struct Post {
                @Transform(.iso8601) var createdAt: Date?
            }
            """,
            """
            struct Post {
                var createdAt: Date?

                nonisolated init() {
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.createdAt = container.optional(paths: [KilnModel.JSONPath([.key("createdAt")]), KilnModel.JSONPath([.key("created_at")])], transform: .iso8601, property: "createdAt")
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.createdAt = reader.optional(paths: [KilnModel.JSONPath([.key("createdAt")]), KilnModel.JSONPath([.key("created_at")])], transform: .iso8601, property: "createdAt")
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.createdAt, property: "createdAt", transform: .iso8601)
                    try container.finish()
                }

                nonisolated init(createdAt: Date? = nil) {
                    self.createdAt = `createdAt`
                }
            }

            extension Post: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    @Test func defaultIfEmptyReadsByPathAndDidDecodeRunsLast() {
        expectExpansion(
            """
            @DataModel
            struct Tag {
                @DefaultIfEmpty var name = "none"
                mutating func didDecode(_ repairs: RepairRecorder) {}
            }
            """,
            """
            struct Tag {
                var name = "none"
                mutating func didDecode(_ repairs: RepairRecorder) {}

                nonisolated init() {
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.name = container.value(paths: [KilnModel.JSONPath([.key("name")])], emptyIsMissing: true, property: "name", default: "none")
                    self.didDecode(KilnModel.RepairRecorder(decoder: decoder))
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.name = reader.value(paths: [KilnModel.JSONPath([.key("name")])], emptyIsMissing: true, property: "name", default: "none")
                    self.didDecode(reader.repairRecorder)
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.name, property: "name")
                    try container.finish()
                }

                nonisolated init(name: String = "none") {
                    self.name = `name`
                }
            }

            extension Tag: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """
        )
    }

    @Test func keyStyleMustBeWrittenAsACase() {
        expectExpansion(
            """
            @DataModel(keyStyle: style)
            struct Box {
            }
            """,
            """
            struct Box {

                nonisolated init() {
                }

                nonisolated init(from decoder: any Decoder) throws {
                    _ = try decoder.container(keyedBy: KilnModel.AnyCodingKey.self)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.finish()
                }
            }

            extension Box: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """,
            diagnostics: [
                DiagnosticSpec(message: "keyStyle is read at compile time; write the case itself, such as @DataModel(keyStyle: .snakeCase)", line: 1, column: 22)
            ]
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

                nonisolated init() {
                }

                nonisolated init(from decoder: any Decoder) throws {
                    _ = try decoder.container(keyedBy: KilnModel.AnyCodingKey.self)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                }

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.finish()
                }
            }

            extension Box: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
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

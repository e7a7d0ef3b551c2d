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
                    self.userID = reader.value("userID", "user_id", slots: KilnModel.KilnKeySlots(0, 1), property: "userID", default: 0)
                    self.name = reader.value("name", slots: KilnModel.KilnKeySlots(2), property: "name")
                    self.bio = reader.optional("bio", slots: KilnModel.KilnKeySlots(3), property: "bio")
                }

                public nonisolated static var kilnMemberKeyCount: Int {
                    4
                }

                @inline(__always) public nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 3:
                        if KilnModel.KilnObjectReader.key(key, is: "bio") {
                            return 3
                        }
                    case 4:
                        if KilnModel.KilnObjectReader.key(key, is: "name") {
                            return 2
                        }
                    case 6:
                        if KilnModel.KilnObjectReader.key(key, is: "userID") {
                            return 0
                        }
                    case 7:
                        if KilnModel.KilnObjectReader.key(key, is: "user_id") {
                            return 1
                        }
                    default:
                        break
                    }
                    return -1
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.published, at: KilnModel.JSONPath([.key("pub_date")]), transform: .yyyyMMdd)
                    try container.encode(self.authorName, at: KilnModel.JSONPath([.key("author"), .key("name")]))
                    try container.encode(self.author, merging: "author")
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_published(_ container: KilnModel.ModelDecodingContainer) -> Date? {
                        container.optional("pub_date", "publishDate", transform: .yyyyMMdd, property: "published")
                    }
                    static func f_published(_ reader: inout KilnModel.KilnObjectReader) -> Date? {
                        reader.optional("pub_date", "publishDate", slots: KilnModel.KilnKeySlots(0, 1), transform: .yyyyMMdd, property: "published")
                    }
                    static func r_authorName(_ container: KilnModel.ModelDecodingContainer) -> String {
                        container.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    }
                    static func f_authorName(_ reader: inout KilnModel.KilnObjectReader) -> String {
                        reader.value(paths: [KilnModel.JSONPath([.key("author"), .key("name")])], property: "authorName", default: "--")
                    }
                    static func r_author(_ container: KilnModel.ModelDecodingContainer) -> Author {
                        container.value("author", property: "author")
                    }
                    static func f_author(_ reader: inout KilnModel.KilnObjectReader) -> Author {
                        reader.value("author", slots: KilnModel.KilnKeySlots(2), property: "author")
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    3
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 6:
                        if KilnModel.KilnObjectReader.key(key, is: "author") {
                            return 2
                        }
                    case 8:
                        if KilnModel.KilnObjectReader.key(key, is: "pub_date") {
                            return 0
                        }
                    case 11:
                        if KilnModel.KilnObjectReader.key(key, is: "publishDate") {
                            return 1
                        }
                    default:
                        break
                    }
                    return -1
                }
            }

            extension Article: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init() {
                    self = Self._kilnEmpty()
                }

                nonisolated private static func _kilnEmpty() -> Self {
                    Self(author: KilnModel.ModelDefaults.value())
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _published = _KilnReaders.r_published(container)
                    let _authorName = _KilnReaders.r_authorName(container)
                    let _author = _KilnReaders.r_author(container)
                    return Self(published: _published, authorName: _authorName, author: _author)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _published = _KilnReaders.f_published(&reader)
                    let _authorName = _KilnReaders.f_authorName(&reader)
                    let _author = _KilnReaders.f_author(&reader)
                    return Self(published: _published, authorName: _authorName, author: _author)
                }
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.hasMore, forKey: "has_more")
                    try container.encode(self.id, forKey: "id")
                    try container.encode(self.page, forKey: "pageNo")
                    try container.encodeIfPresent(self.pubDate, at: KilnModel.JSONPath([.key("pub_date")]), transform: .yyyyMMdd)
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_hasMore(_ container: KilnModel.ModelDecodingContainer) -> Bool {
                        container.value("has_more", "hasMore", property: "hasMore", default: false)
                    }
                    static func f_hasMore(_ reader: inout KilnModel.KilnObjectReader) -> Bool {
                        reader.value("has_more", "hasMore", slots: KilnModel.KilnKeySlots(0, 1), property: "hasMore", default: false)
                    }
                    static func r_id(_ container: KilnModel.ModelDecodingContainer) -> Int {
                        container.value("id", property: "id")
                    }
                    static func f_id(_ reader: inout KilnModel.KilnObjectReader) -> Int {
                        reader.value("id", slots: KilnModel.KilnKeySlots(2), property: "id")
                    }
                    static func r_page(_ container: KilnModel.ModelDecodingContainer) -> Int {
                        container.value("pageNo", property: "page", default: 1)
                    }
                    static func f_page(_ reader: inout KilnModel.KilnObjectReader) -> Int {
                        reader.value("pageNo", slots: KilnModel.KilnKeySlots(3), property: "page", default: 1)
                    }
                    static func r_pubDate(_ container: KilnModel.ModelDecodingContainer) -> Date? {
                        container.optional("pub_date", "pubDate", transform: .yyyyMMdd, property: "pubDate")
                    }
                    static func f_pubDate(_ reader: inout KilnModel.KilnObjectReader) -> Date? {
                        reader.optional("pub_date", "pubDate", slots: KilnModel.KilnKeySlots(4, 5), transform: .yyyyMMdd, property: "pubDate")
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    6
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 2:
                        if KilnModel.KilnObjectReader.key(key, is: "id") {
                            return 2
                        }
                    case 6:
                        if KilnModel.KilnObjectReader.key(key, is: "pageNo") {
                            return 3
                        }
                    case 7:
                        if KilnModel.KilnObjectReader.key(key, is: "hasMore") {
                            return 1
                        }
                        if KilnModel.KilnObjectReader.key(key, is: "pubDate") {
                            return 5
                        }
                    case 8:
                        if KilnModel.KilnObjectReader.key(key, is: "has_more") {
                            return 0
                        }
                        if KilnModel.KilnObjectReader.key(key, is: "pub_date") {
                            return 4
                        }
                    default:
                        break
                    }
                    return -1
                }
            }

            extension Page: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init() {
                    self = Self._kilnEmpty()
                }

                nonisolated private static func _kilnEmpty() -> Self {
                    Self(id: KilnModel.ModelDefaults.value())
                }

                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _hasMore = _KilnReaders.r_hasMore(container)
                    let _id = _KilnReaders.r_id(container)
                    let _page = _KilnReaders.r_page(container)
                    let _pubDate = _KilnReaders.r_pubDate(container)
                    return Self(hasMore: _hasMore, id: _id, page: _page, pubDate: _pubDate)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _hasMore = _KilnReaders.f_hasMore(&reader)
                    let _id = _KilnReaders.f_id(&reader)
                    let _page = _KilnReaders.f_page(&reader)
                    let _pubDate = _KilnReaders.f_pubDate(&reader)
                    return Self(hasMore: _hasMore, id: _id, page: _page, pubDate: _pubDate)
                }
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.userID, forKey: "userID")
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_userID(_ container: KilnModel.ModelDecodingContainer) -> Int {
                        container.value("userID", "user_id", property: "userID", default: 0)
                    }
                    static func f_userID(_ reader: inout KilnModel.KilnObjectReader) -> Int {
                        reader.value("userID", "user_id", slots: KilnModel.KilnKeySlots(0, 1), property: "userID", default: 0)
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    2
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 6:
                        if KilnModel.KilnObjectReader.key(key, is: "userID") {
                            return 0
                        }
                    case 7:
                        if KilnModel.KilnObjectReader.key(key, is: "user_id") {
                            return 1
                        }
                    default:
                        break
                    }
                    return -1
                }
            }

            extension Author: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _userID = _KilnReaders.r_userID(container)
                    return Self(userID: _userID)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _userID = _KilnReaders.f_userID(&reader)
                    return Self(userID: _userID)
                }
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.createdAt, property: "createdAt", transform: .iso8601)
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_createdAt(_ container: KilnModel.ModelDecodingContainer) -> Date? {
                        container.optional("createdAt", "created_at", transform: .iso8601, property: "createdAt")
                    }
                    static func f_createdAt(_ reader: inout KilnModel.KilnObjectReader) -> Date? {
                        reader.optional("createdAt", "created_at", slots: KilnModel.KilnKeySlots(0, 1), transform: .iso8601, property: "createdAt")
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    2
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 9:
                        if KilnModel.KilnObjectReader.key(key, is: "createdAt") {
                            return 0
                        }
                    case 10:
                        if KilnModel.KilnObjectReader.key(key, is: "created_at") {
                            return 1
                        }
                    default:
                        break
                    }
                    return -1
                }
            }

            extension Post: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _createdAt = _KilnReaders.r_createdAt(container)
                    return Self(createdAt: _createdAt)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _createdAt = _KilnReaders.f_createdAt(&reader)
                    return Self(createdAt: _createdAt)
                }
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.name, property: "name")
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_name(_ container: KilnModel.ModelDecodingContainer) -> String {
                        container.value(paths: [KilnModel.JSONPath([.key("name")])], emptyIsMissing: true, property: "name", default: "none")
                    }
                    static func f_name(_ reader: inout KilnModel.KilnObjectReader) -> String {
                        reader.value(paths: [KilnModel.JSONPath([.key("name")])], emptyIsMissing: true, property: "name", default: "none")
                    }
                }
            }

            extension Tag: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                    self.didDecode(KilnModel.RepairRecorder(decoder: decoder))
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _name = _KilnReaders.r_name(container)
                    return Self(name: _name)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                    self.didDecode(reader.repairRecorder)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _name = _KilnReaders.f_name(&reader)
                    return Self(name: _name)
                }
            }
            """
        )
    }

    /// A public model of five properties or more: `init(kiln:)` makes it with `init()` and reads
    /// into it out of line, where an initializer setting each property would copy the whole
    /// model once at its end.
    @Test func publicModelOfFivePropertiesReadsIntoAMadeValue() {
        expectExpansion(
            """
            @DataModel
            public struct Order {
                public var id = 0
                public var name = ""
                public var note: String?
                public var lines: [String] = []
                public var total = 0.0
                public mutating func didDecode() {}
            }
            """,
            """
            public struct Order {
                public var id = 0
                public var name = ""
                public var note: String?
                public var lines: [String] = []
                public var total = 0.0
                public mutating func didDecode() {}

                public nonisolated init() {
                }

                public nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.id = container.value("id", property: "id", default: 0)
                    self.name = container.value("name", property: "name", default: "")
                    self.note = container.optional("note", property: "note")
                    self.lines = container.value("lines", property: "lines", default: [])
                    self.total = container.value("total", property: "total", default: 0.0)
                    self.didDecode()
                }

                public nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.init()
                    self._kilnRead(&reader)
                    self.didDecode()
                }

                @inline(never) nonisolated private mutating func _kilnRead(_ reader: inout KilnModel.KilnObjectReader) {
                    self.id = reader.value("id", slots: KilnModel.KilnKeySlots(0), property: "id", default: 0)
                    self.name = reader.value("name", slots: KilnModel.KilnKeySlots(1), property: "name", default: "")
                    self.note = reader.optional("note", slots: KilnModel.KilnKeySlots(2), property: "note")
                    self.lines = reader.value("lines", slots: KilnModel.KilnKeySlots(3), property: "lines", default: [])
                    self.total = reader.value("total", slots: KilnModel.KilnKeySlots(4), property: "total", default: 0.0)
                }

                public nonisolated static var kilnMemberKeyCount: Int {
                    5
                }

                @inline(__always) public nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 2:
                        if KilnModel.KilnObjectReader.key(key, is: "id") {
                            return 0
                        }
                    case 4:
                        if KilnModel.KilnObjectReader.key(key, is: "name") {
                            return 1
                        }
                        if KilnModel.KilnObjectReader.key(key, is: "note") {
                            return 2
                        }
                    case 5:
                        if KilnModel.KilnObjectReader.key(key, is: "lines") {
                            return 3
                        }
                        if KilnModel.KilnObjectReader.key(key, is: "total") {
                            return 4
                        }
                    default:
                        break
                    }
                    return -1
                }

                public nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.id, property: "id")
                    try container.encode(self.name, property: "name")
                    try container.encodeIfPresent(self.note, property: "note")
                    try container.encode(self.lines, property: "lines")
                    try container.encode(self.total, property: "total")
                    try container.finish()
                }

                public nonisolated init(id: Int = 0, name: String = "", note: String? = nil, lines: [String] = [], total: Double = 0.0) {
                    self.id = `id`
                    self.name = `name`
                    self.note = `note`
                    self.lines = `lines`
                    self.total = `total`
                }
            }

            extension Order: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
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

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.finish()
                }
            }

            extension Box: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    return Self()
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    return Self()
                }
            }
            """,
            diagnostics: [
                DiagnosticSpec(
                    message: "keyStyle is read at compile time; write the case itself, such as @DataModel(keyStyle: .snakeCase)", line: 1, column: 22)
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
            diagnostics: [
                DiagnosticSpec(message: "an @Ignored property needs an initial value or an optional type, since it never comes from JSON", line: 3, column: 18)
            ]
        )
    }
}

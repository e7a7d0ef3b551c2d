import SwiftSyntaxMacrosGenericTestSupport
import Testing

/// A `@Key` path the key-path grammar rejects, and what the macro says about it.
struct MalformedKeyPath: Sendable, CustomStringConvertible {
    var key: String
    var message: String
    var description: String { key }

    static let all = [
        MalformedKeyPath(key: "tags[x]", message: "'x' is not an index: write tags[0]"),
        MalformedKeyPath(key: "a[-1]", message: "'-1' is not an index: indices count from 0, write a[0]"),
        MalformedKeyPath(key: "tags[0", message: "'tags[0' opens a '[' it never closes: write tags[0]"),
        MalformedKeyPath(key: "a..b", message: "'a..b' has an empty key: write keys separated by single dots, such as author.name"),
        MalformedKeyPath(key: "a.", message: "'a.' has an empty key: write keys separated by single dots, such as author.name"),
        MalformedKeyPath(key: ".a", message: "'.a' has an empty key: write keys separated by single dots, such as author.name"),
    ]
}

@Suite struct KeyPathDiagnosticTests {
    /// The error points at the argument; the expansion reads the text as one key, as
    /// `JSONPath`'s string literal does, so nothing else fails to compile.
    @Test(arguments: MalformedKeyPath.all)
    func malformedKeyPathIsAnErrorAtTheArgument(_ path: MalformedKeyPath) {
        expectExpansion(
            """
            @DataModel
            struct Post {
                @Key("\(path.key)") var tags: [String] = []
            }
            """,
            """
            struct Post {
                var tags: [String] = []

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.tags, forKey: "\(path.key)")
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_tags(_ container: KilnModel.ModelDecodingContainer) -> [String] {
                        container.value("\(path.key)", property: "tags", default: [])
                    }
                    static func f_tags(_ reader: inout KilnModel.KilnObjectReader) -> [String] {
                        reader.value("\(path.key)", slots: KilnModel.KilnKeySlots(0), property: "tags", default: [])
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    1
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case \(path.key.utf8.count):
                        if KilnModel.KilnObjectReader.key(key, is: "\(path.key)") {
                            return 0
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
                    let _tags = _KilnReaders.r_tags(container)
                    return Self(tags: _tags)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _tags = _KilnReaders.f_tags(&reader)
                    return Self(tags: _tags)
                }
            }
            """,
            diagnostics: [DiagnosticSpec(message: path.message, line: 3, column: 10)]
        )
    }

    @Test func aliasIsCheckedLikeTheFirstKey() {
        expectExpansion(
            """
            @DataModel
            public struct Post {
                @Key("tags", "list[first]") public var tags: [String] = []
            }
            """,
            """
            public struct Post {
                public var tags: [String] = []

                public nonisolated init() {
                }

                public nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self.tags = container.value("tags", "list[first]", property: "tags", default: [])
                }

                public nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self.tags = reader.value("tags", "list[first]", slots: KilnModel.KilnKeySlots(0, 1), property: "tags", default: [])
                }

                public nonisolated static var kilnMemberKeyCount: Int {
                    2
                }

                @inline(__always) public nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 4:
                        if KilnModel.KilnObjectReader.key(key, is: "tags") {
                            return 0
                        }
                    case 11:
                        if KilnModel.KilnObjectReader.key(key, is: "list[first]") {
                            return 1
                        }
                    default:
                        break
                    }
                    return -1
                }

                public nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encode(self.tags, forKey: "tags")
                    try container.finish()
                }

                public nonisolated init(tags: [String] = []) {
                    self.tags = `tags`
                }
            }

            extension Post: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
            }
            """,
            diagnostics: [DiagnosticSpec(message: "'first' is not an index: write list[0]", line: 3, column: 18)]
        )
    }

    /// Indices and nested keys become `JSONPath` steps; a literal key is never parsed, so it is
    /// never diagnosed.
    @Test func validPathsExpandToTheirSteps() {
        expectExpansion(
            """
            @DataModel
            struct Feed {
                @Key("data.list[0].name") var firstName: String?
                @Key(literal: "a..b") var dotted = 0
            }
            """,
            """
            struct Feed {
                var firstName: String?
                var dotted = 0

                nonisolated func encode(to encoder: any Encoder) throws {
                    var container = KilnModel.ModelEncodingContainer(encoder: encoder)
                    try container.encodeIfPresent(self.firstName, at: KilnModel.JSONPath([.key("data"), .key("list"), .index(0), .key("name")]))
                    try container.encode(self.dotted, forKey: "a..b")
                    try container.finish()
                }

                nonisolated private enum _KilnReaders {
                    static func r_firstName(_ container: KilnModel.ModelDecodingContainer) -> String? {
                        container.optional(paths: [KilnModel.JSONPath([.key("data"), .key("list"), .index(0), .key("name")])], property: "firstName")
                    }
                    static func f_firstName(_ reader: inout KilnModel.KilnObjectReader) -> String? {
                        reader.optional(paths: [KilnModel.JSONPath([.key("data"), .key("list"), .index(0), .key("name")])], property: "firstName")
                    }
                    static func r_dotted(_ container: KilnModel.ModelDecodingContainer) -> Int {
                        container.value("a..b", property: "dotted", default: 0)
                    }
                    static func f_dotted(_ reader: inout KilnModel.KilnObjectReader) -> Int {
                        reader.value("a..b", slots: KilnModel.KilnKeySlots(0), property: "dotted", default: 0)
                    }
                }

                nonisolated static var kilnMemberKeyCount: Int {
                    1
                }

                @inline(__always) nonisolated static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
                    switch key.count {
                    case 4:
                        if KilnModel.KilnObjectReader.key(key, is: "a..b") {
                            return 0
                        }
                    default:
                        break
                    }
                    return -1
                }
            }

            extension Feed: nonisolated KilnModel.DataModel, nonisolated KilnModel.KilnFastDecodable {
                nonisolated init(from decoder: any Decoder) throws {
                    let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)
                    self = Self._kilnMake(container)
                }

                nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {
                    let _firstName = _KilnReaders.r_firstName(container)
                    let _dotted = _KilnReaders.r_dotted(container)
                    return Self(firstName: _firstName, dotted: _dotted)
                }

                nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {
                    self = Self._kilnMakeFast(&reader)
                }

                nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {
                    let _firstName = _KilnReaders.f_firstName(&reader)
                    let _dotted = _KilnReaders.f_dotted(&reader)
                    return Self(firstName: _firstName, dotted: _dotted)
                }
            }
            """
        )
    }
}

import KilnGenerator
import KilnModel
import Testing

/// Generates source without the header from inline samples.
/// The source the generator writes for `samples`, without the header unless `configure` asks.
func generate(_ samples: String..., name: String = "Model", configure: (inout GeneratorOptions) -> Void = { _ in }) throws -> String {
    var options = GeneratorOptions(typeName: name)
    options.writesHeader = false
    configure(&options)
    let parsed = try samples.enumerated().map { index, text in try Sample(name: "s\(index).json", bytes: Array(text.utf8)) }
    return try ModelGenerator(options: options).source(for: parsed)
}

/// The source's lines without imports and blank lines, trimmed.
private func lines(_ source: String) -> [String] {
    source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.hasPrefix("import ") && !$0.isEmpty }
}

@Suite struct ModelGeneratorTests {
    @Test func wholeOutputForANestedSample() throws {
        let source = try generate(#"{"id": 1, "title": "Hi", "author": {"name": "Kai"}, "tags": [{"name": "swift"}]}"#, name: "Article")
        #expect(
            source == """
                import Foundation
                import KilnModel

                @DataModel
                nonisolated struct Article: Sendable {
                    var id: Int
                    var title: String
                    var author: Author
                    var tags: [Tag]

                    @DataModel
                    nonisolated struct Author: Sendable {
                        var name: String
                    }

                    @DataModel
                    nonisolated struct Tag: Sendable {
                        var name: String
                    }
                }

                """)
    }

    @Test func missingOrNullBecomesOptionalOrDefaulted() throws {
        let a = #"{"id": 1, "title": "a", "note": null}"#
        let b = #"{"id": 2, "note": "x"}"#
        #expect(lines(try generate(a, b)).dropFirst(2).prefix(3) == ["var id: Int", "var title: String?", "var note: String?"])
        #expect(lines(try generate(a, b) { $0.usesDefaults = true }).dropFirst(2).prefix(3) == ["var id: Int", "var title: String", "var note: String"])
    }

    @Test func intAndDoubleMergeToDouble() throws {
        let source = try generate(#"[{"price": 3}, {"price": 4.5}, {"price": null}]"#)
        #expect(lines(source).contains("var price: Double?"))
    }

    @Test func arraysOfObjectsMergeAcrossElements() throws {
        let source = try generate(#"{"items": [{"a": 1}, {"a": 2, "b": "x"}, {"b": "y", "c": true}]}"#)
        #expect(
            Array(lines(source).suffix(7)) == ["@DataModel", "nonisolated struct Item: Sendable {", "var a: Int?", "var b: String?", "var c: Bool?", "}", "}"])
    }

    @Test func keysFollowSampleOrderAcrossSamples() throws {
        let source = try generate(#"{"a": 1, "d": 4}"#, #"{"a": 1, "b": 2, "c": 3, "d": 4}"#)
        #expect(lines(source).dropFirst(2).prefix(4) == ["var a: Int", "var b: Int?", "var c: Int?", "var d: Int"])
    }

    @Test func keyOnlyWhereDataModelWouldNotFindIt() throws {
        let source = try generate(#"{"author_name": "a", "userID": 1, "user_id": 2, "ID": 3, "content-type": "t", "2x": 1, "display_url": "u"}"#)
        #expect(
            lines(source).dropFirst(2).prefix(7) == [
                "var authorName: String",
                "@Key(\"userID\") var userID: Int",
                "@Key(\"user_id\") var userID2: Int",
                "@Key(\"ID\") var id: Int",
                "@Key(\"content-type\") var contentType: String",
                "@Key(\"2x\") var _2x: Int",
                "var displayURL: String",
            ])
    }

    @Test func snakeCaseSamplesDeclareTheKeyStyle() throws {
        let source = try generate(#"{"has_more": true, "next_cursor": "c2", "id": 1, "items": [{"item_id": 7, "display_name": "Kai"}]}"#, name: "Page")
        #expect(
            source == """
                import Foundation
                import KilnModel

                @DataModel(keyStyle: .snakeCase)
                nonisolated struct Page: Sendable {
                    var hasMore: Bool
                    var nextCursor: String
                    var id: Int
                    var items: [Item]

                    @DataModel(keyStyle: .snakeCase)
                    nonisolated struct Item: Sendable {
                        var itemID: Int
                        var displayName: String
                    }
                }

                """)
    }

    /// Each type takes its own keys' majority; the minority gets `@Key`, so every key is written
    /// back as the sample had it. Keys that read the same in both styles (`id`) do not vote.
    @Test func mixedKeysAreDecidedPerModel() throws {
        let source = try generate(
            #"{"user_name": "a", "avatar_url": "u", "viewCount": 1, "id": 2, "author": {"nickName": "k", "userID": 1, "follower_count": 2}}"#)
        #expect(
            lines(source) == [
                "@DataModel(keyStyle: .snakeCase)", "nonisolated struct Model: Sendable {",
                "var userName: String", "var avatarURL: String", "@Key(\"viewCount\") var viewCount: Int", "var id: Int", "var author: Author",
                "@DataModel", "nonisolated struct Author: Sendable {",
                "var nickName: String", "var userID: Int", "@Key(\"follower_count\") var followerCount: Int",
                "}", "}",
            ])
        let tie = try generate(#"{"user_name": "a", "viewCount": 1}"#)
        #expect(
            lines(tie).prefix(4) == ["@DataModel", "nonisolated struct Model: Sendable {", "@Key(\"user_name\") var userName: String", "var viewCount: Int"])
    }

    @Test func keywordsAreEscapedAndSelfIsRenamed() throws {
        let source = try generate(#"{"class": "a", "default": true, "for": 1, "self": "x", "init": 2, "Type": 3}"#)
        #expect(
            lines(source).dropFirst(2).prefix(6) == [
                "var `class`: String",
                "var `default`: Bool",
                "var `for`: Int",
                "@Key(\"self\") var selfValue: String",
                "@Key(\"init\") var initValue: Int",
                "@Key(\"Type\") var type: Int",
            ])
    }

    @Test func keysWithPathCharactersOrNoneAreLiteralKeys() throws {
        let source = try generate(#"{"a.b": 1, "c": 2, "x[0]": true, "": "e", "say \"hi\"\\": 3}"#)
        #expect(
            lines(source).dropFirst(2).prefix(5) == [
                #"@Key(literal: "a.b") var aB: Int"#, "var c: Int", #"@Key(literal: "x[0]") var x0: Bool"#,
                #"@Key(literal: "") var field: String"#, #"@Key("say \"hi\"\\") var sayHi: Int"#,
            ])
    }

    @Test(arguments: [
        ("tags", "Tag"), ("categories", "Category"), ("statuses", "Status"), ("boxes", "Box"), ("media", "MediaItem"),
        ("list", "ModelItem"), ("data", "ModelItem"), ("user_mentions", "UserMention"), ("address", "AddressItem"),
    ])
    func arrayElementTypesAreSingular(key: String, type: String) throws {
        let source = try generate(#"{"\#(key)": [{"x": 1}]}"#)
        #expect(source.contains("struct \(type): Sendable {"))
    }

    @Test func nestedNameCollisionsArePredictable() throws {
        // `tag` and `tags` both want `Tag`; `date` is reserved; `model` is the enclosing type.
        let source = try generate(#"{"tag": {"a": 1}, "tags": [{"b": 2}], "date": {"d": 1}, "model": {"m": 1}, "url": {"u": 1}}"#)
        #expect(
            lines(source).dropFirst(2).prefix(5) == [
                "var tag: Tag", "var tags: [ModelTag]", "var date: ModelDate", "var model: ModelModel", "var url: Url",
            ])
        let expansionNames = try generate(#"{"decoder": {"a": 1}, "hasher": {"b": 1}, "key_path": {"c": 1}}"#) {
            $0.declaration = .finalClass
            $0.conformances = [.hashable]
        }
        #expect(lines(expansionNames).dropFirst(2).prefix(3) == ["var decoder: ModelDecoder", "var hasher: ModelHasher", "var keyPath: ModelKeyPath"])
        // The same key at every level is one type that holds itself: a class, the loop optional.
        let inner = try generate(#"{"item": {"item": {"item": {"x": 1}}}}"#)
        #expect(lines(inner).contains("nonisolated final class ModelItem: Sendable {"))
        #expect(lines(inner).contains("let item: ModelItem?"))
    }

    @Test func datesAreInferredByFormatAndKey() throws {
        let source = try generate(
            #"{"created_at": "2016-10-10T08:30:00Z", "pub_date": 20161010, "birthday": "19900102", "updatedAt": 1476086400, "sent_time": 1476086400123, "count": 20161010, "code": "20161010"}"#
        )
        #expect(
            lines(source).dropFirst(2).prefix(7) == [
                "@Transform(.iso8601) var createdAt: Date",
                "@Transform(.yyyyMMdd) var pubDate: Date",
                "@Transform(.yyyyMMdd) var birthday: Date",
                "@Key(\"updatedAt\") @Transform(.unixSeconds) var updatedAt: Date",
                "@Transform(.unixMilliseconds) var sentTime: Date",
                "var count: Int",
                "var code: String",
            ])
    }

    @Test func urlsAndUUIDsAreOptionalBecauseTheyHaveNoDefault() throws {
        let source = try generate(
            #"{"avatar": "https://x.com/a.png", "id": "3f1c2a9e-5b7d-4e8f-9a01-23456789abcd", "site": "x.com", "mixed": "https://x.com"}"#,
            #"{"avatar": "http://y.org/b", "id": "0b8e4c1d-2f3a-4b5c-8d6e-7f8091a2b3c4", "site": "y.org", "mixed": "nope"}"#
        ) {
            $0.usesDefaults = true
        }
        #expect(lines(source).dropFirst(2).prefix(4) == ["@Transform(.url) var avatar: URL?", "var id: String", "var site: String", "var mixed: String"])
        // A UUID is inferred when it is written as `UUID` writes it back (upper-case).
        let upper = try generate(#"{"id": "3F1C2A9E-5B7D-4E8F-9A01-23456789ABCD"}"#)
        #expect(lines(upper).contains("var id: UUID?"))
    }

    @Test func enumsFromSmallSetsOfCodes() throws {
        let samples =
            #"[{"status": "draft", "kind": "IN_PROGRESS", "name": "Kai"}, {"status": "published", "kind": "done", "name": "Kai"}, {"status": "draft", "kind": "IN_PROGRESS", "name": "Lin"}, {"status": "default", "kind": "done", "name": "Lin"}]"#
        #expect(!(try generate(samples)).contains("enum"))
        let source = try generate(samples) {
            $0.infersEnums = true
            $0.conformances = [.sendable, .equatable]
        }
        #expect(lines(source).dropFirst(2).prefix(3) == ["var status: Status", "var kind: Kind", "var name: String"])
        #expect(
            source.contains(
                """
                    nonisolated enum Status: String, FallbackEnum, Sendable, Equatable {
                        case draft
                        case published
                        case `default`
                        case unknown
                        static let fallback = Status.unknown
                    }
                """))
        #expect(source.contains("case inProgress = \"IN_PROGRESS\""))
        let tooMany = try generate(samples) {
            $0.infersEnums = true
            $0.enumMaximumCases = 1
        }
        #expect(!tooMany.contains("enum"))
    }

    /// Each value keeps its kind: `0` beside `"0"`, `false` beside `1` or a timestamp, a list of
    /// text with a `false` in it. A union of scalars is named after its kinds and shared; only
    /// integers beside other numbers are one type, `Double`.
    @Test func mixedScalarsAreSharedUnionsThatKeepEachKind() throws {
        let source = try generate(
            #"{"v": 1, "n": null, "e": [], "i": 3, "d": 1.5, "b": false, "u": {"a": 1}, "x": 2, "tags": ["a", false], "day": 20161010}"#,
            #"{"v": "one", "n": null, "e": [], "i": "12", "d": "2", "b": 1, "u": "x", "x": 2.5, "tags": ["b"], "day": "20161011"}"#)
        #expect(
            lines(source).dropFirst(2).prefix(10) == [
                "var v: IntOrString?", "var n: JSONValue? // always null in the samples",
                "var e: [JSONValue] // always empty in the samples", "var i: IntOrString?", "var d: DoubleOrString?", "var b: BoolOrInt?",
                "var u: UUnion?", "var x: Double", "var tags: [BoolOrString]", "var day: IntOrString?",
            ])
        #expect(source.components(separatedBy: "enum IntOrString:").count == 2, "\(source)")
        #expect(source.contains("enum IntOrString: Codable, Sendable {\n        case int(Int)\n        case string(String)\n"), "\(source)")
        #expect(source.contains("enum DoubleOrString: Codable, Sendable {\n        case double(Double)\n        case string(String)\n"), "\(source)")
        #expect(source.contains("enum BoolOrInt: Codable, Sendable {\n        case bool(Bool)\n        case int(Int)\n"), "\(source)")
        #expect(source.contains("enum BoolOrString: Codable, Sendable {\n        case bool(Bool)\n        case string(String)\n"), "\(source)")
        #expect(!source.contains("read as"), "\(source)")
    }

    @Test func realUnionsAreEnumsWithACasePerKind() throws {
        let source = try generate(#"{"v": {"id": 1}, "w": [1]}"#, #"{"v": "none", "w": 2.5}"#) { $0.conformances = [.sendable, .equatable] }
        #expect(lines(source).dropFirst(2).prefix(2) == ["var v: VUnion?", "var w: WUnion?"])
        #expect(
            source.contains(
                """
                    nonisolated enum VUnion: Codable, Sendable, Equatable {
                        case string(String)
                        case object(V)

                        init(from decoder: any Decoder) throws {
                            let container = try decoder.singleValueContainer()
                            if let value = try? container.decode(String.self) {
                                self = .string(value)
                                return
                            }
                            if let value = try? container.decode(V.self) {
                                self = .object(value)
                                return
                            }
                            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "none of String, V"))
                        }

                        func encode(to encoder: any Encoder) throws {
                            var container = encoder.singleValueContainer()
                            switch self {
                            case .string(let value): try container.encode(value)
                            case .object(let value): try container.encode(value)
                            }
                        }
                    }
                """), "\(source)")
        #expect(source.contains("case double(Double)\n        case array([Int])"), "\(source)")
    }

    @Test func arraysKeepNullElementsAndNest() throws {
        let source = try generate(#"{"a": ["x", null], "m": [[1, 2], [3.5]], "rows": [[{"k": 1}]]}"#)
        #expect(lines(source).dropFirst(2).prefix(3) == ["var a: [String?]", "var m: [[Double]]", "var rows: [[RowItem]]"])
    }

    @Test func finalClassesGetLetsAndHandWrittenHashable() throws {
        let source = try generate(#"{"id": 1, "name": "a"}"#) {
            $0.declaration = .finalClass
            $0.accessLevel = .public
            $0.conformances = [.sendable, .hashable]
        }
        // `==` and `hash(into:)` in an extension: inside a `@DataModel` class they hide the
        // conformances of an enclosing model from the compiler.
        #expect(
            lines(source) == [
                "@DataModel", "nonisolated public final class Model: Sendable {", "public let id: Int", "public let name: String", "}",
                "extension Model: Hashable {", "nonisolated public static func == (lhs: Model, rhs: Model) -> Bool {", "lhs.id == rhs.id",
                "&& lhs.name == rhs.name", "}", "nonisolated public func hash(into hasher: inout Hasher) {", "hasher.combine(id)",
                "hasher.combine(name)", "}", "}",
            ])
    }

    @Test func conformancesAndAccess() throws {
        let source = try generate(#"{"id": 1}"#) {
            $0.conformances = []
            $0.accessLevel = .package
        }
        #expect(lines(source) == ["@DataModel", "nonisolated package struct Model {", "package var id: Int", "}"])
        let hashable = try generate(#"{"id": 1}"#) { $0.conformances = [.equatable, .hashable] }
        #expect(hashable.contains("nonisolated struct Model: Hashable {"))
    }

    @Test func headerNamesSamplesAndHowToDecode() throws {
        var options = GeneratorOptions(typeName: "Article")
        options.keyPath = "data.list"
        let samples = [try Sample(name: "page1.json", bytes: Array(#"{"data": {"list": [{"id": 1}, {"id": 2}]}}"#.utf8))]
        let source = try ModelGenerator(options: options).source(for: samples)
        #expect(
            source.hasPrefix(
                """
                // Generated by `kiln generate` from page1.json (1 sample, 2 records at data.list).
                // Decode with: JSONDecoder().decode([Article].self, from: data, at: "data.list")

                import Foundation
                """))
    }

    @Test(arguments: ["", "1Model", "my-model", "Date", "struct"])
    func unusableTypeNamesAreRejected(name: String) {
        #expect(throws: GeneratorError.invalidTypeName(name)) { try generate(#"{"a": 1}"#, name: name) }
    }
}

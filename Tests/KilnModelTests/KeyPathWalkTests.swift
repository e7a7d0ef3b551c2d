import Foundation
import Testing
@_spi(Testing) @testable import KilnModel

/// One rule for where a key path leads, pinned for every caller of the document's one walk
/// (`JSONTape.locate`): `JSONDocument.value(at:)` and `rawJSON(at:)`, `@DataModel` key paths
/// (fast path, `Decoder` path and Foundation's, which must agree), and the `at:` of a decode.
/// `Envelope`'s code and message are pinned in `EnvelopeTests`.
@Suite("One walk for every key path")
struct KeyPathWalkTests {
    static let text = #"""
        {"name": "Ada", "list": [10, null, {"id": 7}], "obj": {"0": "zero", "gone": null}, "gone": null, "grid": [[1, 2], [3]]}
        """#

    /// Where each path leads: `value` (its JSON text), `null`, or nowhere.
    enum Leads: Equatable, CustomStringConvertible {
        case value(String)
        case null
        case nowhere
        var description: String {
            switch self {
            case .value(let text): text
            case .null: "null"
            case .nowhere: "nowhere"
            }
        }
    }

    static let cases: [(path: String, leads: Leads)] = [
        ("name", .value(#""Ada""#)),
        ("list[0]", .value("10")),
        ("list[2].id", .value("7")),
        ("grid[0][1]", .value("2")),
        ("obj.0", .value(#""zero""#)),
        ("list[1]", .null),
        ("gone", .null),
        ("obj.gone", .null),
        // A key into an array, a scalar or null leads nowhere (`list.0` is not `list[0]`).
        ("list.0", .nowhere),
        ("name.first", .nowhere),
        ("gone.x", .nowhere),
        // An index into an object, a scalar or null, or past the end, leads nowhere.
        ("obj[0]", .nowhere),
        ("name[0]", .nowhere),
        ("gone[0]", .nowhere),
        ("list[3]", .nowhere),
        ("grid[1][1]", .nowhere),
        // Nothing is inside a null met on the way, after a key or after an index.
        ("obj.gone.x", .nowhere),
        ("list[1].id", .nowhere),
        ("list[1][0]", .nowhere),
        ("missing", .nowhere),
    ]

    @Test(arguments: cases)
    func theDocumentsLookUpsFollowTheRule(path: String, leads: Leads) throws {
        let document = try JSONDocument(parsing: Self.text)
        let jsonPath = try JSONPath(parsing: path)
        let raw = document.rawJSON(at: jsonPath).map { String(decoding: $0, as: UTF8.self) }
        switch leads {
        case .value(let text):
            #expect(document.value(at: jsonPath) == (try JSONValue(parsing: text)))
            #expect(raw == text)
        case .null:
            #expect(document.value(at: jsonPath) == .null)
            #expect(raw == "null")
        case .nowhere:
            #expect(document.value(at: jsonPath) == nil)
            #expect(raw == nil)
        }
    }

    // MARK: @DataModel key paths, three ways

    @DataModel
    struct Walks: Equatable {
        @Key("list[0]") var first: Int?
        @Key("list[0]") var firstAsText = ""
        @Key("grid[0][1]") var cell: Int?
        @Key("list[2].id") var id = 0
        @Key("list[1]") var nullElement = -1
        @Key("list.0") var keyIntoArray = -1
        @Key("name.first") var keyIntoScalar: String?
        @Key("obj[0]") var indexIntoObject = "none"
        @Key("gone.x") var throughNull = "none"
        @Key("list[1].id") var throughNullElement = -1
        @Key("list[3]") var pastTheEnd: Int?
        @Key("obj.gone") var nullAtTheEnd = "none"
    }

    /// A path that ends at an element reads it (`@Key("tags[0]")`, as `@Key`'s documentation
    /// promises); a path that leads nowhere is missing, one that ends at `null` is null, by
    /// the same rule in the fast path, the `Decoder` path and through Foundation.
    @Test func modelKeyPathsFollowTheRuleInEveryDecoder() throws {
        let (walks, repairs) = try ModelIntentTests.decodeAllWays(Walks.self, Self.text)
        #expect(walks.first == 10)
        #expect(walks.firstAsText == "10")
        #expect(walks.cell == 2)
        #expect(walks.id == 7)
        #expect(walks.nullElement == -1)
        #expect(walks.keyIntoArray == -1)
        #expect(walks.keyIntoScalar == nil)
        #expect(walks.indexIntoObject == "none")
        #expect(walks.throughNull == "none")
        #expect(walks.throughNullElement == -1)
        #expect(walks.pastTheEnd == nil)
        #expect(walks.nullAtTheEnd == "none")
        let kinds = Dictionary(repairs.map { ($0.path, $0.kind) }, uniquingKeysWith: { first, _ in first })
        #expect(
            kinds == [
                "list[0]": .coerced, "list[1]": .null, "list.0": .missing, "obj[0]": .missing, "gone.x": .missing, "list[1].id": .missing, "obj.gone": .null,
            ])
    }

    // MARK: decode(at:)

    /// The `at:` of a decode: a step into a value of the wrong kind fails as that container
    /// fails; a missing key, an index past the end, and a `null` on the way or at the end, after a
    /// key or after an index alike, are `pathNotFound` naming the path to that step. Kiln's
    /// decoder and the entry point over `JSONDecoder` give the same errors.
    @Test(arguments: [
        ("missing", ModelDecodingError.pathNotFound(path: "missing")),
        ("list[3]", .pathNotFound(path: "list[3]")),
        ("gone", .pathNotFound(path: "gone")),
        ("list[1]", .pathNotFound(path: "list[1]")),
        ("gone.x", .pathNotFound(path: "gone")),
        ("list[1].id", .pathNotFound(path: "list[1]")),
        ("list[1][0]", .pathNotFound(path: "list[1]")),
        ("name.first", .typeMismatch(path: "name", expected: "[String: Any]", found: "a string")),
        ("list.0", .typeMismatch(path: "list", expected: "[String: Any]", found: "an array")),
        ("obj[0]", .typeMismatch(path: "obj", expected: "[Any]", found: "a dictionary")),
    ])
    func decodingAtAPathFollowsTheRule(path: String, error: ModelDecodingError) throws {
        let jsonPath = try JSONPath(parsing: path)
        #expect(throws: error) { try KilnDecoder().decode(JSONValue.self, from: Self.text, at: jsonPath) }
        #expect(throws: error) { try KilnDecoder.decoderProtocolPath.decode(JSONValue.self, from: Self.text, at: jsonPath) }
        #expect(throws: error) { try JSONDecoder().decode(JSONValue.self, from: Data(Self.text.utf8), at: jsonPath) }
    }

    @Test func decodingAtAPathReadsWhereItLeads() throws {
        #expect(try KilnDecoder().decode(Int.self, from: Self.text, at: "grid[0][1]") == 2)
        #expect(try JSONDecoder().decode(Int.self, from: Data(Self.text.utf8), at: "grid[0][1]") == 2)
        #expect(try KilnDecoder().decode(String.self, from: Self.text, at: "obj.0") == "zero")
    }
}

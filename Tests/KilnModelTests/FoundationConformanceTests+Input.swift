import Foundation
import Testing

@testable import KilnModel

/// What bytes both decoders accept: encodings and byte-order marks, top-level fragments,
/// strings and escapes, whitespace and nesting.
extension FoundationConformanceTests {
    static let thumbsUp = #""👍🏻""#

    static let utf8BOM: [UInt8] = [0xEF, 0xBB, 0xBF]
    static let utf16BigEndianBOM: [UInt8] = [0xFE, 0xFF]
    static let utf16LittleEndianBOM: [UInt8] = [0xFF, 0xFE]
    static let utf32BigEndianBOM: [UInt8] = [0, 0, 0xFE, 0xFF]
    /// swift-foundation's test writes the UTF-32 little-endian mark as `FE FF 00 00` (not the
    /// Unicode `FF FE 00 00`), and its decoder detects that.
    static let utf32LittleEndianBOM: [UInt8] = [0xFE, 0xFF, 0, 0]

    static func encoded(_ text: String, _ encoding: String.Encoding, after prefix: [UInt8] = []) -> Data {
        Data(prefix) + (text.data(using: encoding) ?? Data())
    }

    @Test func byteOrderMarksSelectTheEncoding() {
        Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf8, after: Self.utf8BOM))
        Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf16BigEndian, after: Self.utf16BigEndianBOM))
        Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf16LittleEndian, after: Self.utf16LittleEndianBOM))
        Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf32BigEndian, after: Self.utf32BigEndianBOM))
        Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf32LittleEndian, after: Self.utf32LittleEndianBOM))
        #expect(Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf8, after: Self.utf8BOM)) == .describing("👍🏻"))
    }

    @Test func mismatchedByteOrderMarksFail() {
        #expect(Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf32BigEndian, after: Self.utf32LittleEndianBOM)).isError)
        #expect(Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf32LittleEndian, after: Self.utf16BigEndianBOM)).isError)
        #expect(Self.expectSame(String.self, Self.encoded(Self.thumbsUp, .utf16BigEndian, after: Self.utf8BOM)).isError)
    }

    /// Without a mark, the zero bytes among the first four say UTF-16 or UTF-32 and which end.
    @Test(arguments: [String.Encoding.utf8, .utf16BigEndian, .utf16LittleEndian, .utf32BigEndian, .utf32LittleEndian])
    func encodingIsDetectedWithoutAMark(encoding: String.Encoding) {
        #expect(Self.expectSame(Int.self, Self.encoded("7", encoding)) == .describing(7))
        Self.expectSame([String: [Bool]].self, Self.encoded(#"{"ké": [true, false]}"#, encoding))
        Self.expectSame(String.self, Self.encoded(#""a\u00e9\n👍""#, encoding))
        Self.expectSame(Pair.self, Self.encoded(#"{"name": 1}"#, encoding))
    }

    /// Every control character through its escape, in each encoding.
    @Test(arguments: [String.Encoding.utf8, .utf16BigEndian, .utf32LittleEndian])
    func controlCharacterEscapes(encoding: String.Encoding) {
        let escapes = (0..<0x20).map { String(format: "\\u%04x", $0) } + ["\\b", "\\t", "\\n", "\\f", "\\r", " "]
        for escape in escapes {
            Self.expectSame(String.self, Self.encoded("\"\(escape)\"", encoding))
        }
    }

    @Test(arguments: [
        #""foo""#, "true", "false", "null", "[]", "{}", "7", #""a\/b""#, #""\u0000""#, #""abc\u0000def""#,
    ])
    func topLevelFragments(json: String) {
        Self.expectSame(String.self, json)
        Self.expectSame(Bool.self, json)
        Self.expectSame(String?.self, json)
        Self.expectSame([Int].self, json)
        Self.expectSame([String: String].self, json)
        Self.expectSame(JSONValueProbe.self, json)
    }

    /// An empty type accepts any object, and nothing else.
    struct Empty: Decodable {}
    final class EmptyClass: Decodable {}

    @Test(arguments: ["{}", #"{"a": 1}"#, "[]", "null", "1"])
    func emptyTypes(json: String) {
        Self.expectSame(Empty.self, json)
        Self.expectSame(EmptyClass.self, json)
    }

    /// Reads whatever single value is there, through the single-value container.
    struct JSONValueProbe: Decodable {
        var kind: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                kind = "null"
            } else if let bool = try? container.decode(Bool.self) {
                kind = "bool \(bool)"
            } else if let string = try? container.decode(String.self) {
                kind = "string \(string)"
            } else if let list = try? container.decode([JSONValueProbe].self) {
                kind = "list \(list.map(\.kind))"
            } else {
                kind = "other"
            }
        }
    }

    @Test(arguments: [#""foo"#, "tru_", "fals_", "nul_", " ", "", #""\uD8""#, #"{"invalid": json}"#, "[1,]]", "{\"a\" 1}"])
    func malformedInputFailsThroughBoth(json: String) {
        #expect(Self.expectSame(String.self, json).isError)
        Self.expectSame([String].self, json)
        Self.expectSame(Bool?.self, json)
    }

    /// Bad escapes fail a string read through both; read as another type, Foundation (which
    /// checks a string's escapes only when the string is read) reports the type mismatch first.
    @Test(arguments: [
        #""\h\e\l\l\o""#, #""\uD834""#, #""\uD834hello""#, #""hello\uD834""#, #""\uD834\u1221""#, #""\uD834x\uDD1E""#,
    ])
    func badEscapesFailThroughBoth(json: String) {
        #expect(Self.expectSame(String.self, json).isError)
        #expect(Self.expectSame([String].self, "[\(json)]").isError)
        withKnownIssue("Kiln's reader checks every escape while reading (invalidJSON); Foundation only when the string is read (typeMismatch)") {
            Self.expectSame(Bool?.self, json)
        }
    }

    @Test func invalidUTF8InAKeyFails() {
        let data = Data([123, 34, 107, 101, 121, 255, 34, 58, 34, 118, 97, 108, 117, 101, 34, 125]) // {"key\xFF":"value"}
        #expect(Self.expectSame([String: String].self, data).isError)
    }

    @Test func trailingCommasAreAccepted() {
        withKnownIssue("Kiln's reader is strict RFC 8259; Foundation accepts a trailing comma in arrays and objects") {
            Self.expectSame([String: [Bool]].self, #"{"key" : [ true, ],}"#)
        }
    }

    @Test(arguments: ["{\"v\"\n : true}", "{\"v\"\r\n : true}", "{\"v\"\r : true}", "\t[ true ]\n"])
    func whitespaceBetweenTokens(json: String) {
        Self.expectSame([String: Bool].self, json)
        Self.expectSame([Bool].self, json)
    }

    /// Arrays nested 256 deep read; 513 deep is refused by both.
    struct Deep: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            while (container.count ?? 0) > 0 {
                container = try container.nestedUnkeyedContainer()
            }
        }
    }

    @Test(arguments: [256, 513])
    func nestingDepth(depth: Int) {
        let json = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
        Self.expectSame(Deep.self, json)
    }

    @Test func nullBytesInsideStrings() {
        Self.expectSame([String].self, #"["abc\u0000def"]"#)
        Self.expectSame([String: String].self, #"{"abc\u0000def": "abc\u0000def"}"#)
    }

    @Test(arguments: [#""https://example.com/a?b=1""#, #""""#, #""http://[::1""#, "5"])
    func urls(json: String) {
        Self.expectSame(URL.self, json)
        Self.expectSame([URL].self, "[\(json)]")
    }
}

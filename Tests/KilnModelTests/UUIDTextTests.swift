import Foundation
import Testing

@testable import KilnModel

/// Kiln reads a `UUID` in its canonical form from the document's bytes, as `UUID(uuidString:)`
/// reads it; any other text goes on to `UUID`'s own decoding, so values, errors and repairs are
/// Foundation's.
@Suite struct UUIDTextTests {
    static func parsed(_ text: String) -> UUID? {
        var text = text
        return text.withUTF8 { UUIDText.uuid(UnsafeRawBufferPointer($0)) }
    }

    /// Whether `text` is a UUID's canonical form: hex digits, hyphens at 8, 13, 18 and 23.
    static func isCanonical(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count == 36 else { return false }
        return bytes.indices.allSatisfy { i in
            [8, 13, 18, 23].contains(i) ? bytes[i] == UInt8(ascii: "-") : Character(Unicode.Scalar(bytes[i])).isHexDigit
        }
    }

    /// Valid texts in both cases, and texts one edit away from valid: a byte replaced by one
    /// from a set that includes what `sscanf` takes (`+`, `-`, `x`, spaces), one byte more or
    /// fewer, two bytes swapped.
    @Test func textsReadAsUUIDInitReadsThem() {
        var state: UInt64 = 0x0DD_BA11
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let replacements = Array("0123456789abcdefABCDEFgG-+x \u{0}é".unicodeScalars.map(String.init))
        var accepted = 0
        for round in 0..<20_000 {
            var text = UUID().uuidString
            if round % 3 == 0 { text = text.lowercased() }
            var characters = Array(text)
            switch next(5) {
            case 0: break
            case 1, 2:
                let at = next(characters.count)
                characters.replaceSubrange(at...at, with: Array(replacements[next(replacements.count)]))
            case 3:
                if next(2) == 0 { characters.remove(at: next(characters.count)) } else { characters.insert("a", at: next(characters.count + 1)) }
            default:
                characters.swapAt(next(characters.count), next(characters.count))
            }
            text = String(characters)
            // Canonical texts are read here, as Foundation reads them; every other text is left
            // to Foundation (which on Linux takes some of them).
            let parsed = Self.parsed(text)
            #expect(parsed == (Self.isCanonical(text) ? UUID(uuidString: text) : nil), "\(text)")
            if parsed != nil { accepted += 1 }
        }
        #expect(accepted > 8_000 && accepted < 19_000)
    }

    @Test(arguments: [
        "", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F ", " E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8C36C495A93FC0C247A3E6E5F",
        "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "+621E1F8-C36C-495A-93FC-0C247A3E6E5F", "0x21E1F8-C36C-495A-93FC-0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "E621E1F8-C36C-495A-93FC-0C247A3E6E5F",
    ])
    func edgeTexts(text: String) {
        #expect(Self.parsed(text) == (Self.isCanonical(text) ? UUID(uuidString: text) : nil))
    }

    @DataModel
    struct Device: Equatable {
        var id: UUID?
        var owner = UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        var spares: [UUID] = []
    }

    /// Valid, escaped, lowercase, invalid, wrong-kind and absent values through Foundation's
    /// decoder, Kiln's fast path and its `Decoder` path: the same values and repairs.
    @Test func modelsReadUUIDsAsFoundationDoes() throws {
        let id = "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"
        let documents = [
            #"{"id": "\#(id)", "owner": "\#(id.lowercased())", "spares": ["\#(id)"]}"#,
            #"{"id": "\u0045621E1F8-C36C-495A-93FC-0C247A3E6E5F", "owner": "not a uuid"}"#,
            #"{"id": 42, "owner": null, "spares": ["\#(id)", "x", 7]}"#,
            #"{"id": "\#(id) ", "owner": ["\#(id)"]}"#,
            // Not canonical: Foundation's parser decides (on Linux it takes a sign in a group).
            #"{"id": "DFD8C9AC-24B0-4E45-8D+8-FFA09C03E8DE", "owner": "45bc 54d-604b-4232-a35b-b7f7be085c28"}"#,
            #"{}"#,
        ]
        for document in documents {
            _ = try ModelIntentTests.decodeAllWays(Device.self, document)
        }
        let (device, repairs) = try ModelIntentTests.decodeAllWays(Device.self, documents[1])
        #expect(device.id == UUID(uuidString: id))
        #expect(repairs.map(\.path) == ["owner", "spares"])
    }

    struct Strict: Decodable, Equatable {
        var id: UUID
        var others: [UUID]
    }

    /// `Codable` types through `KilnDecoder`: the same values, and the same errors for a text
    /// that is not a UUID and for a value that is not a string.
    @Test(arguments: [
        #"{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "others": ["e621e1f8-c36c-495a-93fc-0c247a3e6e5f"]}"#,
        #"{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "others": []}"#,
        #"{"id": "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "others": [1]}"#,
        #"{"id": null, "others": []}"#,
    ])
    func codableTypesReadUUIDsAsFoundationDoes(json: String) {
        FoundationConformanceTests.expectSame(Strict.self, json)
    }
}

import Foundation
import Testing
@testable import KilnModel

/// The reader finds the byte that ends plain text at every position of its sixteen-byte blocks:
/// a closing quote, an escape, text outside ASCII, a control character, and the end of the
/// document right after an unterminated string.
@Suite struct ReaderStringScanTests {
    static let lengths = Array(0..<50)

    @Test(arguments: lengths)
    func theClosingQuoteAtEveryOffset(length: Int) throws {
        let text = String(repeating: "a", count: length)
        #expect(try KilnDecoder().decode(String.self, from: "\"\(text)\"") == text)
        #expect(try KilnDecoder().decode([String].self, from: "[\"\(text)\",\"\(text)b\"]") == [text, text + "b"])
    }

    @Test(arguments: lengths)
    func anEscapeAtEveryOffset(length: Int) throws {
        let head = String(repeating: "a", count: length)
        #expect(try KilnDecoder().decode(String.self, from: #""\#(head)\n\#(head)\u00e9z""#) == head + "\n" + head + "éz")
    }

    @Test(arguments: lengths)
    func textOutsideASCIIAtEveryOffset(length: Int) throws {
        let head = String(repeating: "a", count: length)
        let text = head + "é→😀" + head + "z"
        #expect(try KilnDecoder().decode(String.self, from: "\"\(text)\"") == text)
        // Invalid UTF-8 after the run is still refused.
        var bytes = Array("\"\(head)".utf8)
        bytes += [0xC3, 0x28, UInt8(ascii: "\"")]
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode(String.self, from: bytes) }
    }

    @Test(arguments: lengths)
    func aControlCharacterAtEveryOffsetIsRefused(length: Int) {
        let head = String(repeating: "a", count: length)
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode(String.self, from: "\"\(head)\u{01}b\"") }
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode(String.self, from: "\"\(head)\tb\"") }
    }

    /// The document ends inside the string: the scan stops at the padding after it.
    @Test(arguments: lengths)
    func anUnterminatedStringAtTheEndIsRefused(length: Int) {
        let head = String(repeating: "a", count: length)
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode(String.self, from: "\"\(head)") }
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode([String].self, from: "[\"\(head)") }
    }
}

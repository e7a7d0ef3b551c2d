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
        // Text beyond ASCII before and after escapes, and an escape last.
        #expect(try KilnDecoder().decode(String.self, from: #""é→\#(head)\t😀\#(head)ü\"""#) == "é→" + head + "\t😀" + head + "ü\"")
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

    /// Whether `content` may stand between a string's quotes unescaped: valid UTF-8, as the
    /// standard library validates it, with no control character and no quote.
    static func isStringContent(_ content: [UInt8]) -> Bool {
        String(validating: content, as: UTF8.self) != nil && !content.contains { $0 < 0x20 || $0 == 0x22 }
    }

    /// Every lead byte followed by continuation bytes at their edges (and by bytes that are not
    /// continuations) is accepted exactly when the standard library's UTF-8 validation accepts it,
    /// whether the sequence ends the string, is followed by ASCII, or starts a run of others; and
    /// whether it starts the text or follows a three-byte character (which the reader may check
    /// together with it).
    @Test func multiByteSequencesAreValidatedAsTheStandardLibraryDoes() throws {
        let seconds: [UInt8] = [0x00, 0x22, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xE0, 0xFF]
        let lasts: [UInt8] = [0x22, 0x41, 0x80, 0xBF, 0xC0]
        // "あ", a valid three-byte character, before the sequence and after it.
        let hiragana: [UInt8] = [0xE3, 0x81, 0x82]
        let heads = [[], hiragana]
        let tails = [[], [0x61], hiragana]
        var checked = 0
        for lead in UInt8(0x80)...UInt8(0xFF) {
            for second in seconds {
                for third in lasts {
                    for fourth in [UInt8(0x80), 0x41] {
                        for head in heads {
                            for tail in tails {
                                let content = head + [lead, second, third, fourth] + tail
                                let valid = Self.isStringContent(content)
                                let document = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
                                let read = (try? JSONDocument(parsing: Data(document))) != nil
                                #expect(read == valid, "bytes \(content.map { String($0, radix: 16) })")
                                checked += 1
                            }
                        }
                    }
                }
            }
        }
        #expect(checked == 128 * 13 * 5 * 2 * 6)
    }

    /// A run of three-byte characters, which the reader validates fifteen bytes at a time after
    /// its first two, broken by every lead byte (and second byte) at every place of its first two
    /// blocks: accepted exactly when the standard library's UTF-8 validation accepts it.
    @Test func runsOfThreeByteCharactersAreValidatedAsTheStandardLibraryDoes() throws {
        let seconds: [UInt8] = [0x41, 0x80, 0x9F, 0xA0, 0xBF, 0xC0]
        // "あ", and "日" (led by E6), so that the run mixes leads.
        let characters: [[UInt8]] = [[0xE3, 0x81, 0x82], [0xE6, 0x97, 0xA5]]
        var checked = 0
        for length in 2...12 {
            let head = (0..<length).flatMap { characters[$0 % 2] }
            for lead in UInt8(0x80)...UInt8(0xFF) {
                for second in seconds {
                    for third in [UInt8(0x80), 0x41] {
                        for tail in [[], [UInt8(0x61)], characters[0] + characters[1] + characters[0]] {
                            let content = head + [lead, second, third] + tail
                            let valid = Self.isStringContent(content)
                            let document = [UInt8(ascii: "\"")] + content + [UInt8(ascii: "\"")]
                            let read = try? JSONDocument(parsing: Data(document))
                            #expect((read != nil) == valid, "bytes \(content.map { String($0, radix: 16) })")
                            if valid, case .string(let text)? = read?.value {
                                #expect(Array(text.utf8) == content)
                            }
                            checked += 1
                        }
                    }
                }
            }
        }
        #expect(checked == 11 * 128 * 6 * 2 * 3)
    }
}

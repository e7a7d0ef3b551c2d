import Foundation

/// Finds where a document stops being JSON, for error messages. Only runs after a decoder has
/// already failed, so it favours clarity over speed.
enum JSONSyntaxLocator {
    struct Location: Equatable {
        var message: String
        var offset: Int
        var line: Int
        var column: Int
    }

    /// The first syntax error in `data`, or `nil` when `data` is valid JSON.
    static func locate(in data: Data) -> Location? {
        let bytes = [UInt8](data)
        var scanner = Scanner(bytes: bytes)
        do throws(Failure) {
            scanner.skipWhitespace()
            try scanner.value(depth: 0)
            scanner.skipWhitespace()
            if scanner.index < bytes.count { throw Failure(message: "unexpected text after the document", offset: scanner.index) }
            return nil
        } catch {
            let offset = min(error.offset, bytes.count)
            var line = 1
            var lineStart = 0
            for i in 0..<offset where bytes[i] == UInt8(ascii: "\n") {
                line += 1
                lineStart = i + 1
            }
            return Location(message: error.message, offset: offset, line: line, column: offset - lineStart + 1)
        }
    }

    struct Failure: Error {
        var message: String
        var offset: Int
    }

    struct Scanner {
        let bytes: [UInt8]
        var index = 0

        mutating func skipWhitespace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        func fail(_ message: String) -> Failure { Failure(message: message, offset: index) }

        mutating func value(depth: Int) throws(Failure) {
            guard depth < 512 else { throw fail("nesting deeper than 512 levels") }
            guard index < bytes.count else { throw fail("unexpected end of input") }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "}") { index += 1; return }
                while true {
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else { throw fail("expected a string key") }
                    try string()
                    skipWhitespace()
                    guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else { throw fail("expected ':' after a key") }
                    index += 1
                    skipWhitespace()
                    try value(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end of input in an object") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "}") { index += 1; return }
                    throw fail("expected ',' or '}' in an object")
                }
            case UInt8(ascii: "["):
                index += 1
                skipWhitespace()
                if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1; return }
                while true {
                    skipWhitespace()
                    try value(depth: depth + 1)
                    skipWhitespace()
                    guard index < bytes.count else { throw fail("unexpected end of input in an array") }
                    if bytes[index] == UInt8(ascii: ",") { index += 1; continue }
                    if bytes[index] == UInt8(ascii: "]") { index += 1; return }
                    throw fail("expected ',' or ']' in an array")
                }
            case UInt8(ascii: "\""):
                try string()
            case UInt8(ascii: "t"): try literal("true")
            case UInt8(ascii: "f"): try literal("false")
            case UInt8(ascii: "n"): try literal("null")
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                try number()
            default:
                throw fail("unexpected character '\(Character(Unicode.Scalar(bytes[index])))'")
            }
        }

        mutating func literal(_ word: String) throws(Failure) {
            let start = index
            for byte in word.utf8 {
                guard index < bytes.count, bytes[index] == byte else { throw Failure(message: "expected '\(word)'", offset: start) }
                index += 1
            }
        }

        mutating func string() throws(Failure) {
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                if byte == UInt8(ascii: "\"") { index += 1; return }
                if byte < 0x20 { throw fail("control character in a string") }
                index += byte == UInt8(ascii: "\\") ? 2 : 1
            }
            throw fail("unterminated string")
        }

        mutating func number() throws(Failure) {
            let start = index
            if bytes[index] == UInt8(ascii: "-") { index += 1 }
            let digitsStart = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            guard index > digitsStart else { throw fail("expected a digit") }
            if bytes[digitsStart] == UInt8(ascii: "0"), index - digitsStart > 1 { throw Failure(message: "leading zero in a number", offset: start) }
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
                index += 1
                let fraction = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > fraction else { throw fail("expected a digit after '.'") }
            }
            if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
                index += 1
                if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
                let exponent = index
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
                guard index > exponent else { throw fail("expected a digit in the exponent") }
            }
        }
    }
}

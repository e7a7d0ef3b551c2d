import Foundation
import Testing
@testable import KilnModel

@Suite("JSON reader")
struct ReaderTests {
    /// Pretty-printed layouts (line breaks, any indentation, tabs, CRLF, trailing blank lines)
    /// read as the minified document does; an error after indentation names the right byte.
    @Test func indentationOfAnyWidthReadsLikeMinified() throws {
        let minified = try JSONValue(parsing: #"{"a":[1,{"b":"c"},[]],"d":{},"e":null}"#)
        for width in 0...20 {
            for (newline, pad) in [("\n", " "), ("\r\n", " "), ("\n", "\t"), ("\n", " \t ")] {
                let indent = String(repeating: pad, count: width)
                let text =
                    "{" + newline + indent + #""a": ["# + newline + indent + indent + "1," + newline + indent
                    + #"{"b" : "c"}"# + "," + newline + indent + "[" + newline + indent + "]" + newline + indent + "],"
                    + newline + indent + #""d": {"# + newline + indent + "}," + newline + #""e": null"# + newline + indent + "}"
                    + newline + indent
                #expect(try JSONValue(parsing: text) == minified, "width \(width)")
            }
            let broken = "[1," + "\n" + String(repeating: " ", count: width) + "x]"
            #expect {
                _ = try JSONDocument(parsing: broken)
            } throws: { error in
                guard case .invalidJSON(_, let offset, _, _)? = error as? ModelDecodingError else { return false }
                return offset == 4 + width
            }
        }
    }

    /// The reader takes each line to be indented as the one before until a line is not: lines
    /// whose indentation changes by any amount, from one line to the next or back (deeper,
    /// shallower, wider than a block of sixteen, with tabs or a carriage return after the
    /// spaces), read as the minified document does, and an error after a changed indentation
    /// names the right byte.
    @Test func indentationThatChangesFromLineToLineReadsLikeMinified() throws {
        let members = (0..<40).map { #""k\#($0)": "# + ["1", #""v""#, "[2, 3]", "{}", "null", "-4.5"][$0 % 6] }
        let minified = try JSONValue(parsing: "{" + members.joined(separator: ",").replacingOccurrences(of: ": ", with: ":") + "}")
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        for round in 0..<200 {
            // Runs of equal widths, as documents have them, broken by jumps of any size.
            var width = next(20)
            var text = "{"
            var widths: [Int] = []
            for (index, member) in members.enumerated() {
                if next(3) == 0 { width = max(0, width + next(9) - 4) }
                if next(10) == 0 { width = next(40) }
                widths.append(width)
                let after = ["", "", "\t", "\r"][round % 4 == 3 ? next(4) : 0]
                text += "\n" + String(repeating: " ", count: width) + after + member + (index < members.count - 1 ? "," : "")
            }
            text += "\n" + String(repeating: " ", count: next(20)) + "}"
            #expect(try JSONValue(parsing: text) == minified, "widths \(widths)")
            // The same lines with a bad token on the last one: the error is where it is.
            let cut = text.index(text.startIndex, offsetBy: text.utf8.count - 1)
            let broken = String(text[..<cut]) + "\n" + String(repeating: " ", count: width) + "x}"
            let offset = broken.utf8.count - 2
            #expect {
                _ = try JSONDocument(parsing: broken)
            } throws: { error in
                guard case .invalidJSON(_, let at, _, _)? = error as? ModelDecodingError else { return false }
                return at == offset
            }
        }
    }

    /// Whatever whitespace follows a key's colon, and empty containers written tight or
    /// loose, read as the minified document does; a control character is no whitespace there.
    @Test func whitespaceAfterAColonAndEmptyContainersReadLikeMinified() throws {
        let values = ["1", #""s""#, "[]", "{}", "[ ]", "{\n}", "[[],{},[[]]]", "null", "true", "-2"]
        for separator in ["", " ", "  ", " \n", "\t", " \t", "\n    ", "\r\n", " \r\n  "] {
            for value in values {
                let minified = try JSONValue(parsing: #"{"k":"# + value + #","m":[],"n":{}}"#)
                let text = #"{"k":"# + separator + value + #","m":"# + separator + "[]," + #""n":"# + separator + "{}}"
                #expect(try JSONValue(parsing: text) == minified, "\(text.debugDescription)")
            }
        }
        for control in ["\u{1}", "\u{1F}"] {
            #expect(throws: (any Error).self, "\(control.debugDescription)") { try JSONValue(parsing: #"{"k": "# + control + "1}") }
        }
        let nested = try JSONValue(parsing: "[[],{},[[]],[{}],{\"a\":[]}]")
        #expect(nested == .array([.array([]), .object([:]), .array([.array([])]), .array([.object([:])]), .object(["a": .array([])])]))
    }

    /// Strings and keys of every length up to three words, with an escape, a character outside
    /// ASCII or the closing quote at every position: each reads as Foundation reads it, and a
    /// string holding a character outside ASCII counts its characters as such (a string wrongly
    /// marked ASCII would count bytes).
    @Test func stringsEndAndEscapeExactlyAtEveryPosition() throws {
        let specials = [
            #"\n"#, #"\""#, #"\\"#, #"\u00e9"#, #"\ud83d\ude00"#, #"\u0041"#, "é", "日本", "😀", "e\u{301}", "\u{7F}",
            #"é\n"#, #"\t日"#, #"\u0041é"#,
        ]
        for length in 0...24 {
            let filler = (0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) }
            for special in specials {
                for position in 0...length {
                    let raw = String(filler.prefix(position)) + special + String(filler.dropFirst(position))
                    let data = Data(#"{"\#(raw)": ["\#(raw)", "\#(String(filler))"]}"#.utf8)
                    let expected = try JSONDecoder().decode([String: [String]].self, from: data)
                    let read = try KilnDecoder().decode([String: [String]].self, from: data)
                    #expect(read == expected, "\(raw.debugDescription)")
                    let texts = read.flatMap { [$0.key] + $0.value }
                    let expectedTexts = expected.flatMap { [$0.key] + $0.value }
                    #expect(texts.map(\.count).sorted() == expectedTexts.map(\.count).sorted(), "\(raw.debugDescription)")
                }
            }
        }
    }

    @Test func integersStayExactToSixtyFourBits() throws {
        let value = try JSONValue(parsing: "[0, -0, 9223372036854775807, -9223372036854775808, 18446744073709551615, 12345678901234567890123]")
        #expect(value == [0, 0, .int(.max), .int(.min), .double(18446744073709551615.0), .double(1.2345678901234568e22)])
        let big = try KilnDecoder().decode([UInt64].self, from: Data("[18446744073709551615]".utf8))
        #expect(big == [.max])
    }

    /// Integers of every length, read eight digits at a time, with whatever may follow them.
    @Test func integersOfEveryLengthReadExactly() throws {
        var state: UInt64 = 0x9E37_79B9
        for length in 1...20 {
            for _ in 0..<50 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                var digits = String(state % 9 + 1)
                while digits.count < length {
                    state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                    digits += String(state >> 60 % 10)
                }
                for sign in ["", "-"] {
                    for tail in ["", " ", ",1", "]", ".5", "e2", "E-1", "\n"] {
                        let text = sign + digits + tail
                        let json = "[" + text + (tail == "]" ? "" : "]")
                        guard case .array(let items) = try JSONValue(parsing: json), let first = items.first else {
                            Issue.record("\(json)")
                            continue
                        }
                        let number = sign + digits + (tail.hasPrefix(".") || tail.hasPrefix("e") || tail.hasPrefix("E") ? tail : "")
                        switch first {
                        case .int(let i): #expect(Int64(number) == i, "\(json)")
                        case .double(let d): #expect(Int64(number) == nil && d.bitPattern == (Double(number) ?? .nan).bitPattern, "\(json)")
                        default: Issue.record("\(json) read as \(first)")
                        }
                    }
                }
            }
        }
    }

    @Test func doublesAreCorrectlyRounded() throws {
        let samples = [
            "0.1", "1.7976931348623157e308", "5e-324", "2.2250738585072014e-308", "9007199254740993",
            "0.30000000000000004", "123456789012345678901234567890e-10", "1.00000000000000011102230246251565404236316680908203125",
            "-4.9406564584124654e-324", "3.14159265358979323846264338327950288", "1e22", "1e23", "8.41e21", "1.5e-7", "2.5E+3",
        ]
        for text in samples {
            let value = try JSONValue(parsing: "[\(text)]")
            guard case .array(let items) = value, let first = items.first else {
                Issue.record("\(text)")
                continue
            }
            let expected = Double(text) ?? .nan
            switch first {
            case .double(let d): #expect(d.bitPattern == expected.bitPattern, "\(text)")
            case .int(let i): #expect(Double(i) == expected, "\(text)")
            default: Issue.record("\(text) read as \(first)")
            }
        }
        // Pseudo-random decimals against Swift's own correctly rounded parser.
        var state: UInt64 = 0x1234_5678
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = state >> 11
            let exponent = Int((state >> 3) % 60) - 30
            let digits = Int(state % 17) + 1
            let text = "\(mantissa % UInt64(pow(10.0, Double(min(digits, 19)))))e\(exponent)"
            guard case .double(let d) = try JSONValue(parsing: text) else { continue }
            #expect(d.bitPattern == (Double(text) ?? .nan).bitPattern, "\(text)")
        }
    }

    @Test func stringsUnescapeSurrogatePairsAndValidateUTF8() throws {
        let value = try JSONValue(parsing: #"["a\"b\\c\/\b\f\n\r\t", "\u00e9\ud83d\ude00", "日本語", "\u0000"]"#)
        #expect(value == ["a\"b\\c/\u{8}\u{c}\n\r\t", "é😀", "日本語", "\u{0}"])
        #expect(throws: ModelDecodingError.self) { _ = try JSONDocument(parsing: [0x22, 0xC3, 0x28, 0x22]) }
        #expect(throws: ModelDecodingError.self) { _ = try JSONValue(parsing: #"["\ud83d"]"#) }
        #expect(throws: ModelDecodingError.self) { _ = try JSONValue(parsing: "[\"tab\there\"]") }
    }

    @Test func syntaxErrorsGiveOffsetLineAndColumn() {
        do {
            _ = try JSONValue(parsing: "{\n  \"a\": 1,\n  \"b\": tru\n}")
            Issue.record("accepted")
        } catch {
            #expect(error == .invalidJSON(message: "invalid literal; expected 'true'", offset: 19, line: 3, column: 8))
        }
        do {
            _ = try JSONValue(parsing: "[1, 2")
            Issue.record("accepted")
        } catch {
            guard case .invalidJSON(_, let offset, let line, let column) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(offset == 5 && line == 1 && column == 6)
        }
    }

    @Test func nestingLimitEndsInATypedError() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(throws: ModelDecodingError.self) { _ = try JSONDocument(parsing: deep) }
        var options = JSONReaderOptions()
        options.maxDepth = 3
        #expect(throws: Never.self) { _ = try JSONDocument(parsing: "[[[1]]]", options: options) }
        do {
            _ = try JSONDocument(parsing: "[[[[1]]]]", options: options)
            Issue.record("accepted")
        } catch {
            guard case .invalidJSON(let message, let offset, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message.contains("nesting") && offset == 3)
        }
        #expect(throws: Never.self) { _ = try JSONDocument(parsing: String(repeating: "[", count: 512) + String(repeating: "]", count: 512)) }
    }

    @Test func keyPathsReachInsideTheDocument() throws {
        let document = try JSONDocument(parsing: #"{"data": {"list": [{"id": 1}, {"id": 2}]}, "code": "0000"}"#)
        #expect(document.value(at: "data.list[1].id") == 2)
        #expect(document.value(at: "code") == "0000")
        #expect(document.value(at: "data.missing") == nil)
    }

    /// The tape of a large document is sized from samples of its bytes; a document whose samples
    /// all fall inside long strings, with dense numbers everywhere else, reserves next to nothing
    /// and grows many times while it reads, and still reads whole.
    @Test func aDocumentDenserThanItsSamplesReadsWhole() throws {
        let total = 8 * 32_768
        let long = String(repeating: "a", count: 2_000)
        var text = "["
        var expected: [JSONValue] = []
        // The samples start at one, three, five and seven eighths of the document.
        for eighth in stride(from: 1, to: 8, by: 2) {
            while text.utf8.count < total * eighth / 8 - 100 {
                text += "0,"
                expected.append(.int(0))
            }
            text += "\"\(long)\","
            expected.append(.string(long))
        }
        while text.utf8.count < total - 3 {
            text += "1,"
            expected.append(.int(1))
        }
        text += "2]"
        expected.append(.int(2))
        #expect(try JSONValue(parsing: text) == .array(expected))
    }

    /// What a large document reserves for its tape covers its tokens, with at most 60% to spare:
    /// sizing by bytes alone reserved three to five times its tokens for a pretty-printed one.
    @Test func largeDocumentsReserveCloseToTheirTokens() throws {
        for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
            let data = try Data(contentsOf: SharedData.benchdata.appendingPathComponent(name))
            var bytes = [UInt8](data) + [UInt8](repeating: 0, count: JSONTapeBuilder.padding)
            let reserved = bytes.withUnsafeMutableBufferPointer { buffer in
                buffer.baseAddress.map { JSONTapeBuilder.estimatedTokens($0, count: data.count) } ?? 0
            }
            let tape = try data.withUnsafeBytes { try JSONTapeBuilder.parse($0, options: JSONReaderOptions()) }
            #expect(reserved >= tape.tokenCount, "\(name)")
            #expect(reserved * 5 <= tape.tokenCount * 8, "\(name)")
        }
    }

    @Test func wholeDocumentsMatchFoundation() throws {
        for name in ["twitter.json", "citm_catalog.json"] {
            let data = try Data(contentsOf: SharedData.benchdata.appendingPathComponent(name))
            let kiln = try JSONValue(parsing: data)
            let foundation = try JSONDecoder().decode(JSONValue.self, from: data)
            #expect(kiln == foundation, "\(name)")
        }
    }
}

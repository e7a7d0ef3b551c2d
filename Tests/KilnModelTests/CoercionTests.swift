import Foundation
import KilnModel
import Testing

@DataModel
struct Scalars: Equatable {
    var count: Int
    var flag: Bool
    var text: String
    var ratio: Double
    var big: Int64
    var small: Int8
}

@Suite struct CoercionTests {
    @Test(arguments: [#""42""#, "42", "42.0", #"" 42 ""#])
    func integersFromStringsAndIntegralNumbers(raw: String) throws {
        let value = try JSONDecoder().decode(Scalars.self, from: json(#"{"count": \#(raw)}"#))
        #expect(value.count == 42)
    }

    @Test(arguments: ["1", #""1""#, #""true""#, #""yes""#, #""YES""#, "true"])
    func booleansFromNumbersAndWords(raw: String) throws {
        let value = try JSONDecoder().decode(Scalars.self, from: json(#"{"flag": \#(raw)}"#))
        #expect(value.flag == true)
    }

    @Test(arguments: ["0", #""false""#, #""no""#, #""0""#])
    func falseFromNumbersAndWords(raw: String) throws {
        let value = try JSONDecoder().decode(Scalars.self, from: json(#"{"flag": \#(raw)}"#))
        #expect(value.flag == false)
    }

    /// Numeric strings into `Int` and `Int64` properties: the fast path (plain digits, up to 18
    /// bytes) and the general rule agree, in Kiln's decoder and in Foundation's, repairs included.
    @Test(arguments: [
        "505874924095815681", "-12", "+7", "007", "-0", "999999999999999999", "-99999999999999999",
        "9223372036854775807", "9223372036854775808", "-", "+", "", "1.5", "12.0", " 12", "12 ", "1e3", "0x10",
        // Text that is never a number, known from its bytes, and text a parse must decide.
        "12k", "1.5k", "-12k", "1,5", "1_000", "0x1g", "1 2", "+.5e1", ".5", "-.5E+1", "0x1p3", "0X1P-1", "0x1.8p1",
        "1f", "1p3", "inf", "-Infinity", "nan", "NaN(1)", "k12",
    ])
    func numericStringsReadAlikeInBothDecoders(raw: String) throws {
        let data = json(#"{"big": "\#(raw)", "count": "\#(raw)"}"#)
        let foundation = try JSONDecoder().decodeWithRepairs(Scalars.self, from: data)
        let kiln = try KilnDecoder().decodeWithRepairs(Scalars.self, from: data)
        #expect(kiln.value == foundation.value)
        #expect(kiln.repairs == foundation.repairs)
        if let exact = Int64(raw) { #expect(kiln.value.big == exact) }
    }

    @Test func numbersAndBooleansBecomeStrings() throws {
        #expect(try JSONDecoder().decode(Scalars.self, from: json(#"{"text": 42}"#)).text == "42")
        #expect(try JSONDecoder().decode(Scalars.self, from: json(#"{"text": 3.5}"#)).text == "3.5")
        #expect(try JSONDecoder().decode(Scalars.self, from: json(#"{"text": true}"#)).text == "true")
    }

    @Test func doublesFromStrings() throws {
        #expect(try JSONDecoder().decode(Scalars.self, from: json(#"{"ratio": "3.5"}"#)).ratio == 3.5)
        #expect(try JSONDecoder().decode(Scalars.self, from: json(#"{"ratio": 2}"#)).ratio == 2)
    }

    @Test func coercionIsLogged() throws {
        let (_, repairs) = try JSONDecoder().decodeWithRepairs(
            Scalars.self, from: json(#"{"count": "42", "flag": 1, "text": 7, "ratio": 1, "big": 1, "small": 1}"#))
        let coerced = repairs.filter { $0.kind == .coerced }.map(\.path).sorted()
        #expect(coerced == ["count", "flag", "text"])
        #expect(repairs.contains { $0.description == #"count: expected Int, found "42" → 42"# })
    }

    @Test func fractionIntoIntegerIsRefusedAndLogged() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Scalars.self, from: json(#"{"count": 4.7}"#))
        #expect(value.count == 0)
        #expect(repairs.contains { $0.path == "count" && $0.kind == .invalid && $0.found == "4.7" })
    }

    @Test func fractionIntoIntegerTruncatesWhenThePolicyAllows() throws {
        var policy = DecodingPolicy()
        policy.allowsFractionalTruncation = true
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Scalars.self, from: json(#"{"count": 4.7, "small": "-3.9"}"#), policy: policy)
        #expect(value.count == 4)
        #expect(value.small == -3)
        #expect(repairs.contains { $0.path == "count" && $0.kind == .coerced })
    }

    @Test func integersBeyond2To53KeepFullPrecision() throws {
        let value = try JSONDecoder().decode(Scalars.self, from: json(#"{"big": 9007199254740993, "count": "9007199254740993", "text": 9007199254740993}"#))
        #expect(value.big == 9_007_199_254_740_993)
        #expect(value.count == 9_007_199_254_740_993)
        #expect(value.text == "9007199254740993")
    }

    @Test func outOfRangeIntegersAreRefused() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Scalars.self, from: json(#"{"small": 300}"#))
        #expect(value.small == 0)
        #expect(repairs.contains { $0.path == "small" && $0.kind == .invalid })
    }

    @Test func uncoercibleValuesKeepTheDefault() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Scalars.self, from: json(#"{"count": "12k", "flag": "maybe", "text": {"a": 1}}"#))
        #expect(value == Scalars())
        #expect(repairs.contains { $0.description == #"count: expected Int, found "12k" → 0"# })
        #expect(repairs.contains { $0.path == "text" && $0.found == #"{"a":1}"# })
    }

    /// Numeric strings are trimmed of exactly what Foundation's `CharacterSet.whitespaces` holds:
    /// tabs, every Unicode space separator and U+200B, never line breaks.
    @Test(arguments: [
        "\u{20}", "\t", "\u{A0}", "\u{1680}", "\u{2000}", "\u{2003}", "\u{200A}", "\u{200B}", "\u{200C}", "\u{202F}",
        "\u{205F}", "\u{3000}", "\u{FEFF}", "\u{180E}", "\n", "\r\n", "\u{0B}", "\u{85}", "\u{2028}", "x", "",
    ])
    func numericStringsTrimTheSpacesFoundationTrims(pad: String) {
        for text in ["42", "-7", "3.0", "2.5"] {
            for padded in [pad + text, text + pad, pad + pad + text + pad] {
                let foundation = padded.trimmingCharacters(in: .whitespaces)
                #expect(
                    Int64.coerce(from: .string(padded), truncating: false) == Int64(foundation) ?? Double(foundation).flatMap { Int64(exactly: $0) },
                    "\(padded.debugDescription)")
                #expect(Double.coerce(from: .string(padded), truncating: false) == Double(foundation), "\(padded.debugDescription)")
            }
        }
        #expect(Bool.coerce(from: .string(pad + "Yes" + pad), truncating: false) == (pad.trimmingCharacters(in: .whitespaces).isEmpty ? true : nil))
    }
}

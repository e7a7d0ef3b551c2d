import Foundation
import Testing
@_spi(Testing) @testable import KilnModel

/// KilnDecoder's `Double` and `Float` against the C library's correctly rounded `strtod` and
/// `strtof`, bit for bit, over a large corpus of generated number texts.
@Suite("Number corpus")
struct NumberCorpusTests {
    /// SplitMix64: a small seeded generator, so every run sees the same corpus.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// A number text: random digit count 1–40, a dot anywhere or nowhere, an exponent that puts
    /// the value anywhere from below Double's subnormals to just past its largest finite value.
    static func randomText(_ random: inout Generator) -> String {
        let count = Int.random(in: 1...40, using: &random)
        var digits = (0..<count).map { _ in Character(String(Int.random(in: 0...9, using: &random))) }
        if digits.count > 1, digits[0] == "0" { digits[0] = Character(String(Int.random(in: 1...9, using: &random))) }
        var text = Int.random(in: 0..<4, using: &random) == 0 ? "-" : ""
        let dot = Int.random(in: 0...count, using: &random)
        if dot > 0, dot < count {
            text += String(digits[..<dot]) + "." + String(digits[dot...])
        } else {
            text += String(digits)
        }
        // Where the value's magnitude lands: anywhere, or near one of the edges of Double and Float.
        let edges = [-345, -324, -308, -46, -38, 0, 15, 22, 38, 300, 308]
        let magnitude =
            Int.random(in: 0..<3, using: &random) == 0
            ? Int.random(in: -350...310, using: &random)
            : (edges.randomElement(using: &random) ?? 0) + Int.random(in: -3...3, using: &random)
        let wholeDigits = dot > 0 && dot < count ? dot : count
        let exponent = magnitude - wholeDigits
        if exponent != 0 || Int.random(in: 0..<2, using: &random) == 0 { text += (Bool.random(using: &random) ? "e" : "E") + String(exponent) }
        return text
    }

    /// The exact decimal text of `numerator / 2^shift` (an odd multiple of half an ulp is a
    /// halfway case), written with a fraction when there is one.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static func exactText(_ numerator: UInt128, shift: Int) -> String {
        guard shift > 0 else { return String(numerator << UInt128(-shift)) }
        var five: UInt128 = 1
        for _ in 0..<shift { five *= 5 }
        var digits = String(numerator * five)
        if digits.count <= shift { digits = String(repeating: "0", count: shift - digits.count + 1) + digits }
        let point = digits.index(digits.endIndex, offsetBy: -shift)
        return String(digits[..<point]) + "." + String(digits[point...])
    }

    /// Texts exactly halfway between two neighbouring doubles (and floats), and a hair either side.
    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    static func halfwayTexts(_ random: inout Generator) -> [String] {
        var texts: [String] = []
        for _ in 0..<2_000 {
            // Double: binade [2^k, 2^(k+1)), ulp 2^(k-52); halfway = odd * 2^(k-53).
            let k = Int.random(in: 22...63, using: &random)
            let odd = (UInt128(1) << 53 | UInt128(UInt64.random(in: 0..<(1 << 53), using: &random))) << 1 | 1
            let text = exactText(odd, shift: 53 - k)
            texts += [text, text + "1", text.contains(".") ? text + "e0" : text + ".0"]
            // Float: binade [2^k, 2^(k+1)), halfway = odd * 2^(k-24).
            let f = Int.random(in: 0...60, using: &random)
            let oddFloat = (UInt128(1) << 24 | UInt128(UInt64.random(in: 0..<(1 << 24), using: &random))) << 1 | 1
            let floatText = exactText(oddFloat, shift: 24 - f)
            texts += [floatText, floatText + "1", "-" + floatText]
        }
        texts += ["9007199254740993", "9007199254740993.0", "-0", "-0.0", "16777217", "16777217.0", "33554435", "9007199791611905"]
        return texts
    }

    static func strtodBits(_ text: String) -> (bits: UInt64, fits: Bool) {
        let value = text.withCString { strtod($0, nil) }
        return (value.bitPattern, value.isFinite && (value != 0 || !hasNonZeroDigit(text)))
    }

    static func strtofBits(_ text: String) -> (bits: UInt32, fits: Bool) {
        let value = text.withCString { strtof($0, nil) }
        return (value.bitPattern, value.isFinite && (value != 0 || !hasNonZeroDigit(text)))
    }

    static func hasNonZeroDigit(_ text: String) -> Bool {
        text.prefix { $0 != "e" && $0 != "E" }.contains { $0 >= "1" && $0 <= "9" }
    }

    /// A list inside an object: a top-level array would be read leniently (lossy collections).
    struct List<T: Decodable>: Decodable { var v: [T] }

    /// Decodes `texts` as arrays of `T`, a thousand at a time, and returns the bit patterns.
    static func kilnValues<T: Decodable>(_ type: T.Type, _ texts: [String], bits: (T) -> UInt64) throws -> [UInt64] {
        var result: [UInt64] = []
        for start in stride(from: 0, to: texts.count, by: 1_000) {
            let chunk = texts[start..<min(start + 1_000, texts.count)]
            let values = try KilnDecoder().decode(List<T>.self, from: #"{"v": ["# + chunk.joined(separator: ",") + "]}")
            result += values.v.map(bits)
        }
        return result
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func doubleAndFloatMatchStrtodBitForBit() throws {
        var random = Generator(state: 0x4B69_6C6E_4E75_6D73)
        var texts = (0..<100_000).map { _ in Self.randomText(&random) }
        texts += Self.halfwayTexts(&random)
        #expect(texts.count >= 100_000)

        // Double: everything in range decodes to strtod's bits; everything else is refused.
        let doubles = texts.map { ($0, Self.strtodBits($0)) }
        let inDouble = doubles.filter { $0.1.fits }
        let doubleBits = try Self.kilnValues(Double.self, inDouble.map(\.0)) { $0.bitPattern }
        var mismatches = zip(inDouble, doubleBits).filter { $0.0.1.bits != $0.1 }.map(\.0.0)
        #expect(mismatches.isEmpty, "Double differs from strtod for \(mismatches.prefix(10))")
        for (text, _) in doubles.filter({ !$0.1.fits }).prefix(500) {
            #expect(throws: ModelDecodingError.self, "\(text) as Double") { _ = try KilnDecoder().decode(List<Double>.self, from: #"{"v": [\#(text)]}"#) }
        }

        // Float: rounded once, from the text.
        let floats = texts.map { ($0, Self.strtofBits($0)) }
        let inFloat = floats.filter { $0.1.fits && Self.strtodBits($0.0).fits }
        let floatBits = try Self.kilnValues(Float.self, inFloat.map(\.0)) { UInt64($0.bitPattern) }
        mismatches = zip(inFloat, floatBits).filter { UInt64($0.0.1.bits) != $0.1 }.map(\.0.0)
        #expect(mismatches.isEmpty, "Float differs from strtof for \(mismatches.prefix(10))")
        for (text, _) in floats.filter({ !$0.1.fits && Self.strtodBits($0.0).fits }).prefix(500) {
            #expect(throws: ModelDecodingError.self, "\(text) as Float") { _ = try KilnDecoder().decode(List<Float>.self, from: #"{"v": [\#(text)]}"#) }
        }
        // The corpus reaches every kind of case.
        #expect(inDouble.count > 50_000 && inDouble.count < texts.count)
        #expect(inFloat.count > 10_000 && inFloat.count < inDouble.count)
    }
}

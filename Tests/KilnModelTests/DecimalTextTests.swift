import Foundation
import Testing

@testable import KilnModel

/// A number read as `Decimal` is the `Decimal` Foundation's parse makes of its text, to the bit:
/// built from the digits where they fit in 64 bits, parsed by Foundation otherwise.
@Suite struct DecimalTextTests {
    static let posix = Locale(identifier: "en_US_POSIX")

    static func bits(_ decimal: Decimal?) -> [UInt8]? {
        decimal.map { value in withUnsafeBytes(of: value) { Array($0) } }
    }

    static func read(_ text: String) -> Decimal? {
        var text = text
        return text.withUTF8 { JSONNumberText($0).decimalValue }
    }

    /// JSON numbers of every shape: up to 25 digits before and after the dot, trailing zeros,
    /// exponents up to 140 either way, zeros.
    @Test func numbersReadAsFoundationReadsThem() {
        var state: UInt64 = 0xDEC1_3A1
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        func digits(_ count: Int, leading: Bool) -> String {
            String((0..<count).map { i in Character(String(i == 0 && leading ? 1 + next(9) : next(4) == 0 ? 0 : next(10))) })
        }
        var built = 0
        for _ in 0..<30_000 {
            var text = next(3) == 0 ? "-" : ""
            let integerDigits = next(4) == 0 ? 0 : 1 + next(next(2) == 0 ? 6 : 25)
            text += integerDigits == 0 ? "0" : digits(integerDigits, leading: true)
            if next(2) == 0 { text += "." + digits(1 + next(next(2) == 0 ? 4 : 25), leading: false) }
            if next(3) == 0 { text += ["e", "E"][next(2)] + ["", "+", "-"][next(3)] + String(next(next(2) == 0 ? 10 : 141)) }
            let expected = Decimal(string: text, locale: Self.posix)
            let read = Self.read(text)
            #expect(Self.bits(read) == Self.bits(expected), "\(text): \(String(describing: read)) ≠ \(String(describing: expected))")
            var probe = text
            let simple = probe.withUTF8 { JSONNumberText($0).digitsEnd - JSONNumberText($0).digitsStart <= 19 }
            if simple { built += 1 }
        }
        #expect(built > 10_000)
    }

    @Test(arguments: [
        "0", "-0", "0.0", "0.000", "0e5", "-0.0e-3", "1", "10", "100", "12.50", "-12.5", "1e3", "1.5e-3", "18446744073709551615",
        "18446744073709551616", "1e127", "1e128", "10e126", "100e126", "1e-128", "1e-129", "10e-129", "0.1e-127", "1.0E+2",
        "5E-324", "99999999999999999999999999999999999999", "1234567890123456789012345678901234567890", "9007199254740993.000",
    ])
    func edgeNumbers(text: String) {
        #expect(Self.bits(Self.read(text)) == Self.bits(Decimal(string: text, locale: Self.posix)))
    }

    @DataModel
    struct Invoice: Equatable {
        var total: Decimal = 0
        var tax: Decimal?
        var lines: [Decimal] = []
    }

    /// Through Foundation's decoder, Kiln's fast path and its `Decoder` path: the same values
    /// and repairs, numbers and the values that are not numbers alike.
    @Test func modelsReadDecimalsAsFoundationDoes() throws {
        let documents = [
            #"{"total": 1234.50, "tax": 0.075, "lines": [1, 2.25, -3e2]}"#,
            #"{"total": "12.5", "tax": null, "lines": [1, "x"]}"#,
            #"{"total": 1e200, "tax": true}"#,
            #"{"total": 123456789012345678901234567890.5, "tax": -0.0}"#,
        ]
        for document in documents {
            _ = try ModelIntentTests.decodeAllWays(Invoice.self, document)
        }
        let (invoice, _) = try ModelIntentTests.decodeAllWays(Invoice.self, documents[0])
        #expect(invoice.total == Decimal(string: "1234.5") && invoice.lines.count == 3)
    }
}

import Foundation

/// Exact readings of a number token from its text: the slow paths behind the tape's stored
/// value, for what that value cannot say (an integer beyond 64 bits, a `Float` rounded once,
/// whether a zero was written as zero).
extension JSONTape {
    /// The bytes of the number at `index`, as written.
    func numberBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        let start = Int(tokens[index].aux)
        var end = start
        while end < byteCount {
            switch base[end] {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E"):
                end += 1
            default:
                return UnsafeBufferPointer(start: base + start, count: end - start)
            }
        }
        return UnsafeBufferPointer(start: base + start, count: end - start)
    }

    /// Whether the number at `index` was written with a minus sign (`-0` is an `int` token of 0).
    @inlinable @inline(__always)
    func isNegativeNumber(at index: Int) -> Bool {
        base[Int(tokens[index].aux)] == UInt8(ascii: "-")
    }

    /// Whether the number at `index` is a non-zero value that rounded to zero: its digits
    /// before the exponent are not all zeros.
    @usableFromInline
    func underflowed(at index: Int) -> Bool {
        JSONNumberText(numberBytes(at: index)).hasNonZeroDigit
    }

    /// The number at `index` as `Float`, correctly rounded from its text; `nil` when it
    /// overflows or underflows `Float` (Foundation refuses both).
    func exactFloat(at index: Int) -> Float? {
        let bytes = numberBytes(at: index)
        guard let value = Float(String(decoding: bytes, as: UTF8.self)), value.isFinite else { return nil }
        if value == 0, JSONNumberText(bytes).hasNonZeroDigit { return nil }
        return value
    }

    /// The number at `index` as `I`, by Foundation's rules; `nil` when it does not fit.
    @usableFromInline
    func exactInteger<I: FixedWidthInteger>(_ type: I.Type, at index: Int) -> I? {
        JSONNumberText(numberBytes(at: index)).integer(I.self)
    }
}

/// A number's text taken apart: sign, digits (the fraction's after the integer's, the dot
/// skipped), and the power of ten that scales them.
struct JSONNumberText {
    let bytes: UnsafeBufferPointer<UInt8>
    let negative: Bool
    /// Where the digits start and end (before any exponent); may include one `.`.
    let digitsStart: Int
    let digitsEnd: Int
    /// The count of digits after the dot.
    let fractionCount: Int
    /// The written exponent, clamped far beyond any value that fits.
    let exponent: Int

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var i = 0
        negative = i < bytes.count && bytes[i] == UInt8(ascii: "-")
        if negative { i += 1 }
        digitsStart = i
        var fraction = 0
        var inFraction = false
        while i < bytes.count, bytes[i] | 0x20 != UInt8(ascii: "e") {
            if bytes[i] == UInt8(ascii: ".") {
                inFraction = true
            } else if inFraction {
                fraction += 1
            }
            i += 1
        }
        digitsEnd = i
        fractionCount = fraction
        var written = 0
        var exponentNegative = false
        if i < bytes.count {
            i += 1
            if i < bytes.count, bytes[i] == UInt8(ascii: "-") || bytes[i] == UInt8(ascii: "+") {
                exponentNegative = bytes[i] == UInt8(ascii: "-")
                i += 1
            }
            while i < bytes.count {
                if written < 1_000_000 { written = written * 10 + Int(bytes[i] &- UInt8(ascii: "0")) }
                i += 1
            }
        }
        exponent = exponentNegative ? -written : written
    }

    /// Whether the text is a plain integer: no fraction, no exponent.
    var isPlain: Bool { digitsEnd == bytes.count && fractionCount == 0 && !containsDot }

    private var containsDot: Bool {
        (digitsStart..<digitsEnd).contains { bytes[$0] == UInt8(ascii: ".") }
    }

    /// Whether any digit before the exponent is not zero.
    var hasNonZeroDigit: Bool {
        (digitsStart..<digitsEnd).contains { bytes[$0] >= UInt8(ascii: "1") && bytes[$0] <= UInt8(ascii: "9") }
    }

    /// The value as `I`, as Foundation's `JSONDecoder` reads integers: a plain integer exactly,
    /// over `I`'s whole range. Otherwise the value must be an integer in `I`'s range as a
    /// `Double` reads it. Below 2^53 it is that `Double` (`4722324234798324.8` reads as
    /// `4722324234798325`); from 2^53 up, where a `Double` no longer holds every integer, it is
    /// the text read again as a `Decimal` (`decimalInteger(_:)`). Types
    /// narrower than 64 bits take the `Int64` reading (`-128.0` is an `Int8`).
    func integer<I: FixedWidthInteger>(_ type: I.Type) -> I? {
        if isPlain { return plainInteger(I.self) }
        if I.bitWidth < 64 { return integer(Int64.self).flatMap { I(exactly: $0) } }
        guard let double = Double(String(decoding: bytes, as: UTF8.self)), let rounded = I(exactly: double) else { return nil }
        if double.magnitude < 9_007_199_254_740_992 { return rounded }
        return decimalInteger(I.self)
    }

    /// The value read as a `Decimal` and made an `I` as Foundation makes one: the decimal's
    /// significand (its digits with trailing zeros dropped, at most 38 of them) must fit in 64
    /// bits; it is then scaled by the exponent, a fraction cut off, and must fit in `I` once the
    /// sign is applied. So `9007199254740993.000` is `9007199254740993`, while
    /// `8469436200000771774.006`, whose 22 digits do not fit in 64 bits, is no `Int64`, and
    /// `-9223372036854775808.0` is none either (its magnitude is not an `Int64`).
    func decimalInteger<I: FixedWidthInteger>(_ type: I.Type) -> I? {
        guard let decimal = Self.decimal(String(decoding: bytes, as: UTF8.self)), !decimal.isNaN,
            var magnitude = UInt64(decimal.significand.magnitude.description)
        else { return nil }
        if decimal.exponent < 0 {
            for _ in 0 ..< -decimal.exponent { magnitude /= 10 }
        } else {
            for _ in 0..<decimal.exponent {
                let (scaled, overflow) = magnitude.multipliedReportingOverflow(by: 10)
                if overflow { return nil }
                magnitude = scaled
            }
        }
        guard decimal.sign == .minus else { return I(exactly: magnitude) }
        guard I.isSigned, let positive = I(exactly: magnitude) else { return nil }
        return 0 - positive
    }

    /// The value as `Decimal`, as Foundation reads the text (``decimal(_:)``). Built here from
    /// the digits when they fit in 64 bits and the power of ten in `Decimal`'s range: trailing
    /// zeros moved into the exponent, the form Foundation's parse leaves, so the two are the same
    /// `Decimal` to the bit (`DecimalTextTests`). Zero, longer digits and exponents near the
    /// range's ends are parsed by Foundation.
    var decimalValue: Decimal? {
        builtDecimal ?? Self.decimal(String(decoding: bytes, as: UTF8.self))
    }

    /// ``decimalValue`` from the digits, when they fit; `nil` for Foundation's parse to read.
    private var builtDecimal: Decimal? {
        var mantissa: UInt64 = 0
        for i in digitsStart..<digitsEnd where bytes[i] != UInt8(ascii: ".") {
            let digit = UInt64(bytes[i] &- UInt8(ascii: "0"))
            guard mantissa <= (UInt64.max - digit) / 10 else { return nil }
            mantissa = mantissa * 10 + digit
        }
        var power = exponent - fractionCount
        guard mantissa != 0, power >= -128, power <= 127 else { return nil }
        while mantissa % 10 == 0 {
            mantissa /= 10
            power += 1
        }
        guard power <= 127 else { return nil }
        return Decimal(sign: negative ? .minus : .plus, exponent: power, significand: Decimal(mantissa))
    }

    /// A number's text as `Decimal`, as Foundation reads it (`nil` beyond `Decimal`'s range).
    static func decimal(_ text: String) -> Decimal? {
        Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
    }

    /// A plain integer's digits, accumulated toward its sign so that `I.min` fits.
    private func plainInteger<I: FixedWidthInteger>(_ type: I.Type) -> I? {
        var value: I = 0
        for i in digitsStart..<digitsEnd {
            let digit = I(bytes[i] &- UInt8(ascii: "0"))
            let (times10, o1) = value.multipliedReportingOverflow(by: 10)
            let (next, o2) = negative ? times10.subtractingReportingOverflow(digit) : times10.addingReportingOverflow(digit)
            if o1 || o2 { return nil }
            value = next
        }
        return value
    }
}

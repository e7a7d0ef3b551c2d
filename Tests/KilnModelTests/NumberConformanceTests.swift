import Foundation
import Testing
@_spi(Testing) @testable import KilnModel

/// Numbers read as Foundation's `JSONDecoder` reads them: every integer width exactly, `Double`
/// and `Float` correctly rounded from any number of digits, `-0` with its sign, and the same
/// error kind where a number does not fit.
///
/// Foundation (swift-foundation) reports every number that does not fit as `dataCorrupted` at
/// the root ("The given data was not valid JSON.", empty coding path); Kiln reports the same
/// kind at the value's own path, which these tests pin down as a deliberate difference.
@Suite("Number conformance")
struct NumberConformanceTests {
    struct Wrapped<T: Decodable>: Decodable { var v: T }

    /// What a decode gave: a value (floating point by its bits), or an error's kind and path.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(kind: String, path: String)

        var description: String {
            switch self {
            case .value(let text): text
            case .error(let kind, let path): "\(kind) at '\(path)'"
            }
        }
    }

    static func describe<T>(_ value: T) -> String {
        if let double = value as? Double { return "Double bits \(String(double.bitPattern, radix: 16))" }
        if let float = value as? Float { return "Float bits \(String(float.bitPattern, radix: 16))" }
        return "\(value)"
    }

    static func foundation<T: Decodable>(_ type: T.Type, _ json: String) -> Outcome {
        foundation(atRoot: Wrapped<T>.self, json) { describe($0.v) }
    }

    /// `T` decoded at the root by `JSONDecoder`, the value shown by `show`.
    static func foundation<T: Decodable>(atRoot type: T.Type, _ json: String, show: (T) -> String) -> Outcome {
        do {
            return .value(show(try JSONDecoder().decode(T.self, from: Data(json.utf8))))
        } catch let error as DecodingError {
            switch error {
            case .dataCorrupted(let context): return .error(kind: "dataCorrupted", path: CodingPathFormatter.format(context.codingPath))
            case .typeMismatch(_, let context): return .error(kind: "typeMismatch", path: CodingPathFormatter.format(context.codingPath))
            case .valueNotFound(_, let context): return .error(kind: "valueNotFound", path: CodingPathFormatter.format(context.codingPath))
            case .keyNotFound(_, let context): return .error(kind: "keyNotFound", path: CodingPathFormatter.format(context.codingPath))
            @unknown default: return .error(kind: "unknown", path: "")
            }
        } catch {
            return .error(kind: "other", path: "")
        }
    }

    static func kiln<T: Decodable>(_ type: T.Type, _ json: String) -> Outcome {
        kiln(atRoot: Wrapped<T>.self, json) { describe($0.v) }
    }

    /// `T` decoded at the root by ``KilnDecoder``, the value shown by `show`.
    static func kiln<T: Decodable>(atRoot type: T.Type, _ json: String, show: (T) -> String) -> Outcome {
        do {
            return .value(show(try KilnDecoder().decode(T.self, from: Data(json.utf8))))
        } catch {
            switch error {
            case .invalidJSON: return .error(kind: "dataCorrupted", path: "")
            case .failed(let path, _): return .error(kind: "dataCorrupted", path: path)
            case .typeMismatch(let path, _, let found): return .error(kind: found == "null" ? "valueNotFound" : "typeMismatch", path: path)
            case .pathNotFound(let path): return .error(kind: "keyNotFound", path: path)
            }
        }
    }

    /// Decodes `{"v": text}` as `T` with both decoders: the same value, or the same error kind
    /// (Foundation's at the root, Kiln's at `v`; a syntax error at the root for both).
    static func expectSame<T: Decodable>(_ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let json = #"{"v": \#(text)}"#
        let expected = foundation(T.self, json)
        let actual = kiln(T.self, json)
        switch (expected, actual) {
        case (.error(let kind, let path), .error(let kilnKind, let kilnPath)):
            #expect(kind == kilnKind, "\(text) as \(T.self): Foundation \(expected), Kiln \(actual)", sourceLocation: sourceLocation)
            if kind == "dataCorrupted" {
                #expect(path == "", "Foundation now names a path for \(text) as \(T.self): \(path)", sourceLocation: sourceLocation)
                #expect(kilnPath == "v" || kilnPath == "", "\(text) as \(T.self): Kiln's path \(kilnPath)", sourceLocation: sourceLocation)
            } else {
                #expect(path == kilnPath, "\(text) as \(T.self): Foundation \(expected), Kiln \(actual)", sourceLocation: sourceLocation)
            }
        default:
            #expect(expected == actual, "\(text) as \(T.self)", sourceLocation: sourceLocation)
        }
    }

    // MARK: Collections at the root

    /// Decodes `json` as `T` at the root with both decoders: the same elements bit for bit, or
    /// the same error kind (Foundation's number errors at the root, Kiln's at `kilnPath`).
    static func expectSameAtRoot<T: Decodable>(_ type: T.Type, _ json: String, kilnPath: String = "", sourceLocation: SourceLocation = #_sourceLocation) {
        let show: (T) -> String = { value in
            var text = ""
            dump(value, to: &text)
            if let doubles = value as? [Double] { text += "\(doubles.map(\.bitPattern))" }
            if let floats = value as? [Float] { text += "\(floats.map(\.bitPattern))" }
            return text
        }
        let expected = foundation(atRoot: T.self, json, show: show)
        let actual = kiln(atRoot: T.self, json, show: show)
        switch (expected, actual) {
        case (.error(let kind, let path), .error(let kilnKind, let actualPath)) where kind == "dataCorrupted" && kilnKind == kind:
            #expect(path == "", "Foundation now names a path for \(json) as \(T.self): \(path)", sourceLocation: sourceLocation)
            #expect(actualPath == kilnPath, "\(json) as \(T.self): Kiln's path \(actualPath)", sourceLocation: sourceLocation)
        default:
            #expect(expected == actual, "\(json) as \(T.self)", sourceLocation: sourceLocation)
        }
    }

    /// A collection of numbers at the root is read as `JSONDecoder` reads it: a number that does
    /// not fit is an error there as inside a model, never infinity or the type's limit.
    @Test func numberCollectionsAtTheRootFollowFoundation() {
        Self.expectSameAtRoot([Float].self, "[1, 1e39]", kilnPath: "[1]")
        Self.expectSameAtRoot([Float].self, "[1, 1e-50]", kilnPath: "[1]")
        Self.expectSameAtRoot([Float].self, "[1, 16777217, -0]")
        // Refused as the bytes are read (the table's "out-of-range number" row), so at the root.
        Self.expectSameAtRoot([Double].self, "[1, 1e400]")
        Self.expectSameAtRoot([Int64].self, "[1, -9223372036854775809]", kilnPath: "[1]")
        Self.expectSameAtRoot([Int64].self, "[1, -9223372036854775808]")
        Self.expectSameAtRoot([UInt8].self, "[1, 256]", kilnPath: "[1]")
        Self.expectSameAtRoot([Int].self, #"[1, "2"]"#)
        Self.expectSameAtRoot([Int].self, "[1, 4.5]", kilnPath: "[1]")
        Self.expectSameAtRoot([Int?].self, "[1, null, 2]")
        Self.expectSameAtRoot([[Int8]].self, "[[1], [300]]", kilnPath: "[1][0]")
        Self.expectSameAtRoot(Set<Int16>.self, "[1, 40000]", kilnPath: "[1]")
        Self.expectSameAtRoot([Decimal].self, "[1, 1e128]", kilnPath: "[1]")
        Self.expectSameAtRoot([String: Int8].self, #"{"a": 1, "b": 300}"#, kilnPath: "b")
        Self.expectSameAtRoot([String: Float].self, #"{"a": 1e39}"#, kilnPath: "a")
        Self.expectSameAtRoot([String: [Int64]].self, #"{"a": [-9223372036854775809]}"#, kilnPath: "a[0]")
    }

    @Test func numberCollectionsAtAKeyPathAreExactToo() {
        let error = #expect(throws: ModelDecodingError.self) {
            try KilnDecoder().decode([Float].self, from: #"{"data": [1, 1e39]}"#, at: "data")
        }
        #expect(error?.path == "data[1]")
    }

    // MARK: Integers

    /// The texts just inside and just outside `T`'s range, plus the same values written with a
    /// fraction or an exponent (which Foundation reads by other rules).
    static func boundaries<T: FixedWidthInteger>(of type: T.Type) -> [String] {
        let min = String(T.min)
        let max = String(T.max)
        let belowMin = T.min == 0 ? "-1" : "-" + increment(String(min.dropFirst()))
        let aboveMax = increment(max)
        var texts = [min, max, belowMin, aboveMax, "0", "-0", "1", "-1"]
        for text in [min, max, belowMin, aboveMax] { texts += [text + ".0", text + "e0", text + "0e-1"] }
        return texts
    }

    /// A decimal digit string plus one.
    static func increment(_ digits: String) -> String {
        var bytes = Array(digits.utf8)
        var i = bytes.count - 1
        while i >= 0 {
            if bytes[i] == UInt8(ascii: "9") {
                bytes[i] = UInt8(ascii: "0")
                i -= 1
            } else {
                bytes[i] += 1
                return String(decoding: bytes, as: UTF8.self)
            }
        }
        return "1" + String(decoding: bytes, as: UTF8.self)
    }

    static let integerSpellings = [
        "1e2", "4.5", "1.0", "1e400", "1e-400", "100e-2", "0.5e1", "5e-1", "2.55e2", "-128.0", "1.50e1", "0e400",
        "9007199254740993.0", "9007199254740993e0", "123456789012345678900e-2", "1.0000000000000000000001",
        "0.000000000000000000000000000001e30", "-0.0", "-1e0", "1e18", "1e19", "1e20", "9.2233720368547758e18",
        "-9.2233720368547758e18", "1.8446744073709552e19", "100000000000000000000000", "\"5\"", "null", "true",
    ]

    @Test func everyIntegerWidthFollowsFoundation() {
        for text in Self.boundaries(of: Int8.self) + Self.integerSpellings { Self.expectSame(Int8.self, text) }
        for text in Self.boundaries(of: Int16.self) + Self.integerSpellings { Self.expectSame(Int16.self, text) }
        for text in Self.boundaries(of: Int32.self) + Self.integerSpellings { Self.expectSame(Int32.self, text) }
        for text in Self.boundaries(of: Int64.self) + Self.integerSpellings { Self.expectSame(Int64.self, text) }
        for text in Self.boundaries(of: Int.self) + Self.integerSpellings { Self.expectSame(Int.self, text) }
        for text in Self.boundaries(of: UInt8.self) + Self.integerSpellings { Self.expectSame(UInt8.self, text) }
        for text in Self.boundaries(of: UInt16.self) + Self.integerSpellings { Self.expectSame(UInt16.self, text) }
        for text in Self.boundaries(of: UInt32.self) + Self.integerSpellings { Self.expectSame(UInt32.self, text) }
        for text in Self.boundaries(of: UInt64.self) + Self.integerSpellings { Self.expectSame(UInt64.self, text) }
        for text in Self.boundaries(of: UInt.self) + Self.integerSpellings { Self.expectSame(UInt.self, text) }
    }

    @Test func integerBelowInt64MinIsAnErrorNotInt64Min() throws {
        #expect(throws: ModelDecodingError.self) { _ = try KilnDecoder().decode(Wrapped<[Int64]>.self, from: #"{"v": [-9223372036854775809]}"#) }
        #expect(throws: ModelDecodingError.self) { _ = try KilnDecoder().decode(Wrapped<Int>.self, from: #"{"v": -9223372036854775809}"#) }
        #expect(try KilnDecoder().decode(Wrapped<[Int64]>.self, from: #"{"v": [-9223372036854775808]}"#).v == [Int64.min])
    }

    @available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
    @Test func int128AndUInt128FollowFoundation() throws {
        let extra = [
            "12345678901234567890123", "18446744073709551615e0", "-18446744073709551615e0", "18446744073709551616e0",
            "-9223372036854775809e0", "1e30", "12345678901234567890123.0",
        ]
        for text in Self.boundaries(of: Int128.self) + Self.integerSpellings + extra { Self.expectSame(Int128.self, text) }
        for text in Self.boundaries(of: UInt128.self) + Self.integerSpellings + extra { Self.expectSame(UInt128.self, text) }
        // Every container: keyed (synthesized), unkeyed, single value.
        struct Pair: Decodable, Equatable {
            var signed: Int128
            var unsigned: UInt128?
        }
        let pair = try KilnDecoder().decode(
            Pair.self, from: #"{"signed": -170141183460469231731687303715884105728, "unsigned": 340282366920938463463374607431768211455}"#)
        #expect(pair == Pair(signed: .min, unsigned: .max))
        #expect(try KilnDecoder().decode([UInt128].self, from: "[1, 18446744073709551616]") == [1, 18_446_744_073_709_551_616])
        #expect(try KilnDecoder().decode(Int128.self, from: "-18446744073709551617") == -18_446_744_073_709_551_617)
    }

    // MARK: Floating point

    static let floatingSpellings = [
        "9007199254740993.0", "9007199254740993", "9007199254740995", "-0", "-0.0", "-0e5", "0.0000", "0e-400", "0.000e999",
        "1e-400", "-1e-400", "1e-50", "1e39", "-1e-46", "1e-46", "1.4e-45", "1e-45", "7e-46", "1e-320", "4.9406564584124654e-324",
        "2.4703282292062327e-324", "2.4703282292062328e-324", "3.4028235e38", "3.4028236e38", "3.40282357e38",
        "3.40282356779733661637539395458142568447e38", "3.40282356779733661637539395458142568448e38",
        "7.006492321624085354618647916449580656401309709382578858785341419448955413429303e-46",
        "7.006492321624085354618647916449580656401309709382578858785341419448955413429304e-46",
        "16777217", "16777217.0", "-16777217", "16777219", "1.00000005960464477550", "1.0000000596046447755",
        "9007199791611905", "9007199791611905.0", "2.2250738585072011e-308", "2.2250738585072014e-308",
        "1.7976931348623157e308", "1e400", "-1e400", "\"1.5\"", "null", "1.5", "0.1", "123456789012345678901234567890",
    ]

    @Test func doubleFollowsFoundation() {
        for text in Self.floatingSpellings { Self.expectSame(Double.self, text) }
    }

    @Test func floatFollowsFoundation() {
        for text in Self.floatingSpellings { Self.expectSame(Float.self, text) }
    }

    @Test func negativeZeroKeepsItsSign() throws {
        let doubles = try KilnDecoder().decode([Double].self, from: "[-0, -0.0, 0, -0e3]")
        #expect(doubles.map(\.bitPattern) == [(-0.0).bitPattern, (-0.0).bitPattern, 0, (-0.0).bitPattern])
        let floats = try KilnDecoder().decode([Float].self, from: "[-0, -0.0, 0]")
        #expect(floats.map(\.bitPattern) == [Float(-0.0).bitPattern, Float(-0.0).bitPattern, 0])
        #expect(try KilnDecoder().decode(Wrapped<Double>.self, from: #"{"v": -0}"#).v.sign == .minus)
    }

    /// A deliberate difference (TolerantDecoding.md's table): JSONDecoder refuses some texts of
    /// zero with an exponent as `Double` or `Float`; RFC 8259 allows them, and Kiln reads `0`.
    /// Found by the differential fuzzer.
    @Test func zeroWithAnExponentIsZero() throws {
        let texts = ["0e1", "0E9", "0.000E9", "0.00e99", "-0e1"]
        let doubles = try KilnDecoder().decode([Double].self, from: "[\(texts.joined(separator: ","))]")
        #expect(doubles.map(\.bitPattern) == [0, 0, 0, 0, (-0.0).bitPattern])
        #expect(try KilnDecoder().decode([Float].self, from: "[0e1, 0.00e99]") == [0, 0])
        // Still refused by Foundation here; when it reads them, the table's row can go.
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Double].self, from: Data("[0e1]".utf8)) }
    }

    /// Below 2^53 an integer written with a fraction is the `Double` it reads as, rounded to the
    /// nearest representable value: from 2^52 the fraction can round the integer up.
    @Test func integersWithAFractionBelowTwoToTheFiftyThreeAreTheirDouble() {
        Self.expectSame(Int64.self, "4722324234798324.82324")
        Self.expectSame(Int64.self, "-79.323783206547757e14")
        Self.expectSame(Int64.self, "4503599627370496.5")
        Self.expectSame(Int64.self, "9007199254740991.9")
        Self.expectSame(UInt64.self, "4722324234798324.5")
    }

    /// From 2^53 up, an integer written with a fraction or an exponent is read again as a
    /// `Decimal`, whose digits must fit in 64 bits: `8469436200000771774.006` (22 digits) is no
    /// `Int64`, `9007199254740993.000` is `9007199254740993`. Found by the differential fuzzer.
    @Test func integersWithAFractionBeyondDoublePrecision() {
        Self.expectSame(Int64.self, "8469436200000771774.006")
        Self.expectSame(UInt64.self, "1.4674408446744073709552e19")
        for text in [
            "9007199254740993.000", "9007199254740993.0000000", "-9007199254740993.5", "9.007199254740993e15", "90071992547409930e-1",
            "-9223372036854775808.0", "-9223372036854775807.0", "9223372036854775807.0", "9223372036854774784.0", "1e18", "1.5e18",
            "12345678901234567.000000000000000000000000000001", "9007199254740993.000000000000000000000000000000000000001",
        ] {
            Self.expectSame(Int64.self, text)
            Self.expectSame(Int.self, text)
        }
        for text in ["1e19", "1.8446744073709551615e19", "18446744073709549568.0", "-1e18", "9007199254740993.5"] {
            Self.expectSame(UInt64.self, text)
        }
        for text in ["1e20", "-1e20", "1e19", "9007199254740993.5", "18446744073709551615.0"] {
            Self.expectSame(Int128.self, text)
            Self.expectSame(UInt128.self, text)
        }
    }

    @Test func decimalFollowsFoundation() {
        for text in [
            "123.456", "-0", "1e127", "1e128", "1e200", "1e400", "1e-128", "1e-129", "1e-400", "1.5e-130", "9e127", "-1e127",
            "12345678901234567890123456789012345678901234567890", "99999999999999999999999999999999999999e127", "\"1\"",
        ] {
            Self.expectSame(Decimal.self, text)
        }
    }
}

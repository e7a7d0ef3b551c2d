import Foundation

/// A type that can be read from a JSON value of another kind: Kiln's coercion rules.
///
/// The rules, the same everywhere in Kiln (`@DataModel` properties, ``JSONValue`` accessors,
/// lossy collection elements), one per target type and consistent between neighbours: a number
/// written as a string reads as that number, and a boolean reads as `1`/`0` wherever a number
/// is expected.
/// - integers: from integral numbers (`42`, `42.0`), numeric strings (`"42"`, `" 42 "`, `"4.0"`)
///   and booleans (`true` → `1`); a fractional number is refused unless truncation is allowed;
///   out-of-range values are refused.
/// - floating point and `Decimal`: from any finite number, numeric strings (`"3.5"`) and booleans
///   (`true` → `1.0`).
/// - `Bool`: from the numbers `1`/`0` (`1.0` too), numeric strings of those values (`"1"`,
///   `"1.0"`), and the words `"true"`/`"false"`, `"yes"`/`"no"`, `"y"`/`"n"`, `"on"`/`"off"`,
///   `"t"`/`"f"` in any case.
/// - `String`: from numbers (`42` → `"42"`, `3.5` → `"3.5"`) and booleans (`"true"`).
///
/// Conform your own scalar types to get the same treatment:
///
/// ```swift
/// extension Cents: JSONCoercible {
///     static func coerce(from value: JSONValue, truncating: Bool) -> Cents? {
///         value.int.map(Cents.init)
///     }
/// }
/// ```
public protocol JSONCoercible {
    /// Reads a value from `value`, converting between JSON kinds; `nil` when no rule applies.
    /// - Parameters:
    ///   - value: the JSON value to read.
    ///   - truncating: whether a fractional number may be truncated into an integer.
    static func coerce(from value: JSONValue, truncating: Bool) -> Self?
}

extension String: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> String? {
        switch value {
        case .string(let s): s
        case .int(let i): String(i)
        case .double(let d): JSONValue.numberText(d)
        case .bool(let b): b ? "true" : "false"
        case .null, .array, .object: nil
        }
    }
}

extension Bool: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> Bool? {
        switch value {
        case .bool(let b): return b
        case .int(let i): return i == 0 ? false : i == 1 ? true : nil
        case .double(let d): return d == 0 ? false : d == 1 ? true : nil
        case .string(let s):
            let word = s[...].trimmingHorizontalWhitespace.lowercased()
            switch word {
            case "true", "yes", "y", "on", "t": return true
            case "false", "no", "n", "off", "f": return false
            default:
                // A number written as a string reads as that number: "1.0" as 1.0, so as true.
                guard let number = Double(word), number.isFinite else { return nil }
                return coerce(from: .double(number), truncating: truncating)
            }
        case .null, .array, .object: return nil
        }
    }
}

extension Double: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> Double? {
        switch value {
        case .double(let d): d
        case .int(let i): Double(i)
        case .string(let s): Double(s[...].trimmingHorizontalWhitespace).flatMap { $0.isFinite ? $0 : nil }
        case .bool(let b): b ? 1 : 0
        case .null, .array, .object: nil
        }
    }
}

extension Float: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> Float? {
        Double.coerce(from: value, truncating: truncating).map(Float.init)
    }
}

extension FixedWidthInteger {
    /// The shared integer rule: exact integers, integral doubles, numeric strings; fractions only
    /// when truncating.
    static func coerceInteger(from value: JSONValue, truncating: Bool) -> Self? {
        switch value {
        case .int(let i):
            return Self(exactly: i)
        case .double(let d):
            guard d.isFinite else { return nil }
            if let exact = Self(exactly: d) { return exact }
            guard truncating else { return nil }
            return Self(exactly: d.rounded(.towardZero))
        case .string(let raw):
            let s = raw[...].trimmingHorizontalWhitespace
            if let exact = Self(s) { return exact }
            if let i = Int64(s) { return Self(exactly: i) }
            guard let d = Double(s) else { return nil }
            return coerceInteger(from: .double(d), truncating: truncating)
        case .bool(let b):
            return b ? 1 : 0
        case .null, .array, .object:
            return nil
        }
    }
}

extension JSONCoercible where Self: FixedWidthInteger {
    /// Every integer type reads by the shared integer rule.
    public static func coerce(from value: JSONValue, truncating: Bool) -> Self? {
        coerceInteger(from: value, truncating: truncating)
    }
}

extension Int: JSONCoercible {}
extension Int8: JSONCoercible {}
extension Int16: JSONCoercible {}
extension Int32: JSONCoercible {}
extension Int64: JSONCoercible {}
extension UInt: JSONCoercible {}
extension UInt8: JSONCoercible {}
extension UInt16: JSONCoercible {}
extension UInt32: JSONCoercible {}
extension UInt64: JSONCoercible {}

extension Decimal: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> Decimal? {
        switch value {
        case .int(let i): return Decimal(i)
        case .double(let d): return Decimal(string: JSONValue.numberText(d))
        case .string(let s):
            // `Decimal(string:)` alone reads a prefix ("12k" → 12): the whole text must be a number.
            let text = s[...].trimmingHorizontalWhitespace
            guard let number = Double(text), number.isFinite else { return nil }
            return Decimal(string: String(text))
        case .bool(let b): return b ? 1 : 0
        case .null, .array, .object: return nil
        }
    }
}

extension JSONValue: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> JSONValue? { value }
}

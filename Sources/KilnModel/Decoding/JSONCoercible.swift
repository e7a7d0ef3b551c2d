import Foundation

/// A type that can be read from a JSON value of another kind: Kiln's coercion rules.
///
/// The rules, the same everywhere in Kiln (`@DataModel` properties, ``JSONValue`` accessors,
/// lossy collection elements):
/// - integers: from integral numbers (`42`, `42.0`) and numeric strings (`"42"`, `" 42 "`);
///   a fractional number is refused unless truncation is allowed; out-of-range values are refused.
/// - floating point: from any number and numeric strings (`"3.5"`).
/// - `Bool`: from `1`/`0` and the strings `"true"`/`"false"`, `"yes"`/`"no"`, `"1"`/`"0"`,
///   `"y"`/`"n"`, `"on"`/`"off"` in any case.
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
        case .double(let d): JSONValue.format(d)
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
            switch s.trimmingCharacters(in: .whitespaces).lowercased() {
            case "true", "yes", "1", "y", "on", "t": return true
            case "false", "no", "0", "n", "off", "f": return false
            default: return nil
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
        case .string(let s): Double(s.trimmingCharacters(in: .whitespaces)).flatMap { $0.isFinite ? $0 : nil }
        case .bool, .null, .array, .object: nil
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
            let s = raw.trimmingCharacters(in: .whitespaces)
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
        case .int(let i): Decimal(i)
        case .double(let d): Decimal(string: JSONValue.format(d))
        case .string(let s): Decimal(string: s.trimmingCharacters(in: .whitespaces))
        case .bool, .null, .array, .object: nil
        }
    }
}

extension JSONValue: JSONCoercible {
    public static func coerce(from value: JSONValue, truncating: Bool) -> JSONValue? { value }
}

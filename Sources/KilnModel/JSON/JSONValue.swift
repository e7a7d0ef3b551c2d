/// Any JSON value, as a Swift enum.
///
/// `JSONValue` is what Kiln uses for dictionary-backed ("de-model") records, for envelope fields,
/// and wherever the shape of the data is not known in advance. Its accessors are tolerant and
/// follow the same coercion rules as `@DataModel`: `"42"` reads as `42`, `1` as `true`.
///
/// ```swift
/// let ticket: JSONValue = ["goodName": "Tea", "minLimitMoney": "100"]
/// ticket["goodName"].string         // "Tea"
/// ticket["minLimitMoney"].int ?? 0  // 100
/// ticket["missing.path[2]"].isNull  // true
/// ```
///
/// Integers that fit in `Int64` are kept exactly (`.int`); other numbers are `.double`.
/// Objects are unordered, like JSON's own objects: compare and hash them as dictionaries.
public enum JSONValue: Sendable {
    /// `null`, and also what a missing key or an out-of-range index reads as.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number written without fraction or exponent that fits in `Int64`.
    case int(Int64)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])
}

extension JSONValue {
    /// The name of this value's JSON kind, as used in repair logs and errors: `"string"`, `"number"`…
    public var kindName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// The value written as compact JSON, shortened to `limit` characters with `…` when longer.
    ///
    /// Used to show what a server sent in repair logs and error messages.
    public func preview(limit: Int = 40) -> String {
        let text = jsonText
        guard text.count > limit else { return text }
        return String(text.prefix(max(1, limit - 1))) + "…"
    }

    /// The value as compact JSON text, with object keys sorted so the text is stable.
    public var jsonText: String {
        var out = ""
        write(to: &out)
        return out
    }

    private func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): out += JSONValue.numberText(d)
        case .string(let s): JSONValue.writeQuoted(s, to: &out)
        case .array(let items):
            out += "["
            for (i, item) in items.enumerated() {
                if i > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (i, key) in members.keys.sorted().enumerated() {
                if i > 0 { out += "," }
                JSONValue.writeQuoted(key, to: &out)
                out += ":"
                members[key, default: .null].write(to: &out)
            }
            out += "}"
        }
    }

    /// A number as Kiln writes it everywhere it becomes text (JSON, a coerced `String`, an
    /// envelope's code, a sample report): integral values below 10^15 without a fraction
    /// (`3.0` → `3`), others as Swift prints them (`3.5`, `1e+20`), non-finite as `null`, the
    /// only JSON for them.
    package static func numberText(_ number: Double) -> String {
        guard number.isFinite else { return "null" }
        if number == number.rounded(), abs(number) < 1e15 { return String(Int64(number)) }
        return "\(number)"
    }

    static func writeQuoted(_ s: String, to out: inout String) {
        out += "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20:
                let hex = String(c.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: Hashable {
    /// Numbers compare by value: `.int(1) == .double(1.0)`. Everything else compares by kind and
    /// content, objects as dictionaries.
    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b
        case (.int(let a), .double(let b)), (.double(let b), .int(let a)): Int64(exactly: b) == a
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)): a == b
        default: false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .null: hasher.combine(0)
        case .bool(let b):
            hasher.combine(1)
            hasher.combine(b)
        case .int(let i):
            hasher.combine(2)
            hasher.combine(i)
        case .double(let d):
            if let i = Int64(exactly: d) {
                hasher.combine(2)
                hasher.combine(i)
            } else {
                hasher.combine(3)
                hasher.combine(d)
            }
        case .string(let s):
            hasher.combine(4)
            hasher.combine(s)
        case .array(let a):
            hasher.combine(5)
            hasher.combine(a)
        case .object(let o):
            hasher.combine(6)
            hasher.combine(o)
        }
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { jsonText }
}

// MARK: - Literals

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

import KilnModel

/// A JSON value that keeps its object members in the order the sample wrote them.
///
/// ``JSONValue`` objects are dictionaries, so they forget key order; the generator reads samples
/// into this tree instead, so generated properties follow the server's order.
///
/// ```swift
/// let tree = try OrderedJSON(parsing: #"{"b": 1, "a": [true]}"#)
/// tree.members?.map(\.key) // ["b", "a"]
/// ```
public indirect enum OrderedJSON: Sendable, Hashable {
    /// `null`.
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
    case array([OrderedJSON])
    /// An object, members in document order (duplicates kept as written).
    case object([Member])

    /// One member of an object.
    public struct Member: Sendable, Hashable {
        /// The member's key.
        public var key: String
        /// The member's value.
        public var value: OrderedJSON

        /// A member.
        public init(key: String, value: OrderedJSON) {
            self.key = key
            self.value = value
        }
    }

    /// Parses JSON text (UTF-8), keeping member order.
    ///
    /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try OrderedJSONParser.parse(Array(text.utf8))
    }

    /// Parses JSON bytes (UTF-8, an optional byte-order mark is skipped), keeping member order.
    ///
    /// - Throws: ``JSONSyntaxError`` with the line and column of the first problem.
    public init(parsing bytes: [UInt8]) throws(JSONSyntaxError) {
        self = try OrderedJSONParser.parse(bytes)
    }

    /// The members when this is an object.
    public var members: [Member]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The elements when this is an array.
    public var elements: [OrderedJSON]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The kind's name as JSON calls it: `"object"`, `"array"`, `"string"`, `"number"`, `"boolean"`, `"null"`.
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

    /// The same value as Kiln's unordered ``JSONValue`` (for a repeated key, the last one wins).
    public var jsonValue: JSONValue {
        switch self {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let elements): .array(elements.map(\.jsonValue))
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, $0.value.jsonValue) }, uniquingKeysWith: { _, last in last }))
        }
    }
}

/// Converts between what the server sends and what a property holds, for `@Transform(...)`.
///
/// Conform a small type and use it on any property:
///
/// ```swift
/// struct CentsTransform: ValueTransform {
///     func decode(_ json: JSONValue) -> Int? { json.double.map { Int(($0 * 100).rounded()) } }
///     func encode(_ value: Int) -> JSONValue { .double(Double(value) / 100) }
/// }
///
/// @DataModel struct Product {
///     @Transform(CentsTransform()) var priceInCents = 0
/// }
/// ```
///
/// Kiln ships ``DateTransform`` (`.yyyyMMdd`, `.iso8601`, `.unixSeconds`, `.rfc2822`, …),
/// ``URLTransform`` (`.url`), ``SeparatedListTransform`` (`.commaSeparated`), ``EachTransform``
/// (`.each(.iso8601)`, a lossy list) and ``EmbeddedJSONTransform`` (`.embeddedJSON(Settings.self)`,
/// a model written as a JSON string).
///
/// A transform that repairs part of a value (drops a bad element, say) implements
/// ``decode(_:context:)`` instead and records what it did in the ``TransformContext``: the
/// repairs reach the decode's repair log under the property's path.
public protocol ValueTransform<Value>: Sendable {
    /// The type the property holds.
    associatedtype Value
    /// Reads the value; `nil` when `json` cannot be read (the property then keeps its default,
    /// and the repair log says so).
    func decode(_ json: JSONValue) -> Value?
    /// Reads the value and records the repairs made inside it in `context`. The default calls
    /// ``decode(_:)``; implement one of the two.
    func decode(_ json: JSONValue, context: inout TransformContext) -> Value?
    /// Writes the value back as the server expects it.
    func encode(_ value: Value) -> JSONValue
}

extension ValueTransform {
    public func decode(_ json: JSONValue, context: inout TransformContext) -> Value? {
        decode(json)
    }

    public func decode(_ json: JSONValue) -> Value? {
        var context = TransformContext()
        return decode(json, context: &context)
    }
}

/// What a ``ValueTransform`` reading one value can see and report: the decode's policy, and the
/// repairs it made inside the value, with paths relative to the property (`[2]`, `items[0].id`).
/// Kiln adds the property's path and puts them in the repair log.
public struct TransformContext: Sendable {
    /// The policy of the decode the transform runs in.
    public let policy: DecodingPolicy
    /// The repairs recorded so far, paths relative to the transformed value.
    public private(set) var repairs: [Repair] = []

    /// A context with `policy` and no repairs.
    public init(policy: DecodingPolicy = DecodingPolicy()) {
        self.policy = policy
    }

    /// Records a repair at `path` inside the value (`[2]` for the third element; `""` for the
    /// value itself).
    public mutating func record(_ kind: Repair.Kind, at path: String = "", expected: String, found: String, result: String) {
        repairs.append(Repair(path: path, kind: kind, expected: expected, found: found, result: result))
    }

    /// Records the repairs of a nested read, each placed under `path` (`[2]`, `settings`).
    public mutating func record(_ nested: [Repair], under path: String) {
        for repair in nested {
            var placed = repair
            placed.path = JSONPath.join(path, repair.path)
            repairs.append(placed)
        }
    }
}

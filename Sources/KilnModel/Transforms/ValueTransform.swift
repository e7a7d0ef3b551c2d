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
/// Kiln ships ``DateTransform`` (`.yyyyMMdd`, `.iso8601`, `.unixSeconds`, `.unixMilliseconds`),
/// ``URLTransform`` (`.url`) and ``SeparatedListTransform`` (`.commaSeparated`).
public protocol ValueTransform<Value>: Sendable {
    /// The type the property holds.
    associatedtype Value
    /// Reads the value; `nil` when `json` cannot be read (the property then keeps its default,
    /// and the repair log says so).
    func decode(_ json: JSONValue) -> Value?
    /// Writes the value back as the server expects it.
    func encode(_ value: Value) -> JSONValue
}

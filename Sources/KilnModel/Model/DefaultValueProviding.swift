import Foundation

/// A type with a natural "nothing here" value, used when a `@DataModel` property with no initial
/// value receives nothing usable from the server.
///
/// Kiln provides `""`, `0`, `false`, `[]`, `[:]`, `nil`, and every `@DataModel`'s `init()`.
/// A ``DecodingPolicy`` can replace these per type (`policy.setDefault("--", for: String.self)`).
public protocol DefaultValueProviding {
    /// The value used when there is no other default.
    static var defaultValue: Self { get }
}

extension String: DefaultValueProviding { public static var defaultValue: String { "" } }
extension Bool: DefaultValueProviding { public static var defaultValue: Bool { false } }
extension Int: DefaultValueProviding { public static var defaultValue: Int { 0 } }
extension Int8: DefaultValueProviding { public static var defaultValue: Int8 { 0 } }
extension Int16: DefaultValueProviding { public static var defaultValue: Int16 { 0 } }
extension Int32: DefaultValueProviding { public static var defaultValue: Int32 { 0 } }
extension Int64: DefaultValueProviding { public static var defaultValue: Int64 { 0 } }
extension UInt: DefaultValueProviding { public static var defaultValue: UInt { 0 } }
extension UInt8: DefaultValueProviding { public static var defaultValue: UInt8 { 0 } }
extension UInt16: DefaultValueProviding { public static var defaultValue: UInt16 { 0 } }
extension UInt32: DefaultValueProviding { public static var defaultValue: UInt32 { 0 } }
extension UInt64: DefaultValueProviding { public static var defaultValue: UInt64 { 0 } }
extension Double: DefaultValueProviding { public static var defaultValue: Double { 0 } }
extension Float: DefaultValueProviding { public static var defaultValue: Float { 0 } }
extension Decimal: DefaultValueProviding { public static var defaultValue: Decimal { 0 } }
extension Data: DefaultValueProviding { public static var defaultValue: Data { Data() } }
extension Array: DefaultValueProviding { public static var defaultValue: [Element] { [] } }
extension Set: DefaultValueProviding { public static var defaultValue: Set<Element> { [] } }
extension Dictionary: DefaultValueProviding { public static var defaultValue: [Key: Value] { [:] } }
extension Optional: DefaultValueProviding { public static var defaultValue: Wrapped? { nil } }
extension JSONValue: DefaultValueProviding { public static var defaultValue: JSONValue { .null } }
/// Dates default to the Unix epoch; give a `Date` property an initial value or make it optional
/// when that is not what you want.
extension Date: DefaultValueProviding { public static var defaultValue: Date { Date(timeIntervalSince1970: 0) } }

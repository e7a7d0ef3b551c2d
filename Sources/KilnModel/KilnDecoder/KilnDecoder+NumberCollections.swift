import Foundation

// A collection at the root or at a key path is lossy (``KilnDecoder/decode(_:from:at:)``), except
// when it holds numbers: `[Float]`, `[Int64]`, `[String: Decimal]`, `[[Int8]]`, `[Int?]` are read
// as `JSONDecoder` reads them, so that a number that does not fit its type is an error there as
// it is inside a model, never infinity, zero or the type's limit by a lossy coercion.

/// A number type `KilnDecoder` reads exactly, by `JSONDecoder`'s rules.
protocol KilnExactNumber {}

extension Int: KilnExactNumber {}
extension Int8: KilnExactNumber {}
extension Int16: KilnExactNumber {}
extension Int32: KilnExactNumber {}
extension Int64: KilnExactNumber {}
extension UInt: KilnExactNumber {}
extension UInt8: KilnExactNumber {}
extension UInt16: KilnExactNumber {}
extension UInt32: KilnExactNumber {}
extension UInt64: KilnExactNumber {}
extension Float: KilnExactNumber {}
extension Double: KilnExactNumber {}
extension Decimal: KilnExactNumber {}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension Int128: KilnExactNumber {}
@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension UInt128: KilnExactNumber {}

/// A type that wraps values of one other type: a collection's elements, an optional's value.
protocol KilnWrapping {
    static var wrappedElement: Any.Type { get }
}

extension Array: KilnWrapping {
    static var wrappedElement: Any.Type { Element.self }
}

extension Set: KilnWrapping {
    static var wrappedElement: Any.Type { Element.self }
}

extension Dictionary: KilnWrapping {
    static var wrappedElement: Any.Type { Value.self }
}

extension Optional: KilnWrapping {
    static var wrappedElement: Any.Type { Wrapped.self }
}

extension KilnDecoder {
    /// Whether `type` is numbers all the way down (`[Float]`, `[String: [Int64?]]`): such a
    /// collection is read strictly at the root.
    static func holdsOnlyNumbers(_ type: Any.Type) -> Bool {
        if type is any KilnExactNumber.Type { return true }
        guard let wrapping = type as? any KilnWrapping.Type else { return false }
        return holdsOnlyNumbers(wrapping.wrappedElement)
    }
}

import Foundation

/// The key a cached value is stored under: any string, used as is.
///
/// ```swift
/// let plain: CacheKey = "avatar/42"
/// let scoped = CacheKey("user-7|feed?page=2")
/// ```
///
/// The cache gives the string no meaning: callers that cache requests build keys from them
/// (`ResponseCache` in `KilnNetworkCache` does, for ``Cache`` stores behind an API client).
public struct CacheKey: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The string the key is stored under.
    public let rawValue: String

    /// Creates a key from a string used as is.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    /// Creates a key from a string literal used as is.
    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    /// The raw value.
    public var description: String { rawValue }

    /// Orders keys by their raw value.
    public static func < (lhs: CacheKey, rhs: CacheKey) -> Bool {
        lhs.rawValue < rhs.rawValue
    }

    /// Whether the key's raw value starts with `prefix`.
    public func hasPrefix(_ prefix: String) -> Bool {
        rawValue.hasPrefix(prefix)
    }
}

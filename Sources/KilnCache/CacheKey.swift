import Foundation

/// The key a cached value is stored under.
///
/// Build one from a plain string, or from a request's method, path and parameters so that two
/// identical requests give the same key whatever order their parameters came in, with volatile
/// parameters (timestamps, nonces, signatures) left out:
///
/// ```swift
/// let key = CacheKey(method: "GET", path: "/articles", parameters: ["page": "2", "ts": "1700000000"])
/// key.rawValue // "GET /articles?page=2"
/// let plain: CacheKey = "avatar/42"
/// ```
public struct CacheKey: Hashable, Sendable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The parameter names left out of request keys unless told otherwise:
    /// `timestamp`, `ts`, `nonce`, `sign`, `signature` and `_`.
    public static let defaultVolatileParameters: Set<String> = ["timestamp", "ts", "nonce", "sign", "signature", "_"]

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

    /// Creates a key for a request from its method, path and parameters.
    ///
    /// The method is upper-cased, parameters are sorted by name (then value) and percent-encoded,
    /// and parameters named in `volatileParameters` are left out (names compare case-insensitively).
    ///
    /// ```swift
    /// CacheKey(method: "get", path: "/feed", parameters: ["b": "2", "a": "1", "nonce": "x"])
    /// // "GET /feed?a=1&b=2"
    /// ```
    public init(
        method: String,
        path: String,
        parameters: [String: String],
        volatileParameters: Set<String> = CacheKey.defaultVolatileParameters
    ) {
        self.init(method: method, path: path, pairs: parameters.map { ($0.key, $0.value) }, volatileParameters: volatileParameters)
    }

    /// Creates a key for a request from its method, path and query items.
    ///
    /// Repeated names are kept (`tag=a&tag=b`) and sorted with the rest; an item with no value is
    /// written as its name alone. Volatile parameters are left out as in
    /// ``init(method:path:parameters:volatileParameters:)``.
    public init(
        method: String,
        path: String,
        queryItems: [URLQueryItem],
        volatileParameters: Set<String> = CacheKey.defaultVolatileParameters
    ) {
        self.init(method: method, path: path, pairs: queryItems.map { ($0.name, $0.value) }, volatileParameters: volatileParameters)
    }

    private init(method: String, path: String, pairs: [(String, String?)], volatileParameters: Set<String>) {
        let volatile = Set(volatileParameters.map { $0.lowercased() })
        let kept = pairs
            .filter { !volatile.contains($0.0.lowercased()) }
            .map { (Self.encode($0.0), $0.1.map(Self.encode)) }
            .sorted { lhs, rhs in
                if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
                return (lhs.1 ?? "") < (rhs.1 ?? "")
            }
        var raw = method.uppercased() + " " + path
        if !kept.isEmpty {
            raw += "?" + kept.map { name, value in value.map { name + "=" + $0 } ?? name }.joined(separator: "&")
        }
        self.rawValue = raw
    }

    /// Percent-encodes everything but unreserved characters, so `&`, `=` and `?` inside names
    /// and values cannot make two different requests collide.
    private static func encode(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

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

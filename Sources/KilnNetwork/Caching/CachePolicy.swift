import Foundation
import KilnModel

/// Where a call looks for its value: the cache, the network, or both in a set order.
///
/// ```swift
/// for try await message in client.values(for: .messages, policy: .cacheThenNetwork) {
///     show(message.value, stale: message.origin != .network)
/// }
/// ```
public enum CachePolicy: Sendable, Hashable {
    /// Always the network. A successful answer is stored for the other policies.
    case networkOnly
    /// Only the cache; ``APIError/notCached`` when it has nothing.
    case cacheOnly
    /// The cache when it has a value younger than `maxAge` seconds, else the network.
    case cacheElseNetwork(maxAge: TimeInterval)
    /// The network; when it fails for a transport reason (offline, timeout…) or with an HTTP
    /// status of 500 or above, the cache. A server that answered and refused (its envelope's
    /// code, with any status) gets no fallback: its answer stands.
    case networkElseCache
    /// The cached value first, when there is one, then the network's: a list shown at once, then refreshed.
    /// A network failure after a cached value is thrown after that value was delivered.
    case cacheThenNetwork
}

/// Where a delivered value came from.
public enum ValueOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The cache, with the value's age in seconds when it was read.
    case cache(age: TimeInterval)
    /// A fresh network answer.
    case network

    /// Whether the value came from the cache.
    public var isCached: Bool {
        if case .cache = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .cache(let age): "cache (\(Int(age.rounded())) s old)"
        case .network: "network"
        }
    }
}

/// A value with where it came from and what decoding repaired.
public struct Sourced<Value: Sendable>: Sendable {
    /// The decoded value.
    public var value: Value
    /// Cache or network.
    public var origin: ValueOrigin
    /// What the tolerant decoder repaired in this value.
    public var repairs: [Repair]

    /// Makes a sourced value.
    public init(value: Value, origin: ValueOrigin, repairs: [Repair] = []) {
        self.value = value
        self.origin = origin
        self.repairs = repairs
    }
}

extension Sourced: Equatable where Value: Equatable {}

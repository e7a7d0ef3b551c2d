import Foundation
import KilnModel

/// Where a call looks for its value: the cache, the network, or both in a set order.
///
/// ```swift
/// for try await message in client.values(for: .messages, policy: .cacheThenNetwork) {
///     show(message.value, stale: message.origin.isCached)
/// }
/// ```
///
/// Whatever the policy, the client stores a successful answer with what its headers say about
/// reusing it (``HTTPCacheInfo``): never an answer marked `Cache-Control: no-store`. Every
/// request the client sends for a stored entry that has a validator (`ETag`, `Last-Modified`)
/// is conditional (`If-None-Match`, `If-Modified-Since`): a `304 Not Modified` delivers the
/// stored value, with origin ``ValueOrigin/revalidated``, without downloading or decoding it
/// again, and renews its freshness. An entry stored for a request with other values of the
/// headers its response's `Vary` names is not used.
///
/// The first five policies are the app's own rules: they use a stored value whatever its
/// freshness says. ``followServer`` and ``staleWhileRevalidate`` follow the server's freshness
/// (`Cache-Control: max-age`, `no-cache`, `Expires`, `Age`, `Date`).
public enum CachePolicy: Sendable, Hashable {
    /// Always the network (revalidating a stored entry when it can). A successful answer is
    /// stored for the other policies.
    case networkOnly
    /// Only the cache; ``APIError/notCached`` when it has nothing.
    case cacheOnly
    /// The cache when it has a value stored (or revalidated) less than `maxAge` seconds ago,
    /// else the network.
    case cacheElseNetwork(maxAge: TimeInterval)
    /// The network; when it fails for a transport reason (offline, timeout…) or with an HTTP
    /// status of 500 or above, the cache. A server that answered and refused (its envelope's
    /// code, with any status) gets no fallback: its answer stands. A stale entry whose response
    /// said `must-revalidate` is not used as a fallback either.
    case networkElseCache
    /// The cached value first, when there is one, then the network's: a list shown at once, then
    /// refreshed. The network request revalidates the stored entry, so an unchanged list costs a
    /// `304` and no decode. A network failure after a cached value is thrown after that value was
    /// delivered.
    case cacheThenNetwork
    /// The server's rules, as an HTTP cache follows them: a fresh stored value is used without a
    /// request; a stale one (or one marked `no-cache`) is revalidated first; nothing stored, the
    /// network.
    case followServer
    /// The stored value at once, whatever its age; when it is stale by the server's rules, it is
    /// revalidated in the background and the fresh value is delivered after it (by
    /// ``APIClient/values(for:policy:)``; ``APIClient/send(_:policy:)`` returns the stored value
    /// and leaves the revalidation to update the cache for the next call). Nothing stored, the
    /// network.
    case staleWhileRevalidate
}

/// Where a delivered value came from.
public enum ValueOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The cache, with the value's age in seconds when it was read (the time since it was stored
    /// or last revalidated).
    case cache(age: TimeInterval)
    /// A fresh network answer.
    case network
    /// The cache's value, which the server confirmed is current (`304 Not Modified`) just now.
    case revalidated

    /// Whether the value came from the cache without the server confirming it.
    public var isCached: Bool {
        if case .cache = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .cache(let age): "cache (\(Int(age.rounded())) s old)"
        case .network: "network"
        case .revalidated: "cache, confirmed current (304)"
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

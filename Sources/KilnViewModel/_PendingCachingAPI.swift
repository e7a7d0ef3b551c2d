// TEMPORARY — DELETE ON MERGE.
//
// Copies of the cache-policy API that KilnNetwork's `Caching/` folder will provide (being written
// on `main`). They exist only so `Resource` compiles before that work lands. When `main` has
// `Sources/KilnNetwork/Caching`, merge it, delete this file, and remove `#if KILN_CACHING_API`
// from `Resource+APIClient.swift`. The declarations below match the agreed signatures exactly,
// so no other file in this module needs to change.

import Foundation
import KilnModel

/// Where a value should come from: the cache, the network, or both in a set order.
///
/// Temporary copy of `KilnNetwork.CachePolicy`; deleted when the caching API lands.
public enum CachePolicy: Sendable, Hashable {
    /// Always ask the server; never read the cache.
    case networkOnly
    /// Only read the cache; fail when nothing is cached.
    case cacheOnly
    /// Use a cached value younger than `maxAge` seconds, otherwise ask the server.
    case cacheElseNetwork(maxAge: TimeInterval)
    /// Ask the server; fall back to the cache when the network fails (offline mode).
    case networkElseCache
    /// Yield the cached value first (if any), then the fresh one from the server.
    case cacheThenNetwork
}

/// Where a delivered value came from.
///
/// Temporary copy of `KilnNetwork.ValueOrigin`; deleted when the caching API lands.
public enum ValueOrigin: Sendable, Hashable {
    /// From the cache; `age` is the seconds since it was stored.
    case cache(age: TimeInterval)
    /// Fresh from the network.
    case network
}

/// A value with its origin and the repairs the tolerant decoder made to produce it.
///
/// Temporary copy of `KilnNetwork.Sourced`; deleted when the caching API lands.
public struct Sourced<Value: Sendable>: Sendable {
    /// The value.
    public var value: Value
    /// Where it came from.
    public var origin: ValueOrigin
    /// What the decoder repaired to produce it.
    public var repairs: [Repair]

    /// Creates a sourced value.
    public init(value: Value, origin: ValueOrigin, repairs: [Repair] = []) {
        self.value = value
        self.origin = origin
        self.repairs = repairs
    }
}

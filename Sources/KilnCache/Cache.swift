import Foundation

/// A store of bytes by key: what ``MemoryCache``, ``DiskCache`` and ``LayeredCache`` share.
///
/// A cache never throws: a value that cannot be read (expired, written with another schema
/// version, damaged on disk) is a miss, and a value that cannot be written is dropped.
///
/// ```swift
/// let cache: any Cache = LayeredCache(memory: MemoryCache(), disk: DiskCache(directory: dir))
/// await cache.set(responseBytes, forKey: key, expiry: .after(600), schemaVersion: 1, metadata: [:])
/// if let bytes = await cache.value(forKey: key, schemaVersion: 1) { render(bytes) }
/// ```
///
/// The conforming types give every parameter after the key a default (schema version 0, no
/// expiry, no metadata) and answer synchronously where they can (``MemoryCache`` and
/// ``DiskCache``). The protocol itself has no convenience overloads on purpose: an `async`
/// overload in a protocol extension would win over those synchronous methods inside `async`
/// code and force an `await` on every call.
public protocol Cache: Sendable {
    /// The entry stored under `key`, or `nil` if there is none, it has expired, or it was
    /// written with a schema version other than `schemaVersion`.
    func entry(forKey key: CacheKey, schemaVersion: Int) async -> CacheEntry?

    /// The bytes stored under `key`, or `nil` on a miss (see ``entry(forKey:schemaVersion:)``).
    func value(forKey key: CacheKey, schemaVersion: Int) async -> Data?

    /// Stores `value` under `key`, replacing what was there.
    func set(
        _ value: Data,
        forKey key: CacheKey,
        expiry: CacheExpiry,
        schemaVersion: Int,
        metadata: [String: String]
    ) async

    /// Removes the value stored under `key`, if any.
    func remove(forKey key: CacheKey) async

    /// Removes every value.
    func removeAll() async
}

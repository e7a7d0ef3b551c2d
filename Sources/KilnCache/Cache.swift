import Foundation

/// A store of bytes by key: what ``MemoryCache``, ``DiskCache`` and ``LayeredCache`` share.
///
/// A cache never throws: a value that cannot be read (expired, written with another schema
/// version, corrupt on disk) is a miss, and a value that cannot be written is dropped.
///
/// ```swift
/// let cache: any Cache = LayeredCache(memory: MemoryCache(), disk: DiskCache(directory: dir))
/// await cache.set(responseBytes, forKey: key, expiry: .after(600), schemaVersion: 1)
/// if let bytes = await cache.value(forKey: key, schemaVersion: 1) { render(bytes) }
/// ```
public protocol Cache: Sendable {
    /// The entry stored under `key`, or `nil` if there is none, it has expired, or it was
    /// written with a schema version other than `schemaVersion`.
    func entry(forKey key: CacheKey, schemaVersion: Int) async -> CacheEntry?

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

extension Cache {
    /// The bytes stored under `key`, or `nil` on a miss (see ``entry(forKey:schemaVersion:)``).
    public func value(forKey key: CacheKey, schemaVersion: Int = 0) async -> Data? {
        await entry(forKey: key, schemaVersion: schemaVersion)?.value
    }

    /// The entry stored under `key` with schema version 0.
    public func entry(forKey key: CacheKey) async -> CacheEntry? {
        await entry(forKey: key, schemaVersion: 0)
    }

    /// Stores `value` under `key` with no metadata.
    public func set(_ value: Data, forKey key: CacheKey, expiry: CacheExpiry = .never, schemaVersion: Int = 0) async {
        await set(value, forKey: key, expiry: expiry, schemaVersion: schemaVersion, metadata: [:])
    }
}

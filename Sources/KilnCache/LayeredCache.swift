import Foundation

/// A ``MemoryCache`` in front of a ``DiskCache``: reads try memory first, then disk (and keep
/// what disk returned in memory); writes and removals go to both.
///
/// ```swift
/// let cache = LayeredCache(
///     memory: MemoryCache(costLimit: 10 * 1024 * 1024),
///     disk: DiskCache(directory: cachesURL.appendingPathComponent("kiln"), byteLimit: 100 * 1024 * 1024)
/// )
/// await cache.set(bytes, forKey: key, expiry: .after(600), schemaVersion: 1, metadata: ["etag": etag])
/// let entry = await cache.entry(forKey: key, schemaVersion: 1)   // bytes, dates, version, metadata
/// ```
///
/// Disk reads and writes are short and run on the calling task; large values cost one file
/// read or write.
public final class LayeredCache: Cache {
    /// The front layer.
    public let memory: MemoryCache
    /// The back layer, which survives relaunches.
    public let disk: DiskCache

    /// Creates a layered cache from its two layers.
    public init(memory: MemoryCache = MemoryCache(costLimit: 16 * 1024 * 1024), disk: DiskCache) {
        self.memory = memory
        self.disk = disk
    }

    /// The entry stored under `key`, from memory if it is there, else from disk; `nil` if
    /// neither has a live entry with this schema version.
    public func entry(forKey key: CacheKey, schemaVersion: Int = 0) async -> CacheEntry? {
        if let entry = memory.entry(forKey: key, schemaVersion: schemaVersion) { return entry }
        guard let entry = disk.entry(forKey: key, schemaVersion: schemaVersion) else { return nil }
        memory.insert(entry)
        return entry
    }

    /// The bytes stored under `key`, or `nil` on a miss (see ``entry(forKey:schemaVersion:)``).
    public func value(forKey key: CacheKey, schemaVersion: Int = 0) async -> Data? {
        await entry(forKey: key, schemaVersion: schemaVersion)?.value
    }

    /// Stores `value` under `key` in both layers.
    public func set(
        _ value: Data,
        forKey key: CacheKey,
        expiry: CacheExpiry = .never,
        schemaVersion: Int = 0,
        metadata: [String: String] = [:]
    ) async {
        let now = disk.configuration.clock.now()
        let entry = CacheEntry(
            key: key, value: value, storedAt: now, expiresAt: expiry.date(from: now),
            schemaVersion: schemaVersion, metadata: metadata
        )
        memory.insert(entry)
        disk.set(value, forKey: key, expiry: entry.expiresAt.map(CacheExpiry.at) ?? .never, schemaVersion: schemaVersion, metadata: metadata)
    }

    /// Removes the value stored under `key` from both layers.
    public func remove(forKey key: CacheKey) async {
        memory.remove(forKey: key)
        disk.remove(forKey: key)
    }

    /// Removes every value whose key starts with `prefix` from both layers.
    public func remove(prefix: String) async {
        memory.remove(prefix: prefix)
        disk.remove(prefix: prefix)
    }

    /// Removes every value from both layers.
    public func removeAll() async {
        memory.removeAll()
        disk.removeAll()
    }
}

import Foundation

extension MemoryCache: Cache {
    /// Stores `value` under `key` at its byte count as cost (the ``Cache`` requirement).
    public func set(
        _ value: Data,
        forKey key: CacheKey,
        expiry: CacheExpiry,
        schemaVersion: Int,
        metadata: [String: String]
    ) {
        set(value, forKey: key, cost: nil, expiry: expiry, schemaVersion: schemaVersion, metadata: metadata)
    }
}

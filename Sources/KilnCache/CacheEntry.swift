import Foundation

/// A cached value with what is known about it.
///
/// ```swift
/// if let entry = await cache.entry(forKey: key, schemaVersion: 2) {
///     print(entry.value.count, entry.storedAt, entry.expiresAt as Any, entry.metadata["etag"] ?? "")
/// }
/// ```
public struct CacheEntry: Sendable, Hashable {
    /// The key the value is stored under.
    public var key: CacheKey
    /// The cached bytes.
    public var value: Data
    /// When the value was stored.
    public var storedAt: Date
    /// When the value stops being served, or `nil` if it never expires.
    public var expiresAt: Date?
    /// The schema version the value was written with; reads asking for another version miss.
    public var schemaVersion: Int
    /// Free-form metadata stored with the value (an ETag, a content type...).
    public var metadata: [String: String]

    /// Creates an entry.
    public init(
        key: CacheKey,
        value: Data,
        storedAt: Date,
        expiresAt: Date? = nil,
        schemaVersion: Int = 0,
        metadata: [String: String] = [:]
    ) {
        self.key = key
        self.value = value
        self.storedAt = storedAt
        self.expiresAt = expiresAt
        self.schemaVersion = schemaVersion
        self.metadata = metadata
    }

    /// Whether the entry has expired at `date` (an entry expiring exactly at `date` has).
    public func isExpired(at date: Date) -> Bool {
        guard let expiresAt else { return false }
        return expiresAt <= date
    }

    /// How old the entry is at `date`, in seconds.
    public func age(at date: Date) -> TimeInterval {
        date.timeIntervalSince(storedAt)
    }
}

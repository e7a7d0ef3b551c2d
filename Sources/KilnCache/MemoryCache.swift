import Foundation
import KilnSupport

/// An in-memory least-recently-used cache with count and cost limits and per-entry expiry.
///
/// Safe to use from many tasks at once: every operation takes one short lock, so reads are
/// synchronous and cheap (an actor hop would cost more than the lookup). The cost of a value
/// is its byte count unless you give one.
///
/// ```swift
/// let cache = MemoryCache(countLimit: 500, costLimit: 20 * 1024 * 1024)
/// cache.set(bytes, forKey: "feed/1", expiry: .after(60))
/// let hit = cache.value(forKey: "feed/1")
/// ```
///
/// ## Topics
/// - ``value(forKey:schemaVersion:)``
/// - ``entry(forKey:schemaVersion:)``
/// - ``set(_:forKey:cost:expiry:schemaVersion:metadata:)``
/// - ``insert(_:cost:)``
/// - ``remove(forKey:)``
/// - ``removeAll()``
public final class MemoryCache: @unchecked Sendable {
    // Entries live in `nodes`, linked most-recent-first through array indices, so a hit moves
    // an entry to the front without allocating. Freed slots are reused through `free`.
    private struct Node {
        var entry: CacheEntry?
        var cost: Int
        var previous: Int
        var next: Int
    }

    /// The most entries kept, or `nil` for no limit.
    public let countLimit: Int?
    /// The largest total cost kept, or `nil` for no limit.
    public let costLimit: Int?
    private let clock: CacheClock

    private let lock = Lock()
    private var index: [CacheKey: Int] = [:]
    private var nodes: ContiguousArray<Node> = []
    private var free: [Int] = []
    private var head = -1
    private var tail = -1
    private var storedCost = 0
    /// Empties the cache on a memory warning; `nil` until init has finished.
    private var pressure: MemoryPressureObserver?

    /// Creates an empty cache.
    ///
    /// - Parameters:
    ///   - countLimit: the most entries kept; the least recently used go first. `nil`: no limit.
    ///   - costLimit: the largest total cost kept. `nil`: no limit.
    ///   - clock: where expiry reads the date from.
    public init(countLimit: Int? = nil, costLimit: Int? = nil, clock: CacheClock = .system) {
        self.countLimit = countLimit.map { max(0, $0) }
        self.costLimit = costLimit.map { max(0, $0) }
        self.clock = clock
        pressure = MemoryPressureObserver { [weak self] in self?.releaseMemory() }
    }

    /// Gives the memory back: removes every entry. Called on its own when the system sends a
    /// memory warning (UIKit platforms), as `NSCache` evicts under pressure.
    public func releaseMemory() {
        removeAll()
    }

    /// The number of entries held (expired ones included until they are read or pushed out).
    public var count: Int {
        lock.withLock { index.count }
    }

    /// The total cost of the entries held.
    public var totalCost: Int {
        lock.withLock { storedCost }
    }

    /// The bytes stored under `key`, or `nil` if there are none, they have expired, or they were
    /// stored with another schema version. A hit makes the entry the most recently used.
    public func value(forKey key: CacheKey, schemaVersion: Int = 0) -> Data? {
        return lock.withLock {
            guard let slot = liveSlot(forKey: key, schemaVersion: schemaVersion) else { return nil }
            return nodes[slot].entry?.value
        }
    }

    /// The entry stored under `key`, or `nil` on a miss (see ``value(forKey:schemaVersion:)``).
    public func entry(forKey key: CacheKey, schemaVersion: Int = 0) -> CacheEntry? {
        return lock.withLock {
            guard let slot = liveSlot(forKey: key, schemaVersion: schemaVersion) else { return nil }
            return nodes[slot].entry
        }
    }

    /// Whether a live entry is stored under `key`, without making it the most recently used.
    public func contains(_ key: CacheKey, schemaVersion: Int = 0) -> Bool {
        lock.withLock {
            guard let slot = index[key], let entry = nodes[slot].entry else { return false }
            return entry.schemaVersion == schemaVersion && !entry.isExpired(at: clock.now())
        }
    }

    /// Stores `value` under `key`, replacing what was there, then pushes out the least recently
    /// used entries until the limits hold.
    ///
    /// A value whose cost alone is above ``costLimit`` is not kept (and removes the old one).
    ///
    /// - Parameters:
    ///   - value: the bytes to store.
    ///   - key: the key to store them under.
    ///   - cost: the value's cost; its byte count if `nil`.
    ///   - expiry: when the value stops being served.
    ///   - schemaVersion: the version reads must ask for to get this value.
    ///   - metadata: free-form strings kept with the value.
    public func set(
        _ value: Data,
        forKey key: CacheKey,
        cost: Int? = nil,
        expiry: CacheExpiry = .never,
        schemaVersion: Int = 0,
        metadata: [String: String] = [:]
    ) {
        let now = clock.now()
        let entry = CacheEntry(
            key: key, value: value, storedAt: now, expiresAt: expiry.date(from: now),
            schemaVersion: schemaVersion, metadata: metadata
        )
        insert(entry, cost: cost)
    }

    /// Stores a complete entry, keeping its dates (used to promote an entry read from disk).
    public func insert(_ entry: CacheEntry, cost: Int? = nil) {
        let cost = max(0, cost ?? entry.value.count)
        lock.withLock {
            if let costLimit, cost > costLimit {
                if let slot = index.removeValue(forKey: entry.key) { release(slot) }
                return
            }
            if let slot = index[entry.key] {
                storedCost += cost - nodes[slot].cost
                nodes[slot].entry = entry
                nodes[slot].cost = cost
                moveToFront(slot)
            } else {
                let node = Node(entry: entry, cost: cost, previous: -1, next: head)
                let slot: Int
                if let reused = free.popLast() {
                    slot = reused
                    nodes[slot] = node
                } else {
                    slot = nodes.count
                    nodes.append(node)
                }
                if head >= 0 { nodes[head].previous = slot }
                head = slot
                if tail < 0 { tail = slot }
                index[entry.key] = slot
                storedCost += cost
            }
            trim()
        }
    }

    /// Removes the entry stored under `key`, if any.
    public func remove(forKey key: CacheKey) {
        lock.withLock {
            if let slot = index.removeValue(forKey: key) { release(slot) }
        }
    }

    /// Removes every entry whose key starts with `prefix`.
    public func remove(prefix: String) {
        lock.withLock {
            for key in index.keys where key.hasPrefix(prefix) {
                if let slot = index.removeValue(forKey: key) { release(slot) }
            }
        }
    }

    /// Removes every entry.
    public func removeAll() {
        lock.withLock {
            index.removeAll()
            nodes.removeAll()
            free.removeAll()
            head = -1
            tail = -1
            storedCost = 0
        }
    }

    /// Removes every entry that has expired.
    public func removeExpired() {
        lock.withLock {
            let now = clock.now()
            for (key, slot) in index where nodes[slot].entry?.isExpired(at: now) ?? false {
                index.removeValue(forKey: key)
                release(slot)
            }
        }
    }

    // MARK: - Under the lock

    /// The slot of a live entry for `key`, moved to the front; an expired entry is removed.
    @inline(__always)
    private func liveSlot(forKey key: CacheKey, schemaVersion: Int) -> Int? {
        guard let slot = index[key], let entry = nodes[slot].entry else { return nil }
        // Reading the clock only for entries that can expire keeps the common hit cheap.
        if let expiresAt = entry.expiresAt, expiresAt <= clock.now() {
            index.removeValue(forKey: key)
            release(slot)
            return nil
        }
        guard entry.schemaVersion == schemaVersion else { return nil }
        moveToFront(slot)
        return slot
    }

    private func moveToFront(_ slot: Int) {
        guard slot != head else { return }
        unlink(slot)
        nodes[slot].previous = -1
        nodes[slot].next = head
        if head >= 0 { nodes[head].previous = slot }
        head = slot
        if tail < 0 { tail = slot }
    }

    private func unlink(_ slot: Int) {
        let previous = nodes[slot].previous
        let next = nodes[slot].next
        if previous >= 0 { nodes[previous].next = next } else { head = next }
        if next >= 0 { nodes[next].previous = previous } else { tail = previous }
    }

    /// Unlinks a slot already removed from `index` and frees it.
    private func release(_ slot: Int) {
        unlink(slot)
        storedCost -= nodes[slot].cost
        nodes[slot] = Node(entry: nil, cost: 0, previous: -1, next: -1)
        free.append(slot)
    }

    private func trim() {
        while tail >= 0, isOverLimit {
            let slot = tail
            if let key = nodes[slot].entry?.key { index.removeValue(forKey: key) }
            release(slot)
        }
    }

    private var isOverLimit: Bool {
        if let countLimit, index.count > countLimit { return true }
        if let costLimit, storedCost > costLimit { return true }
        return false
    }
}

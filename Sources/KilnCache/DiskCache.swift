import Foundation
import GRDB
import KilnSupport

/// A persistent cache of bytes in a folder: an SQLite database (through GRDB, in WAL mode) for
/// small values and the index, and one file per large value.
///
/// - Values up to ``Configuration/inlineThreshold`` bytes live in their database row; larger
///   ones in a file named by the SHA-256 of the key and a suffix new for each write, written
///   atomically (a committed value's file is never replaced in place), with their length and
///   checksums kept in the row (see ``Configuration/valueVerification``).
/// - ``Configuration/byteLimit`` and ``Configuration/countLimit`` are enforced by removing the
///   least recently used entries.
/// - Writes are buffered and committed in batches (see ``Configuration/flushInterval``); reads
///   see them at once.
/// - Every value served is the value stored, or a miss: small values carry a checksum in their
///   row, value files a length and checksums.
/// - Nothing here throws. A database proven damaged (corrupt, not a database, another schema)
///   is moved aside and rebuilt empty, and a missing or damaged value is a miss whose row is
///   removed. A database or value file that cannot be read right now (permissions, protected
///   data on a locked device) is never moved or deleted: the cache misses until it can read it
///   again. See ``Event``.
///
/// ```swift
/// let cache = DiskCache(directory: cachesURL.appendingPathComponent("responses"), byteLimit: 50_000_000)
/// cache.set(body, forKey: key, expiry: .after(3600), schemaVersion: 2, metadata: ["etag": etag])
/// if let entry = cache.entry(forKey: key, schemaVersion: 2) { use(entry.value) }
/// ```
///
/// ## Durability
///
/// SQLite runs in WAL mode with `synchronous = NORMAL`, and value files are written to a
/// temporary file and renamed, without `fsync`. A committed write survives a crash of the app;
/// a power loss or kernel crash may lose the last commits and files (the database stays
/// consistent, and a value file that came back short or damaged is a miss). Buffered writes not
/// yet committed (see ``Configuration/flushInterval``) are lost if the process dies. That is
/// the trade a cache can make: everything in it can be fetched again.
///
/// Use one `DiskCache` per folder and process. With the default ``Locking/exclusive`` it holds
/// its database for itself; with ``Locking/shared``, processes that share the folder (an app and
/// its extensions) each open their own, and limits count every process's entries. It is safe to
/// share between tasks: every operation is serialized on one connection.
///
/// ## Topics
/// - ``init(configuration:)``
/// - ``entry(forKey:schemaVersion:)``
/// - ``set(_:forKey:expiry:schemaVersion:metadata:)``
/// - ``remove(forKey:)``
/// - ``remove(prefix:)``
/// - ``removeExpired()``
/// - ``removeAll()``
/// - ``flush()``
/// - ``size()``
public final class DiskCache: @unchecked Sendable {
    /// A write waiting in the buffer.
    enum Pending {
        case put(Staged)
        case delete(CacheKey)
    }

    /// A value accepted by `set` and not yet committed.
    struct Staged {
        var entry: CacheEntry
        var file: String?
        var checksum: Int64
        var sample: Int64
        var sequence: Int64
    }

    /// What is known about the committed rows, kept in memory so limits need no query.
    struct Totals {
        var count = 0
        var bytes = 0
    }

    /// The configuration the cache was created with.
    public let configuration: Configuration
    let files: ValueFiles
    let databaseURL: URL

    /// Serializes everything that changes the database or the value files.
    let writeLock = Lock()
    /// Guards the fields below; held only for memory operations, never around I/O.
    let stateLock = Lock()
    var database: Connection?
    // Keyed by row id (``rowID(for:)``), like the table: an integer key hashes for free, where
    // hashing the key text again for each dictionary showed in read profiles.
    var pending: [Int64: Pending] = [:]
    var pendingBytes = 0
    /// Whether a write was dropped since the last ``flush()`` (what it reports).
    var writesDropped = false
    /// Row id → LRU sequence of reads not yet written.
    var accessed: [Int64: Int64] = [:]
    var sequence: Int64 = 0
    var flushScheduled = false
    /// Committed totals; changed only with `writeLock` held.
    var totals = Totals() {
        didSet {
            let window = Int64(totals.count / 8)
            stateLock.withLock { accessWindow = window }
        }
    }
    /// A read of a row touched fewer than this many operations ago is not recorded again: hot
    /// entries cost no write per read, and the LRU order is exact for the oldest seven eighths,
    /// which is where trimming looks.
    var accessWindow: Int64 = 0
    /// When an unavailable database may be opened again; `nil` while it is open (or was never
    /// unavailable).
    var nextOpenAttempt: Date?
    /// When value files are next swept (``sweepOrphanedFiles()``): a grace period after the
    /// last sweep of any process; `nil` while the database is not open.
    var nextSweep: Date?
    var sweepScheduled = false
    /// Releases memory on a memory warning; `nil` until init has finished.
    var pressure: MemoryPressureObserver?

    /// Opens (or creates) the cache in `configuration.directory`.
    ///
    /// Never fails: a damaged database is moved aside and rebuilt, and if the folder cannot be
    /// written at all the cache works as an always-empty one (reported through
    /// ``Configuration/onEvent``).
    public init(configuration: Configuration) {
        self.configuration = configuration
        self.files = ValueFiles(directory: configuration.directory.appendingPathComponent("Values", isDirectory: true))
        self.databaseURL = configuration.directory.appendingPathComponent("cache.sqlite", isDirectory: false)
        writeLock.withLock { openLocked() }
        pressure = MemoryPressureObserver { [weak self] in self?.releaseMemory() }
    }

    /// Gives memory back: commits the write buffer and frees what SQLite holds in its page cache.
    /// Called on its own when the system sends a memory warning (UIKit platforms). Entries stay.
    public func releaseMemory() {
        writeLock.withLock {
            flushLocked(recordingReads: true)
            stateLock.withLock { database }?.releaseMemory()
        }
    }

    /// Opens (or creates) a cache in `directory` with the default configuration and these limits.
    ///
    /// ```swift
    /// let cache = DiskCache(directory: folder, byteLimit: 20 * 1024 * 1024, countLimit: 5_000)
    /// ```
    public convenience init(directory: URL, byteLimit: Int? = nil, countLimit: Int? = nil, clock: CacheClock = .system) {
        self.init(configuration: Configuration(directory: directory, byteLimit: byteLimit, countLimit: countLimit, clock: clock))
    }

    deinit {
        writeLock.withLock {
            guard !flushLocked(recordingReads: true) else { return }
            let waiting = stateLock.withLock { pending.count }
            if waiting > 0 {
                report(.operationFailed(operation: "commit of \(waiting) writes", reason: "the database was still busy when the cache was released"))
            }
        }
    }

    // MARK: - Reading

    /// The bytes stored under `key`, or `nil` if there are none, they have expired, they were
    /// written with another schema version, or they could not be read back intact.
    ///
    /// Cheaper than ``entry(forKey:schemaVersion:)``: the stored date and metadata are not read.
    public func value(forKey key: CacheKey, schemaVersion: Int = 0) -> Data? {
        switch lookup(key, schemaVersion: schemaVersion, complete: false) {
        case .staged(let entry)?: entry.value
        case .stored(_, let value)?: value
        case nil: nil
        }
    }

    /// The entry stored under `key`, or `nil` on a miss (see ``value(forKey:schemaVersion:)``).
    /// A hit makes the entry the most recently used.
    public func entry(forKey key: CacheKey, schemaVersion: Int = 0) -> CacheEntry? {
        switch lookup(key, schemaVersion: schemaVersion, complete: true) {
        case .staged(let entry)?:
            return entry
        case .stored(let row, let value)?:
            return CacheEntry(
                key: key, value: value, storedAt: Date(timeIntervalSinceReferenceDate: row.storedAt),
                expiresAt: row.expiresAt.map(Date.init(timeIntervalSinceReferenceDate:)),
                schemaVersion: row.schemaVersion, metadata: row.metadata
            )
        case nil:
            return nil
        }
    }

    /// What a lookup found.
    enum Found {
        /// A write still in the buffer.
        case staged(CacheEntry)
        /// A committed row and its value.
        case stored(StoredRow, Data)
    }

    /// Finds the live value of `key` in the buffer or the database, reads its file if it has
    /// one, and records the read for LRU order. `complete` also reads the stored date and
    /// metadata.
    private func lookup(_ key: CacheKey, schemaVersion: Int, complete: Bool, again: Bool = false) -> Found? {
        // The clock is read only for entries that can expire.
        let clock = configuration.clock
        let id = Self.rowID(for: key)
        // One look under the lock: the write buffer answers if it holds the key; if not, the
        // database the cache has now is asked.
        let (inBuffer, buffered, database) = stateLock.withLock { () -> (Bool, Found?, Connection?) in
            guard !pending.isEmpty, let waiting = pending[id] else { return (false, nil, self.database) }
            guard case .put(let staged) = waiting,
                staged.entry.key == key,
                staged.entry.schemaVersion == schemaVersion,
                staged.entry.expiresAt == nil || !staged.entry.isExpired(at: clock.now())
            else { return (true, nil, nil) }
            noteAccessLocked(id)
            return (true, .staged(staged.entry), nil)
        }
        if inBuffer { return buffered }
        guard let database else {
            // Unavailable: after a while, this read tries to open the database again.
            if reopenIfDue() { return lookup(key, schemaVersion: schemaVersion, complete: complete) }
            return nil
        }

        let row: StoredRow?
        do {
            row = try readRow(key, id: id, in: database, complete: complete)
        } catch is Connection.Closed {
            return nil
        } catch {
            handle(error, during: "read", in: database)
            return nil
        }
        guard let row, row.schemaVersion == schemaVersion else { return nil }
        if let expiresAt = row.expiresAt, expiresAt <= clock.now().timeIntervalSinceReferenceDate { return nil }
        let value: Data
        if let file = row.file {
            switch readFile(file, of: row, key: key) {
            case .value(let stored):
                value = stored
            case .replaced where !again:
                // Another process replaced or removed the entry between the row and its file.
                return lookup(key, schemaVersion: schemaVersion, complete: complete, again: true)
            case .replaced, .miss:
                return nil
            }
        } else {
            // Every row of this format has a checksum: one that does not match is damage, a miss.
            guard Checksum.ofInline(row.inlineValue) == row.checksum else {
                removeDamaged(row, key: key, event: .valueCorrupt(key: key))
                return nil
            }
            value = row.inlineValue
        }
        stateLock.withLock {
            if sequence - row.accessSequence > accessWindow { noteAccessLocked(id) }
        }
        return .stored(row, value)
    }

    /// What reading the value file of a row found.
    private enum FileRead {
        case value(Data)
        /// A miss: the row was removed if the file is missing or damaged, and kept if it only
        /// cannot be read right now.
        case miss
        /// The file is gone because the row was replaced or removed since it was read.
        case replaced
    }

    /// The value file of `row`.
    private func readFile(_ file: String, of row: StoredRow, key: CacheKey) -> FileRead {
        let value: Data
        switch files.read(named: file, expectedCount: row.size) {
        case .value(let bytes):
            value = bytes
        case .missing:
            return removeDamaged(row, key: key, event: .valueFileMissing(key: key)) ? .miss : .replaced
        case .damaged:
            removeDamaged(row, key: key, event: .valueFileCorrupt(key: key))
            return .miss
        case .unreadable:
            report(.valueFileUnreadable(key: key))
            return .miss
        }
        let intact: Bool
        switch configuration.valueVerification {
        case .length: intact = true // `read` already checked it
        case .sampled: intact = Checksum.sampled(value) == row.sample
        case .full: intact = Checksum.of(value) == row.checksum
        }
        guard intact else {
            removeDamaged(row, key: key, event: .valueFileCorrupt(key: key))
            return .miss
        }
        return .value(value)
    }

    // MARK: - Writing

    /// Stores `value` under `key`, replacing what was there.
    ///
    /// Returns once the value is in the write buffer (and, above the inline threshold, once its
    /// file is written); see ``Configuration/flushInterval`` for when it is committed.
    public func set(
        _ value: Data,
        forKey key: CacheKey,
        expiry: CacheExpiry = .never,
        schemaVersion: Int = 0,
        metadata: [String: String] = [:]
    ) {
        let now = configuration.clock.now()
        let entry = CacheEntry(
            key: key, value: value, storedAt: now, expiresAt: expiry.date(from: now),
            schemaVersion: schemaVersion, metadata: metadata
        )
        // Without a database nothing can be committed: an unavailable cache stays empty, and
        // writes no value files into a folder another cache may be using.
        guard reopenIfDue() else { return noteDroppedWrite() }
        writeLock.withLock {
            guard stateLock.withLock({ database != nil }) else { return noteDroppedWrite() }
            if let limit = configuration.byteLimit, value.count > limit {
                // Storing it would evict everything else and then itself: refuse it, keep the rest.
                stage(.delete(key), forKey: key, bytes: 0)
                noteDroppedWrite()
                report(.valueTooLarge(key: key, bytes: value.count))
                return
            }
            var file: String?
            var checksum: Int64
            var sample: Int64 = 0
            if value.count <= configuration.inlineThreshold {
                checksum = Checksum.ofInline(value)
            } else {
                let name = ValueFiles.newName(for: key)
                guard files.write(value, named: name) else {
                    report(.operationFailed(operation: "write of \(key)", reason: "could not write its value file"))
                    // A set that did not happen must not leave the older value to be served.
                    stage(.delete(key), forKey: key, bytes: 0)
                    noteDroppedWrite()
                    return
                }
                file = name
                checksum = Checksum.of(value)
                sample = Checksum.sampled(value)
            }
            let full = stage(.put(Staged(entry: entry, file: file, checksum: checksum, sample: sample, sequence: 0)), forKey: key, bytes: value.count)
            if full { flushLocked() }
        }
    }

    /// Removes the value stored under `key`, if any.
    public func remove(forKey key: CacheKey) {
        writeLock.withLock {
            if stage(.delete(key), forKey: key, bytes: 0) { flushLocked() }
        }
    }

    /// Removes every value whose key starts with `prefix` (`"GET /articles"` drops every
    /// cached page of articles).
    public func remove(prefix: String) {
        writeLock.withLock {
            flushLocked()
            removeCommittedLocked(where: "substr(key, 1, length(?)) = ?", arguments: [prefix, prefix])
        }
    }

    /// Removes every entry that has expired. They are misses already; this frees their space
    /// before trimming would.
    public func removeExpired() {
        writeLock.withLock {
            flushLocked()
            let now = configuration.clock.now().timeIntervalSinceReferenceDate
            removeCommittedLocked(where: "expiresAt <= ?", arguments: [now])
        }
    }

    /// Removes every value.
    ///
    /// Under ``Locking/shared``, another process's writes not yet committed are not removed.
    public func removeAll() {
        writeLock.withLock {
            let discarded = stateLock.withLock {
                defer {
                    pending.removeAll()
                    pendingBytes = 0
                    accessed.removeAll()
                }
                return pending.values.compactMap { if case .put(let staged) = $0 { staged.file } else { nil } }
            }
            for file in discarded { files.remove(named: file) }
            removeCommittedLocked()
        }
    }

    /// Commits the buffered writes, and the order of recent reads, now.
    ///
    /// Returns whether every write since the previous `flush()` is committed, which is what a
    /// caller that must know its writes are stored checks. It is `false` while the database is
    /// unavailable, when a write was dropped (reported through ``Configuration/onEvent``: the
    /// database was unavailable, a value file could not be written, a value was over the byte
    /// limit), and under ``Locking/shared`` when
    /// another process held the database longer than ``Configuration/busyTimeout`` allows: then
    /// the writes stay buffered, reads still see them, and the next flush commits them (see
    /// ``Event/commitDelayed(writes:reason:)``).
    @discardableResult
    public func flush() -> Bool {
        let committed = writeLock.withLock { flushLocked(recordingReads: true) }
        scheduleSweepIfDue()
        let dropped = stateLock.withLock {
            defer { writesDropped = false }
            return writesDropped
        }
        return committed && !dropped
    }

    // MARK: - Size

    /// What a ``DiskCache`` holds, as reported by ``size()``.
    public struct Size: Sendable, Hashable {
        /// The number of entries.
        public var count: Int
        /// The total size of the stored values, in bytes (what ``Configuration/byteLimit`` limits).
        public var valueBytes: Int
        /// The size of the database files on disk (`cache.sqlite` and its WAL), in bytes.
        public var databaseBytes: Int
    }

    /// Commits the buffered writes and reports what the cache holds: under ``Locking/shared``,
    /// what every process sharing the folder has committed.
    public func size() -> Size {
        writeLock.withLock {
            flushLocked()
            if let database = stateLock.withLock({ database }), let committed = try? database.read(Self.readTotals) {
                totals = committed
            }
            let manager = FileManager.default
            let databaseBytes = [databaseURL.path, databaseURL.path + "-wal"].reduce(0) { sum, path in
                sum + ((try? manager.attributesOfItem(atPath: path)[.size] as? Int) ?? 0)
            }
            return Size(count: totals.count, valueBytes: totals.bytes, databaseBytes: databaseBytes)
        }
    }

    // MARK: - Buffer

    /// Adds a write to the buffer; returns whether the buffer is full. `writeLock` held.
    @discardableResult
    func stage(_ write: Pending, forKey key: CacheKey, bytes: Int) -> Bool {
        let (full, unreferenced) = stateLock.withLock { () -> (Bool, String?) in
            var write = write
            sequence += 1
            if case .put(var staged) = write {
                staged.sequence = sequence
                write = .put(staged)
            }
            let id = Self.rowID(for: key)
            let replaced = pending.updateValue(write, forKey: id)
            accessed.removeValue(forKey: id)
            pendingBytes += bytes
            scheduleFlushLocked()
            let full = pending.count >= configuration.maxPendingWrites || pendingBytes >= configuration.maxPendingBytes
            guard case .put(let replaced)? = replaced else { return (full, nil) }
            return (full, replaced.file)
        }
        // A value replaced before it was committed: no row will ever name its file, and readers
        // of the buffer hold its bytes, not its file.
        if let unreferenced { files.remove(named: unreferenced) }
        return full
    }

    /// Empties the buffer of writes that will not be committed, and notes that they were
    /// dropped. `stateLock` held.
    func dropPendingLocked() {
        if !pending.isEmpty { writesDropped = true }
        pending.removeAll(keepingCapacity: true)
        pendingBytes = 0
    }

    /// Notes a write dropped before it reached the buffer. `writeLock` held or not.
    func noteDroppedWrite() {
        stateLock.withLock { writesDropped = true }
    }

    /// Records a read for LRU order. `stateLock` held.
    func noteAccessLocked(_ id: Int64) {
        sequence += 1
        if !pending.isEmpty, case .put(var staged)? = pending[id] {
            staged.sequence = sequence
            pending[id] = .put(staged)
        } else {
            // Read order matters only when trimming, so it is written with the next commit that
            // trims (or on flush(), or once enough reads pile up), not after every read.
            accessed[id] = sequence
            if accessed.count >= Self.maxRecordedReads { scheduleFlushLocked() }
        }
    }

    /// How many recorded reads (about 100 bytes of memory each) make a commit worth it even
    /// with nothing to trim. Writing them holds the connection, so lookups wait meanwhile:
    /// rarely is better.
    static let maxRecordedReads = 65_536

    /// Makes sure a flush runs within `flushInterval`. `stateLock` held.
    func scheduleFlushLocked() {
        guard !flushScheduled else { return }
        flushScheduled = true
        DispatchQueue.global(qos: .utility).asyncAfter(deadline: .now() + configuration.flushInterval) { [weak self] in
            guard let self else { return }
            // Kept alive until the lock is released: if the owner let go meanwhile, the last
            // reference is dropped here, and deinit (which takes the lock to commit) runs after
            // it, not inside it, where it would wait on itself forever with the database open.
            withExtendedLifetime(self) {
                self.writeLock.withLock { _ = self.flushLocked() }
                self.scheduleSweepIfDue()
            }
        }
    }

    func report(_ event: Event) {
        configuration.onEvent?(event)
    }
}

extension DiskCache: Cache {}

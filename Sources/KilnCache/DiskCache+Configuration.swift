import Foundation

extension DiskCache {
    /// How a read of a large value checks the file it comes from. A file that fails the check
    /// is a miss and its entry is removed.
    /// How a ``DiskCache`` holds its SQLite file.
    public enum Locking: Sendable, Hashable {
        /// The cache's connection holds the file for the cache's lifetime (SQLite's exclusive
        /// locking mode) and keeps a read transaction open between lookups: the fastest reads.
        /// Use it for a folder only this app process opens, such as its Caches directory.
        case exclusive
        /// SQLite's normal locking: no lock is held between operations, and each lookup is a
        /// transaction of its own. Use it for a folder in an App Group container shared with
        /// app extensions, or any folder another process opens: iOS terminates a suspended app
        /// that holds a lock on a file in a shared container (exception `0xdead10cc`).
        ///
        /// Each process opens its own `DiskCache` on the folder. A process's writes are seen by
        /// the others from their commit on, limits count every process's entries, and nothing
        /// one process was told was stored is lost to another's sweep of leftover files: see the
        /// "Caches on a phone" article of KilnCache.
        case shared
    }

    public enum ValueVerification: Sendable, Hashable {
        /// The file has the length that was written. Catches truncated and missing files.
        case length
        /// The length, and a checksum of the first and last 4 KiB and of 32 blocks of 64 bytes
        /// spread over the rest. Catches truncation and damage to whole pages; a single flipped
        /// byte outside the samples goes unnoticed. Costs about a microsecond per value.
        case sampled
        /// The length and a checksum of every byte. Catches any damage; costs about as much as
        /// reading the file again (roughly 10 µs per 100 KB here).
        case full
    }

    /// How a ``DiskCache`` stores, limits and batches its values.
    ///
    /// ```swift
    /// var configuration = DiskCache.Configuration(directory: cachesURL.appendingPathComponent("kiln"))
    /// configuration.byteLimit = 100 * 1024 * 1024
    /// configuration.onEvent = { event in logger.notice("\(event)") }
    /// let cache = DiskCache(configuration: configuration)
    /// ```
    public struct Configuration: Sendable {
        /// The folder holding the database (`cache.sqlite`) and the value files (`Values/`).
        /// Created if missing. One `DiskCache` per folder at a time; with
        /// ``DiskCache/Locking/shared``, one in each process that opens it.
        public var directory: URL

        /// The largest total size of the stored values, in bytes; the least recently used go
        /// first when a write goes over it. `nil`: no limit.
        public var byteLimit: Int?

        /// The most entries kept. `nil`: no limit.
        public var countLimit: Int?

        /// Values larger than this many bytes go to a file of their own; smaller ones are stored
        /// in the database row.
        ///
        /// The default, 16 KiB, comes from `CacheBench`'s crossover runs (Linux, ext4, seven
        /// runs on a loaded 2-core machine): at 4 and 8 KiB rows beat files in every run, for
        /// writes (2.1x or more) and reads (1.3–3x); at 16 KiB rows still read faster in every run
        /// (1.2–2.5x) while writes went to files in five runs of seven (0.62–4.98x); from 32 KiB
        /// files won writes in six runs of seven, and from 48 KiB reads in six of seven. Rows past a few
        /// KiB spill into overflow pages and make WAL checkpoints (which `fsync`) frequent.
        public var inlineThreshold: Int

        /// How long a write may wait in memory before it is committed, in seconds.
        ///
        /// Writes are batched into one SQLite transaction: `set` returns once the value is in the
        /// write buffer (and, for a large value, once its file is in place), and the buffer is
        /// committed after this delay, when it holds ``maxPendingWrites`` entries or
        /// ``maxPendingBytes`` bytes, on ``DiskCache/flush()``, or when the cache is released.
        /// Reads see buffered writes at once. A process crash loses at most the writes of this
        /// last window.
        public var flushInterval: TimeInterval

        /// The number of buffered writes that triggers a commit.
        public var maxPendingWrites: Int

        /// The number of buffered bytes that triggers a commit.
        public var maxPendingBytes: Int

        /// How much of a value file a read checks against what was written (see
        /// ``DiskCache/ValueVerification``). The default, ``DiskCache/ValueVerification/sampled``,
        /// keeps large reads close to the cost of reading the file.
        public var valueVerification: ValueVerification

        /// Where stored dates and expiry read the date from.
        public var clock: CacheClock

        /// How the cache holds its database file: ``DiskCache/Locking/exclusive`` (the default)
        /// for a folder only this process uses, ``DiskCache/Locking/shared`` for an App Group
        /// container or any folder another process opens.
        public var locking: Locking = .exclusive

        /// How long an operation waits, in seconds, for another connection that holds the
        /// database (under ``DiskCache/Locking/shared``, another process's commit) before it
        /// tries again. An open or a commit is tried a few times; a commit still kept from the
        /// database stays buffered for the next flush (see
        /// ``DiskCache/Event/commitDelayed(writes:reason:)``), and an open makes the cache
        /// unavailable until the next use tries again.
        public var busyTimeout: TimeInterval = 2

        /// How long an unavailable database (a file that cannot be opened right now, such as a
        /// protected file on a locked device) is left alone before the next use tries to open
        /// it again. Meanwhile every read is a miss and every write is dropped.
        public var reopenInterval: TimeInterval = 5

        /// Called (on the thread that noticed) when the cache recovers from damage or drops a
        /// write; for logging. A cache never reports these as errors to its callers.
        ///
        /// It may run while the cache holds its lock: log, don't call back into the cache.
        public var onEvent: (@Sendable (DiskCache.Event) -> Void)?

        /// Creates a configuration with the defaults: no limits, 16 KiB inline threshold,
        /// writes committed within 50 ms or every 256 writes or 8 MiB.
        public init(
            directory: URL,
            byteLimit: Int? = nil,
            countLimit: Int? = nil,
            inlineThreshold: Int = 16 * 1024,
            flushInterval: TimeInterval = 0.05,
            maxPendingWrites: Int = 256,
            maxPendingBytes: Int = 8 * 1024 * 1024,
            valueVerification: ValueVerification = .sampled,
            clock: CacheClock = .system,
            onEvent: (@Sendable (DiskCache.Event) -> Void)? = nil
        ) {
            self.directory = directory
            self.byteLimit = byteLimit
            self.countLimit = countLimit
            self.inlineThreshold = inlineThreshold
            self.flushInterval = flushInterval
            self.maxPendingWrites = maxPendingWrites
            self.maxPendingBytes = maxPendingBytes
            self.valueVerification = valueVerification
            self.clock = clock
            self.onEvent = onEvent
        }
    }
}

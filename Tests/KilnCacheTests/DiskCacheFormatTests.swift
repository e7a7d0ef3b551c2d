import Foundation
import GRDB
import KilnTesting
import Testing
@testable import KilnCache

/// The database format: a file of an earlier format is discarded and the cache starts empty (a
/// cache may lose its contents, never serve a value it cannot check), and every small value is
/// checked against its checksum, with no exception for a row that has none.
struct DiskCacheFormatTests {
    private func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

    private func makeCache(_ directory: TemporaryDirectory, events: Recorder<DiskCache.Event>) -> DiskCache {
        DiskCache(configuration: .init(directory: directory.url, inlineThreshold: 1024, onEvent: { events.append($0) }))
    }

    /// Writes `cache.sqlite` as the first release of `DiskCache` did: the `entry` table alone
    /// (no `totals`, no triggers), small values inline with checksum 0, `user_version` 1.
    private func writeFirstFormat(_ directory: TemporaryDirectory, values: [CacheKey: Data]) throws {
        try FileManager.default.createDirectory(at: directory.valuesURL, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.databasePath)
        try queue.write { db in
            try db.execute(
                sql: """
                    CREATE TABLE entry (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL,
                        value BLOB,
                        file TEXT,
                        size INTEGER NOT NULL,
                        checksum INTEGER NOT NULL,
                        sample INTEGER NOT NULL,
                        storedAt DOUBLE NOT NULL,
                        expiresAt DOUBLE,
                        schemaVersion INTEGER NOT NULL,
                        metadata TEXT,
                        accessSequence INTEGER NOT NULL
                    );
                    CREATE INDEX entry_on_accessSequence ON entry(accessSequence);
                    PRAGMA user_version = 1;
                    """)
            for (sequence, (key, value)) in values.enumerated() {
                try db.execute(
                    sql: """
                        INSERT INTO entry (id, key, value, file, size, checksum, sample, storedAt, expiresAt, schemaVersion, metadata, accessSequence)
                        VALUES (?, ?, ?, NULL, ?, 0, 0, ?, NULL, 0, NULL, ?)
                        """,
                    arguments: [DiskCache.rowID(for: key), key.rawValue, value, value.count, Date().timeIntervalSinceReferenceDate, sequence + 1]
                )
            }
        }
        try queue.close()
    }

    /// Runs `sql` on the closed cache's file, as another program (or an older Kiln) would.
    private func execute(_ sql: String, in directory: TemporaryDirectory) throws {
        let queue = try DatabaseQueue(path: directory.databasePath)
        try queue.write { db in try db.execute(sql: sql) }
        try queue.close()
    }

    @Test func aDatabaseOfTheFirstFormatIsDiscardedAndTheCacheStartsEmpty() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try writeFirstFormat(directory, values: ["small": bytes(100), "other": bytes(200, 3)])

        let events = Recorder<DiskCache.Event>()
        let cache = makeCache(directory, events: events)
        #expect(cache.value(forKey: "small") == nil)
        #expect(cache.value(forKey: "other") == nil)
        #expect(cache.size().count == 0)
        expectRebuiltAndWorking(directory, events: events, cache: cache)
    }

    @Test func aDatabaseOfTheFirstFormatStaysDiscardedAfterTheRebuild() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        try writeFirstFormat(directory, values: ["small": bytes(100)])
        do {
            let cache = makeCache(directory, events: Recorder<DiskCache.Event>())
            cache.set(bytes(30), forKey: "kept")
        }

        let events = Recorder<DiskCache.Event>()
        let cache = makeCache(directory, events: events)
        #expect(cache.value(forKey: "kept") == bytes(30))
        #expect(cache.value(forKey: "small") == nil)
        #expect(events.recoveries == 0, "the rebuilt file is of the current format")
    }

    @Test func aDatabaseOfTheSecondFormatIsDiscardedToo() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let cache = makeCache(directory, events: Recorder<DiskCache.Event>())
            cache.set(bytes(100), forKey: "small")
        }
        // Format 2 had today's tables, and could hold rows upgraded from format 1 (checksum 0).
        try execute("UPDATE entry SET checksum = 0; PRAGMA user_version = 2", in: directory)

        let events = Recorder<DiskCache.Event>()
        let cache = makeCache(directory, events: events)
        #expect(cache.value(forKey: "small") == nil)
        #expect(events.recoveries == 1)
    }

    @Test func aSmallValueWithoutAChecksumIsAMiss() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let cache = makeCache(directory, events: Recorder<DiskCache.Event>())
            cache.set(bytes(100), forKey: "zeroed")
            cache.set(bytes(100, 9), forKey: "intact")
        }
        // A checksum of 0 in a file of the current format: once "no checksum", now a mismatch.
        try execute("UPDATE entry SET checksum = 0 WHERE key = 'zeroed'", in: directory)

        let events = Recorder<DiskCache.Event>()
        let cache = makeCache(directory, events: events)
        #expect(cache.value(forKey: "zeroed") == nil)
        #expect(cache.value(forKey: "intact") == bytes(100, 9))
        #expect(events.recoveries == 0, "a bad row is a miss, not a damaged database")
        #expect(events.entries.contains { if case .valueCorrupt(let key) = $0 { return key == "zeroed" } else { return false } })
        #expect(cache.size().count == 1, "the row that failed its check is removed")
    }
}

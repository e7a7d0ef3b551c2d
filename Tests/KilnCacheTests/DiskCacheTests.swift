import Foundation
import Testing
@testable import KilnCache
import KilnTesting

struct DiskCacheTests {
    private func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

    private func makeCache(
        _ directory: TemporaryDirectory,
        date: TestDate = TestDate(),
        byteLimit: Int? = nil,
        countLimit: Int? = nil,
        inlineThreshold: Int = 1024,
        events: Recorder<DiskCache.Event>? = nil
    ) -> DiskCache {
        var configuration = DiskCache.Configuration(
            directory: directory.url, byteLimit: byteLimit, countLimit: countLimit,
            inlineThreshold: inlineThreshold, clock: date.clock
        )
        if let events {
            configuration.onEvent = { events.append($0) }
        }
        return DiskCache(configuration: configuration)
    }

    @Test func valuesPersistAcrossReopening() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let date = TestDate()
        do {
            let cache = makeCache(directory, date: date)
            cache.set(bytes(100), forKey: "small", expiry: .after(3600), schemaVersion: 4, metadata: ["etag": "\"abc\"", "type": "json"])
            cache.set(bytes(5000, 9), forKey: "large", schemaVersion: 4)
        } // released: the buffer is committed
        let reopened = makeCache(directory, date: date)
        let small = reopened.entry(forKey: "small", schemaVersion: 4)
        #expect(small?.value == bytes(100))
        #expect(small?.storedAt == date.current)
        #expect(small?.expiresAt == date.current.addingTimeInterval(3600))
        #expect(small?.schemaVersion == 4)
        #expect(small?.metadata == ["etag": "\"abc\"", "type": "json"])
        #expect(reopened.value(forKey: "large", schemaVersion: 4) == bytes(5000, 9))
        #expect(reopened.size().count == 2)
        #expect(reopened.size().valueBytes == 5100)
    }

    @Test func bufferedWritesAreReadableAtOnceAndCommittedWithinTheInterval() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = DiskCache(configuration: .init(directory: directory.url, flushInterval: 0.02))
        cache.set(bytes(10), forKey: "a")
        #expect(cache.value(forKey: "a") == bytes(10))
        // Committed by the timer, not by a call.
        #expect(await eventually { cache.stateLock.withLock { cache.pending.isEmpty } })
        #expect(cache.totals.count == 1)
    }

    @Test func smallValuesStayInlineAndLargeOnesGoToHashNamedFiles() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory, inlineThreshold: 1024)
        cache.set(bytes(1024), forKey: "at-threshold")
        cache.set(bytes(1025, 3), forKey: "above-threshold")
        cache.flush()
        let files = directory.valueFiles()
        #expect(files.count == 1)
        #expect(files.first?.hasPrefix(ValueFiles.prefix(for: "above-threshold") + ".") == true)
        let onDisk = try Data(contentsOf: directory.valueFile(for: "above-threshold"))
        #expect(onDisk == bytes(1025, 3))
        #expect(cache.value(forKey: "at-threshold") == bytes(1024))
        #expect(cache.value(forKey: "above-threshold") == bytes(1025, 3))
    }

    @Test func replacingAFileValueWithAnInlineOneDeletesTheFile() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        cache.set(bytes(4000), forKey: "k")
        cache.flush()
        #expect(directory.valueFiles().count == 1)
        cache.set(bytes(10), forKey: "k")
        cache.flush()
        #expect(directory.valueFiles().isEmpty)
        #expect(cache.value(forKey: "k") == bytes(10))
    }

    @Test func countLimitTrimsLeastRecentlyUsed() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory, countLimit: 3)
        for key in ["a", "b", "c"] { cache.set(bytes(10), forKey: CacheKey(key)) }
        cache.flush()
        _ = cache.value(forKey: "a") // b is now the least recently used
        cache.flush()
        cache.set(bytes(10), forKey: "d")
        cache.flush()
        #expect(cache.value(forKey: "b") == nil)
        for key in ["a", "c", "d"] { #expect(cache.value(forKey: CacheKey(key)) != nil) }
        #expect(cache.size().count == 3)
    }

    @Test func byteLimitTrimsLeastRecentlyUsedAndTheirFiles() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory, byteLimit: 10_000, inlineThreshold: 1024)
        for index in 0..<5 { cache.set(bytes(3000), forKey: CacheKey("file\(index)")) }
        cache.flush()
        let size = cache.size()
        #expect(size.count == 3)
        #expect(size.valueBytes == 9000)
        #expect(cache.value(forKey: "file0") == nil)
        #expect(cache.value(forKey: "file1") == nil)
        #expect(cache.value(forKey: "file4") == bytes(3000))
        #expect(directory.valueFiles().count == 3)
    }

    @Test func trimmingHoldsAfterReopening() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let cache = makeCache(directory)
            for index in 0..<10 { cache.set(bytes(100), forKey: CacheKey("k\(index)")) }
        }
        let cache = makeCache(directory, countLimit: 4)
        cache.set(bytes(100), forKey: "new")
        cache.flush()
        #expect(cache.size().count == 4)
        #expect(cache.value(forKey: "k0") == nil)
        #expect(cache.value(forKey: "k9") != nil)
        #expect(cache.value(forKey: "new") != nil)
    }

    @Test func expiredEntriesAreMisses() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let date = TestDate()
        let cache = makeCache(directory, date: date)
        cache.set(bytes(10), forKey: "soon", expiry: .after(60))
        cache.set(bytes(5000), forKey: "soon-large", expiry: .after(60))
        cache.set(bytes(10), forKey: "later", expiry: .after(600))
        #expect(cache.value(forKey: "soon") != nil) // from the buffer
        cache.flush()
        date.advance(by: 60)
        #expect(cache.value(forKey: "soon") == nil)
        #expect(cache.value(forKey: "soon-large") == nil)
        #expect(cache.value(forKey: "later") != nil)
        date.advance(by: 1000)
        #expect(cache.value(forKey: "later") == nil)
        cache.set(bytes(10), forKey: "forever")
        cache.removeExpired()
        #expect(cache.size().count == 1)
        #expect(directory.valueFiles().isEmpty)
        #expect(cache.value(forKey: "forever") == bytes(10))
    }

    @Test func otherSchemaVersionIsAMiss() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let cache = makeCache(directory)
            cache.set(bytes(10), forKey: "a", schemaVersion: 1)
            #expect(cache.value(forKey: "a", schemaVersion: 2) == nil)
        }
        let cache = makeCache(directory)
        #expect(cache.value(forKey: "a", schemaVersion: 2) == nil)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "a", schemaVersion: 1) == bytes(10))
    }

    @Test func removeAllRemovePrefixAndRemoveKey() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = makeCache(directory)
        cache.set(bytes(10), forKey: "GET /a?page=1")
        cache.set(bytes(5000), forKey: "GET /a?page=2")
        cache.set(bytes(10), forKey: "GET /b")
        cache.set(bytes(10), forKey: "POST /a")
        cache.remove(prefix: "GET /a")
        #expect(cache.value(forKey: "GET /a?page=1") == nil)
        #expect(cache.value(forKey: "GET /a?page=2") == nil)
        #expect(directory.valueFiles().isEmpty)
        #expect(cache.size().count == 2)
        cache.remove(forKey: "GET /b")
        #expect(cache.value(forKey: "GET /b") == nil)
        #expect(cache.size().count == 1)
        cache.set(bytes(5000), forKey: "big")
        cache.removeAll()
        #expect(cache.size() == DiskCache.Size(count: 0, valueBytes: 0, databaseBytes: cache.size().databaseBytes))
        #expect(directory.valueFiles().isEmpty)
        cache.set(bytes(3), forKey: "again")
        #expect(cache.value(forKey: "again") == bytes(3))
    }

    /// Lookups keep a read transaction open between calls (see `DiskCache.Connection`); every
    /// commit must still land, be seen by the next lookup, and survive reopening.
    @Test func lookupsBetweenCommitsSeeEachCommitAndNothingIsLost() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        do {
            let cache = makeCache(directory)
            for round in 0..<50 {
                let fill = UInt8(round)
                cache.set(bytes(100, fill), forKey: CacheKey("k\(round % 5)"))
                cache.set(bytes(10, fill), forKey: "gone")
                cache.flush()
                // Read from the database, not the buffer.
                #expect(cache.stateLock.withLock { cache.pending.isEmpty })
                #expect(cache.value(forKey: CacheKey("k\(round % 5)")) == bytes(100, fill))
                #expect(cache.entry(forKey: "gone")?.value == bytes(10, fill))
                cache.remove(forKey: "gone")
                cache.flush()
                #expect(cache.value(forKey: "gone") == nil)
            }
            #expect(cache.value(forKey: "k0") != nil)
            cache.remove(prefix: "k0")
            #expect(cache.value(forKey: "k0") == nil)
            #expect(cache.value(forKey: "k1") == bytes(100, 46))
            // A write made while a lookup's transaction is open is committed by flush().
            let connection = try #require(cache.database)
            #expect(connection.isInReadTransaction)
            cache.set(bytes(100, 99), forKey: "last")
            cache.flush()
        }
        let reopened = makeCache(directory)
        #expect(reopened.value(forKey: "last") == bytes(100, 99))
        #expect(reopened.value(forKey: "k1") == bytes(100, 46))
        #expect(reopened.value(forKey: "k4") == bytes(100, 49))
        #expect(reopened.value(forKey: "k0") == nil)
        #expect(reopened.value(forKey: "gone") == nil)
        #expect(reopened.size().count == 5)
    }

    /// A cache released while its timer is committing the buffer is closed by the timer's
    /// thread (once it has let go of the cache's lock), so the folder can be opened again.
    @Test func releasingACacheWhileItsTimerCommitsClosesTheDatabase() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        for round in 0..<100 {
            do {
                let cache = DiskCache(configuration: .init(directory: directory.url, flushInterval: 0))
                for index in 0..<200 { cache.set(bytes(200, UInt8(round)), forKey: CacheKey("k\(index)")) }
            } // released, most often while the timer's commit runs
            let events = Recorder<DiskCache.Event>()
            var configuration = DiskCache.Configuration(directory: directory.url)
            configuration.onEvent = { events.append($0) }
            var reopened: DiskCache? = DiskCache(configuration: configuration)
            try #require(events.entries.isEmpty, "round \(round): \(events.entries)")
            #expect(reopened?.value(forKey: "k0") == bytes(200, UInt8(round)))
            reopened = nil
        }
    }

    @Test func worksThroughTheAsyncCacheProtocol() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache: any Cache = makeCache(directory)
        await cache.set(bytes(8), forKey: "a", expiry: .never, schemaVersion: 1, metadata: ["m": "1"])
        #expect(await cache.entry(forKey: "a", schemaVersion: 1)?.metadata == ["m": "1"])
        #expect(await cache.value(forKey: "a", schemaVersion: 1) == Data(repeating: 7, count: 8))
        await cache.removeAll()
        #expect(await cache.value(forKey: "a", schemaVersion: 1) == nil)
    }

    @Test func twentyTasksWritingAndReadingTheSameKeysLoseNothing() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let keys = (0..<10).map { CacheKey("shared/\($0)") }
        do {
            let cache = makeCache(directory, inlineThreshold: 2048)
            let bad = await withTaskGroup(of: Int.self) { group in
                for writer in 0..<20 {
                    group.addTask {
                        var bad = 0
                        for round in 0..<60 {
                            let key = keys[(writer + round) % keys.count]
                            // Sizes on both sides of the inline threshold.
                            let count = round % 3 == 0 ? 3000 + writer * 10 : 50 + round
                            cache.set(SelfCheckingValue.make(seed: UInt64(writer * 10_000 + round), count: count), forKey: key)
                            if let value = cache.value(forKey: keys[(writer * 7 + round) % keys.count]),
                                !SelfCheckingValue.isIntact(value)
                            {
                                bad += 1
                            }
                            if round % 20 == 0 { cache.flush() }
                        }
                        return bad
                    }
                }
                return await group.reduce(0, +)
            }
            #expect(bad == 0)
            for key in keys { #expect(cache.value(forKey: key).map(SelfCheckingValue.isIntact) == true) }
        }
        let reopened = makeCache(directory, inlineThreshold: 2048)
        for key in keys { #expect(reopened.value(forKey: key).map(SelfCheckingValue.isIntact) == true) }
        #expect(reopened.size().count == keys.count)
    }
}

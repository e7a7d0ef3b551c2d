import Foundation
import GRDB
import KilnTesting
import Testing
@testable import KilnCache

/// Value files no entry names are left alone when a cache opens and swept in the background
/// once older than the grace period; a commit whose file was swept writes it again; the totals
/// that limits use count every cache sharing the folder.
@Suite("DiskCache: sweeping value files, shared totals")
struct DiskCacheSweepTests {
    private func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

    private func configuration(
        _ directory: TemporaryDirectory, date: TestDate = TestDate(), byteLimit: Int? = nil,
        onEvent: (@Sendable (DiskCache.Event) -> Void)? = nil
    ) -> DiskCache.Configuration {
        var configuration = DiskCache.Configuration(
            directory: directory.url, byteLimit: byteLimit, inlineThreshold: 1024, clock: date.clock, onEvent: onEvent
        )
        configuration.locking = .shared
        return configuration
    }

    @Test(.timeLimit(.minutes(1)))
    func filesNoEntryNamesAreKeptAtOpenAndSweptInTheBackgroundOnceOlderThanTheGracePeriod() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        // The test clock starts at the real date: the files' modification dates are real.
        let date = TestDate(Date())
        do {
            let cache = DiskCache(configuration: configuration(directory, date: date))
            cache.set(bytes(5000), forKey: "committed")
        }
        let committed = try directory.valueFile(for: "committed").lastPathComponent
        let orphan = ValueFiles.newName(for: "crashed")
        let temporary = orphan + ".tmp-abc"
        let young = ValueFiles.newName(for: "about-to-commit")
        for name in [orphan, temporary, young] {
            try bytes(3000).write(to: directory.valuesURL.appendingPathComponent(name))
        }

        let (events, event) = AsyncStream<DiskCache.Event>.makeStream()
        let cache = DiskCache(configuration: configuration(directory, date: date, onEvent: { event.yield($0) }))
        #expect(Set(directory.valueFiles()) == [committed, orphan, temporary, young], "nothing swept at open")

        date.advance(by: DiskCache.orphanGracePeriod + 60)
        // Written a moment ago, as far as the clock goes: another process's write on its way.
        try FileManager.default.setAttributes(
            [.modificationDate: date.current], ofItemAtPath: directory.valuesURL.appendingPathComponent(young).path
        )
        cache.set(bytes(10), forKey: "small")
        cache.flush() // a commit that finds a sweep due starts it
        for await reported in events {
            #expect(reported == .orphanedValueFilesRemoved(count: 2))
            break
        }
        #expect(Set(directory.valueFiles()) == [committed, young])
        #expect(cache.value(forKey: "committed") == bytes(5000))

        // Once per grace period for the folder, whichever cache asks.
        try bytes(3000).write(to: directory.valuesURL.appendingPathComponent(orphan))
        let other = DiskCache(configuration: configuration(directory, date: date))
        other.sweepOrphanedFiles()
        #expect(directory.valueFiles().contains(orphan))
    }

    @Test func aCommitWhoseFileWasSweptWritesItAgain() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(configuration: configuration(directory, onEvent: { events.append($0) }))
        cache.set(bytes(5000, 3), forKey: "slow")
        // What a sweep does to a file that waited longer than the grace period for its commit.
        try FileManager.default.removeItem(at: directory.valueFile(for: "slow"))
        cache.flush()

        let reopened = DiskCache(configuration: configuration(directory, onEvent: { events.append($0) }))
        #expect(reopened.value(forKey: "slow") == bytes(5000, 3))
        #expect(directory.valueFiles().count == 1)
        #expect(events.entries.isEmpty, "\(events.entries)")
    }

    @Test func limitsCountTheEntriesOfEveryCacheSharingTheFolder() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let app = DiskCache(configuration: configuration(directory, byteLimit: 10_000))
        let widget = DiskCache(configuration: configuration(directory, byteLimit: 10_000))
        for index in 0..<6 { app.set(bytes(1500), forKey: CacheKey("app-\(index)")) }
        app.flush()
        for index in 0..<6 { widget.set(bytes(1500), forKey: CacheKey("widget-\(index)")) }
        widget.set(bytes(500), forKey: "app-0") // a replacement changes the size of a row
        widget.flush()

        let size = app.size()
        #expect(size.valueBytes <= 10_000)
        #expect(size == widget.size())
        let counted = try #require(app.database).read { db in
            try Row.fetchOne(db, sql: "SELECT count(*), total(size) FROM entry")
        }
        #expect(counted?[0] == size.count)
        #expect(counted?[1] == Double(size.valueBytes))
        #expect(widget.value(forKey: "widget-5") == bytes(1500), "the newest are kept")

        widget.removeAll()
        #expect(app.size().count == 0)
        #expect(directory.valueFiles().isEmpty)
    }
}

import Foundation
import KilnTesting
import Testing
@testable import KilnCache

/// What a cache must do on a phone: share a folder with app extensions without holding a lock,
/// and give memory back when asked.
@Suite("Caches on a phone")
struct DiskCacheOnAPhoneTests {
    @Test func sharedLockingLetsAnotherCacheUseTheFolderAndHoldsNoLockBetweenReads() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        var configuration = DiskCache.Configuration(directory: directory.url)
        configuration.locking = .shared
        let app = DiskCache(configuration: configuration)
        app.set(Data("from the app".utf8), forKey: "greeting")
        app.flush()
        #expect(app.value(forKey: "greeting") == Data("from the app".utf8))
        #expect(app.database?.isInReadTransaction == false, "no transaction, so no lock, between reads")

        // An app extension opening the same folder, while the app's cache is alive.
        let events = Recorder<DiskCache.Event>()
        configuration.onEvent = { events.append($0) }
        let widget = DiskCache(configuration: configuration)
        #expect(widget.value(forKey: "greeting") == Data("from the app".utf8))
        #expect(events.entries.isEmpty, "\(events.entries)")
    }

    @Test func exclusiveLockingKeepsTheFolderToOneCache() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let app = DiskCache(configuration: .init(directory: directory.url))
        app.set(Data("mine".utf8), forKey: "k")
        app.flush()
        #expect(app.value(forKey: "k") == Data("mine".utf8))
        #expect(app.database?.isInReadTransaction == true, "the fast path keeps its read transaction")
        let events = Recorder<DiskCache.Event>()
        let other = DiskCache(configuration: .init(directory: directory.url, onEvent: { events.append($0) }))
        #expect(other.value(forKey: "k") == nil)
        #expect(events.entries.contains { if case .databaseUnavailable = $0 { true } else { false } }, "\(events.entries)")
        #expect(!FileManager.default.fileExists(atPath: directory.brokenURL.path), "a busy file is not damage")
    }

    @Test func aMemoryWarningEmptiesTheMemoryCacheAndTheDiskCacheKeepsItsEntries() {
        let warning = Notification.Name("KilnTestMemoryWarning")
        let memory = MemoryCache()
        memory.set(Data("hot".utf8), forKey: "k")
        let observer = MemoryPressureObserver(listeningFor: warning) { memory.releaseMemory() }
        NotificationCenter.default.post(name: warning, object: nil)
        #expect(memory.count == 0)
        withExtendedLifetime(observer) {}

        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let disk = DiskCache(configuration: .init(directory: directory.url))
        disk.set(Data("kept".utf8), forKey: "k")
        disk.releaseMemory()
        #expect(disk.stateLock.withLock { disk.pending.isEmpty }, "the write buffer was committed")
        #expect(disk.value(forKey: "k") == Data("kept".utf8))
    }

    @Test func observersListenOnlyForUIKitsWarning() {
        #if canImport(UIKit)
        #expect(MemoryPressureObserver.platformNotification == MemoryPressureObserver.memoryWarning)
        #else
        #expect(MemoryPressureObserver.platformNotification == nil)
        #endif
    }
}

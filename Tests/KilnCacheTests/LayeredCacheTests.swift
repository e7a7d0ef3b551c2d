import Foundation
import Testing
import KilnCache

struct LayeredCacheTests {
    private func bytes(_ count: Int, _ fill: UInt8 = 7) -> Data { Data(repeating: fill, count: count) }

    @Test func writesGoToBothLayersAndSurviveRelaunch() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let date = TestDate()
        do {
            let cache = LayeredCache(memory: MemoryCache(clock: date.clock), disk: DiskCache(directory: directory.url, clock: date.clock))
            await cache.set(bytes(10), forKey: "a", expiry: .after(60), schemaVersion: 2, metadata: ["etag": "e"])
            #expect(cache.memory.value(forKey: "a", schemaVersion: 2) == bytes(10))
            #expect(cache.disk.value(forKey: "a", schemaVersion: 2) == bytes(10))
        }
        let relaunched = LayeredCache(memory: MemoryCache(clock: date.clock), disk: DiskCache(directory: directory.url, clock: date.clock))
        let entry = await relaunched.entry(forKey: "a", schemaVersion: 2)
        #expect(
            entry
                == CacheEntry(
                    key: "a", value: bytes(10), storedAt: date.current, expiresAt: date.current.addingTimeInterval(60),
                    schemaVersion: 2, metadata: ["etag": "e"]
                ))
        // The disk hit was promoted to memory with its dates.
        #expect(relaunched.memory.entry(forKey: "a", schemaVersion: 2) == entry)
        date.advance(by: 60)
        #expect(await relaunched.value(forKey: "a", schemaVersion: 2) == nil)
    }

    @Test func memoryMissFallsBackToDisk() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache = LayeredCache(memory: MemoryCache(countLimit: 1), disk: DiskCache(directory: directory.url))
        await cache.set(bytes(1), forKey: "a")
        await cache.set(bytes(2), forKey: "b") // pushes a out of memory
        #expect(cache.memory.value(forKey: "a") == nil)
        #expect(await cache.value(forKey: "a") == bytes(1))
    }

    @Test func removalsReachBothLayers() async {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let cache: any Cache = LayeredCache(disk: DiskCache(directory: directory.url))
        await cache.set(bytes(1), forKey: "a", expiry: .never, schemaVersion: 0, metadata: [:])
        await cache.set(bytes(1), forKey: "b", expiry: .never, schemaVersion: 0, metadata: [:])
        await cache.remove(forKey: "a")
        #expect(await cache.value(forKey: "a", schemaVersion: 0) == nil)
        await cache.removeAll()
        #expect(await cache.value(forKey: "b", schemaVersion: 0) == nil)
    }
}

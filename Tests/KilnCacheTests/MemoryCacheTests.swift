import Foundation
import Testing
import KilnCache

struct MemoryCacheTests {
    private func bytes(_ count: Int, _ fill: UInt8 = 1) -> Data { Data(repeating: fill, count: count) }

    @Test func storesAndReturnsEntriesWithTheirFields() {
        let date = TestDate()
        let cache = MemoryCache(clock: date.clock)
        cache.set(bytes(3), forKey: "a", expiry: .after(10), schemaVersion: 2, metadata: ["etag": "x"])
        let entry = cache.entry(forKey: "a", schemaVersion: 2)
        #expect(entry?.value == bytes(3))
        #expect(entry?.storedAt == date.current)
        #expect(entry?.expiresAt == date.current.addingTimeInterval(10))
        #expect(entry?.metadata == ["etag": "x"])
        #expect(cache.value(forKey: "missing") == nil)
    }

    @Test func countLimitEvictsLeastRecentlyUsed() {
        let cache = MemoryCache(countLimit: 3)
        cache.set(bytes(1), forKey: "a")
        cache.set(bytes(1), forKey: "b")
        cache.set(bytes(1), forKey: "c")
        _ = cache.value(forKey: "a") // b is now the least recently used
        cache.set(bytes(1), forKey: "d")
        #expect(cache.value(forKey: "b") == nil)
        #expect(cache.value(forKey: "a") != nil)
        #expect(cache.value(forKey: "c") != nil)
        #expect(cache.value(forKey: "d") != nil)
        #expect(cache.count == 3)
    }

    @Test func costLimitEvictsUntilTotalFits() {
        let cache = MemoryCache(costLimit: 100)
        cache.set(bytes(40), forKey: "a")
        cache.set(bytes(40), forKey: "b")
        cache.set(bytes(40), forKey: "c") // 120 > 100: a goes
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.totalCost == 80)
        cache.set(bytes(1), forKey: "d", cost: 90) // b and c go
        #expect(cache.count == 1)
        #expect(cache.totalCost == 90)
    }

    @Test func valueCostlierThanTheLimitIsNotKeptAndDropsTheOldOne() {
        let cache = MemoryCache(costLimit: 10)
        cache.set(bytes(5), forKey: "a")
        cache.set(bytes(11), forKey: "a")
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.totalCost == 0)
    }

    @Test func replacingAValueUpdatesTheCost() {
        let cache = MemoryCache()
        cache.set(bytes(10), forKey: "a")
        cache.set(bytes(4), forKey: "a")
        #expect(cache.totalCost == 4)
        #expect(cache.count == 1)
    }

    @Test func expiredEntriesAreMissesAndRemoved() {
        let date = TestDate()
        let cache = MemoryCache(clock: date.clock)
        cache.set(bytes(1), forKey: "short", expiry: .after(5))
        cache.set(bytes(1), forKey: "fixed", expiry: .at(date.current.addingTimeInterval(20)))
        cache.set(bytes(1), forKey: "forever")
        date.advance(by: 5)
        #expect(cache.value(forKey: "short") == nil)
        #expect(cache.value(forKey: "fixed") != nil)
        date.advance(by: 15)
        cache.removeExpired()
        #expect(cache.count == 1)
        #expect(cache.value(forKey: "forever") != nil)
    }

    @Test func otherSchemaVersionIsAMiss() {
        let cache = MemoryCache()
        cache.set(bytes(1), forKey: "a", schemaVersion: 1)
        #expect(cache.value(forKey: "a", schemaVersion: 2) == nil)
        #expect(cache.value(forKey: "a") == nil)
        #expect(cache.value(forKey: "a", schemaVersion: 1) != nil)
    }

    @Test func removeByKeyPrefixAndAll() {
        let cache = MemoryCache()
        for key in ["GET /a?1", "GET /a?2", "GET /b"] { cache.set(bytes(1), forKey: CacheKey(key)) }
        cache.remove(prefix: "GET /a")
        #expect(cache.count == 1)
        cache.remove(forKey: "GET /b")
        #expect(cache.count == 0)
        cache.set(bytes(1), forKey: "x")
        cache.removeAll()
        #expect(cache.value(forKey: "x") == nil)
        cache.set(bytes(2), forKey: "y")
        #expect(cache.value(forKey: "y") == bytes(2))
    }

    @Test func worksThroughTheAsyncCacheProtocol() async {
        let cache: any Cache = MemoryCache()
        await cache.set(bytes(2), forKey: "a", expiry: .never, schemaVersion: 3, metadata: [:])
        #expect(await cache.value(forKey: "a", schemaVersion: 3) == bytes(2))
        await cache.remove(forKey: "a")
        #expect(await cache.entry(forKey: "a", schemaVersion: 3) == nil)
    }

    @Test func manyTasksAtOnceNeverSeeTornValues() async {
        let cache = MemoryCache(countLimit: 50)
        let keys = (0..<20).map { CacheKey("k\($0)") }
        let bad = await withTaskGroup(of: Int.self) { group in
            for writer in 0..<20 {
                group.addTask {
                    var bad = 0
                    for round in 0..<500 {
                        let key = keys[(writer + round) % keys.count]
                        cache.set(SelfCheckingValue.make(seed: UInt64(writer * 1000 + round), count: 16 + round % 64), forKey: key)
                        if let value = cache.value(forKey: keys[round % keys.count]), !SelfCheckingValue.isIntact(value) { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(bad == 0)
        #expect(cache.count == 20)
        for key in keys { #expect(cache.value(forKey: key).map(SelfCheckingValue.isIntact) == true) }
    }
}

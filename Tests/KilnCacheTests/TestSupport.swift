import Foundation
import KilnSupport
import KilnTesting
import Testing
@testable import KilnCache

/// A date a test moves by hand, read by a ``CacheClock``.
final class TestDate: Sendable {
    private let date: LockedValue<Date>

    init(_ date: Date = Date(timeIntervalSinceReferenceDate: 800_000_000)) {
        self.date = LockedValue(date)
    }

    var current: Date {
        date.current
    }

    func advance(by seconds: TimeInterval) {
        date.withLock { $0 = $0.addingTimeInterval(seconds) }
    }

    var clock: CacheClock {
        CacheClock { [self] in current }
    }
}

extension Recorder<DiskCache.Event> {
    /// How many times the cache moved its database aside.
    var recoveries: Int {
        entries.filter { if case .databaseRecovered = $0 { return true } else { return false } }.count
    }
}

/// Expects `cache` to have moved its database aside once (kept in `Broken`) and to work as a new
/// cache: a small and a large value written now are read back.
func expectRebuiltAndWorking(_ directory: TemporaryDirectory, events: Recorder<DiskCache.Event>, cache: DiskCache) {
    let small = Data(repeating: 20, count: 20)
    let large = Data(repeating: 30, count: 3000)
    #expect(events.recoveries == 1)
    #expect(FileManager.default.fileExists(atPath: directory.brokenURL.appendingPathComponent("cache.sqlite").path))
    cache.set(small, forKey: "after")
    cache.set(large, forKey: "after-large")
    cache.flush()
    #expect(cache.value(forKey: "after") == small)
    #expect(cache.value(forKey: "after-large") == large)
    #expect(cache.size().count == 2)
}

/// A fresh folder under the temporary directory, removed by `remove()`.
struct TemporaryDirectory {
    let url: URL

    init() {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiln-cache-tests-\(UUID().uuidString)", isDirectory: true)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }

    var databasePath: String { url.appendingPathComponent("cache.sqlite").path }
    var valuesURL: URL { url.appendingPathComponent("Values", isDirectory: true) }
    var brokenURL: URL { url.appendingPathComponent("Broken", isDirectory: true) }

    func valueFiles() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: valuesURL.path)) ?? []).sorted()
    }

    /// The value file holding `key`'s value (names are the key's hash and a random suffix).
    func valueFile(for key: CacheKey) throws -> URL {
        let prefix = ValueFiles.prefix(for: key) + "."
        let names = valueFiles().filter { $0.hasPrefix(prefix) }
        try #require(names.count == 1, "expected one value file for \(key), found \(names)")
        return valuesURL.appendingPathComponent(names[0])
    }
}

/// Deterministic bytes that carry what is needed to check them: an 16-byte header (seed and
/// length) followed by bytes generated from the seed. A torn or mixed-up value fails `isIntact`.
enum SelfCheckingValue {
    static func make(seed: UInt64, count: Int) -> Data {
        let count = max(16, count)
        var data = Data(capacity: count)
        withUnsafeBytes(of: seed.littleEndian) { data.append(contentsOf: $0) }
        withUnsafeBytes(of: UInt64(count).littleEndian) { data.append(contentsOf: $0) }
        var state = seed
        while data.count < count {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            data.append(UInt8(truncatingIfNeeded: state >> 33))
        }
        return data
    }

    static func isIntact(_ data: Data) -> Bool {
        guard data.count >= 16 else { return false }
        let seed = data.prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        let count = data.dropFirst(8).prefix(8).withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        return UInt64(data.count) == count && make(seed: seed, count: Int(count)) == data
    }
}

/// This test binary, run again as a child process that runs one test: how the tests put a
/// second process (another user, an app extension) on a cache folder.
enum TestBinary {
    static var path: String { CommandLine.arguments[0] }

    /// The arguments that make the binary run only the test named `test`.
    static func arguments(running test: String) -> [String] {
        ["--testing-library", "swift-testing", "--filter", test]
    }
}

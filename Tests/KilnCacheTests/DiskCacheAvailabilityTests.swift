import Foundation
import KilnSupport
import KilnTesting
import Testing
@testable import KilnCache

/// Unavailable is not damaged: a file that cannot be read right now (permissions, protected data
/// on a locked phone) is left alone, the cache misses meanwhile, and every entry is back once it
/// can be read. Damage proven by the bytes (a changed byte in a small value) is a miss too,
/// never the wrong bytes. One oversized value is refused without emptying the cache.
@Suite("DiskCache: unavailable, damaged, oversized")
struct DiskCacheAvailabilityTests {
    static let keys: [CacheKey] = ["small", "large"]
    static let small = Data("a small value, stored in its database row".utf8)
    static let large = Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 31) })

    /// A cache folder every user may enter and write, filled with one small and one large value.
    static func filledFolder() throws -> TemporaryDirectory {
        let directory = TemporaryDirectory()
        do {
            let cache = DiskCache(configuration: .init(directory: directory.url, inlineThreshold: 1024))
            cache.set(small, forKey: "small")
            cache.set(large, forKey: "large")
            cache.flush()
        }
        for path in [directory.url.path, directory.valuesURL.path] { chmod(path, 0o777) }
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.url.path) where name != "Values" {
            chmod(directory.url.appendingPathComponent(name).path, 0o666)
        }
        for name in directory.valueFiles() { chmod(directory.valuesURL.appendingPathComponent(name).path, 0o666) }
        return directory
    }

    // MARK: Permissions, as a user they apply to

    @Test(.enabled(if: Probe.canRun, "permissions need a non-root user: run as one, or as root with setpriv"))
    func anUnreadableDatabaseIsAMissOnlyCacheAndEveryEntryComesBack() async throws {
        let directory = try Self.filledFolder()
        defer { directory.remove() }
        chmod(directory.databasePath, 0)

        let locked = try await Probe.run(directory)
        #expect(locked.hits.isEmpty, "misses while the file cannot be read: \(locked)")
        #expect(locked.events.contains { $0.hasPrefix("cache database unavailable") }, "\(locked.events)")
        #expect(!FileManager.default.fileExists(atPath: directory.brokenURL.path), "nothing moved aside")
        #expect(directory.valueFiles().count == 1, "no value file deleted")

        chmod(directory.databasePath, 0o666)
        let unlocked = try await Probe.run(directory)
        #expect(unlocked.hits == ["small": Self.small.count, "large": Self.large.count], "\(unlocked)")
        #expect(unlocked.events.isEmpty, "\(unlocked.events)")
    }

    @Test(.enabled(if: Probe.canRun, "permissions need a non-root user: run as one, or as root with setpriv"))
    func anUnreadableValueFileIsAMissAndIsKept() async throws {
        let directory = try Self.filledFolder()
        defer { directory.remove() }
        let file = try directory.valueFile(for: "large")
        chmod(file.path, 0)

        let locked = try await Probe.run(directory)
        #expect(locked.hits == ["small": Self.small.count], "\(locked)")
        #expect(locked.events == ["cache value file unreadable for large; a miss, entry kept"])
        #expect(FileManager.default.fileExists(atPath: file.path))

        chmod(file.path, 0o666)
        let unlocked = try await Probe.run(directory)
        #expect(unlocked.hits == ["small": Self.small.count, "large": Self.large.count], "\(unlocked)")
    }

    /// Not a test of its own: the other user's side of the permission tests, run by `Probe.run`
    /// as that user. It opens the folder it is given, reads every key and writes what it found.
    @Test(.enabled(if: ProcessInfo.processInfo.environment[Probe.folderVariable] != nil, "runs only as the permission tests' probe"))
    func permissionProbe() throws {
        let environment = ProcessInfo.processInfo.environment
        let folder = try #require(environment[Probe.folderVariable])
        let output = try #require(environment[Probe.outputVariable])
        let result = Probe.read(URL(fileURLWithPath: folder))
        try JSONEncoder().encode(result).write(to: URL(fileURLWithPath: output))
    }

    // MARK: The same cache, once the file is back

    @Test func theSameCacheOpensItsDatabaseAgainOnceItCanAndKeepsEveryEntry() throws {
        let directory = try Self.filledFolder()
        defer { directory.remove() }
        // A folder where the database should be: no user can open it, root included.
        let away = directory.url.appendingPathComponent("cache.sqlite.away")
        try FileManager.default.moveItem(atPath: directory.databasePath, toPath: away.path)
        try FileManager.default.createDirectory(atPath: directory.databasePath, withIntermediateDirectories: false)

        let date = TestDate()
        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(
            configuration: .init(
                directory: directory.url, inlineThreshold: 1024, clock: date.clock, onEvent: { events.append($0) }))
        #expect(cache.value(forKey: "small") == nil)
        cache.set(Data("dropped".utf8), forKey: "while-unavailable")
        #expect(events.entries.count == 1)
        guard case .databaseUnavailable? = events.entries.first else {
            Issue.record("expected databaseUnavailable, got \(events.entries)")
            return
        }

        try FileManager.default.removeItem(atPath: directory.databasePath)
        try FileManager.default.moveItem(atPath: away.path, toPath: directory.databasePath)
        #expect(cache.value(forKey: "small") == nil, "not tried again before the interval")
        date.advance(by: cache.configuration.reopenInterval)
        #expect(cache.value(forKey: "small") == Self.small)
        #expect(cache.value(forKey: "large") == Self.large)
        #expect(cache.value(forKey: "while-unavailable") == nil)
        #expect(events.entries.last == .databaseAvailable)
        #expect(!FileManager.default.fileExists(atPath: directory.brokenURL.path))
    }

    // MARK: Bytes

    @Test func aChangedByteInASmallValueIsAMissNotTheWrongBytes() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let value = Data("kiln-inline-\(UUID().uuidString)-value".utf8)
        do {
            let cache = DiskCache(configuration: .init(directory: directory.url, inlineThreshold: 1024))
            cache.set(value, forKey: "small")
            cache.set(Data("untouched".utf8), forKey: "other")
            cache.flush()
        }
        // Change one byte of the value where SQLite keeps it, as a failing disk would.
        var changed = 0
        for path in [directory.databasePath, directory.databasePath + "-wal"] where FileManager.default.fileExists(atPath: path) {
            var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            if let range = bytes.firstRange(of: value) {
                bytes[range.lowerBound + 5] ^= 0x01
                try bytes.write(to: URL(fileURLWithPath: path))
                changed += 1
            }
        }
        try #require(changed == 1, "the value was found in the database files")

        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(configuration: .init(directory: directory.url, inlineThreshold: 1024, onEvent: { events.append($0) }))
        #expect(cache.value(forKey: "small") == nil)
        #expect(events.entries == [.valueCorrupt(key: "small")])
        #expect(cache.value(forKey: "other") == Data("untouched".utf8))
        #expect(cache.size().count == 1, "the damaged entry was removed")
    }

    @Test func aValueOverTheByteLimitIsRefusedAndTheRestIsKept() {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(
            configuration: .init(
                directory: directory.url, byteLimit: 10_000, inlineThreshold: 1024, onEvent: { events.append($0) }))
        for index in 0..<5 { cache.set(Data(repeating: UInt8(index), count: 1000), forKey: CacheKey("k\(index)")) }
        cache.set(Data(repeating: 1, count: 50), forKey: "huge")
        cache.flush()
        cache.set(Data(repeating: 9, count: 10_001), forKey: "huge")
        cache.flush()
        #expect(cache.value(forKey: "huge") == nil, "refused, and its older value is gone too")
        #expect((0..<5).allSatisfy { cache.value(forKey: CacheKey("k\($0)")) == Data(repeating: UInt8($0), count: 1000) })
        #expect(cache.size().count == 5)
        #expect(events.entries == [.valueTooLarge(key: "huge", bytes: 10_001)])
    }
}

/// Runs ``DiskCacheAvailabilityTests/permissionProbe()`` as a user that file permissions apply
/// to: this process when it is not root, or this test binary again under `setpriv` as `nobody`.
enum Probe {
    static let folderVariable = "KILN_CACHE_PROBE_FOLDER"
    static let outputVariable = "KILN_CACHE_PROBE_OUTPUT"
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static var canRun: Bool { getuid() != 0 || setpriv != nil }

    struct Result: Codable, CustomStringConvertible {
        var hits: [String: Int]
        var events: [String]
        var description: String { "hits \(hits), events \(events)" }
    }

    static func read(_ folder: URL) -> Result {
        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(configuration: .init(directory: folder, inlineThreshold: 1024, onEvent: { events.append($0) }))
        var hits: [String: Int] = [:]
        for key in DiskCacheAvailabilityTests.keys {
            if let value = cache.value(forKey: key) { hits[key.rawValue] = value.count }
        }
        return Result(hits: hits, events: events.entries.map(\.description))
    }

    static func run(_ directory: TemporaryDirectory) async throws -> Result {
        guard getuid() == 0 else { return read(directory.url) }
        let setpriv = try #require(setpriv)
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-probe-\(UUID().uuidString).json")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        chmod(output.path, 0o666)
        defer { try? FileManager.default.removeItem(at: output) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: setpriv)
        process.arguments =
            ["--reuid=nobody", "--regid=nogroup", "--clear-groups", TestBinary.path]
            + TestBinary.arguments(running: "permissionProbe")
        var environment = ProcessInfo.processInfo.environment
        environment[folderVariable] = directory.url.path
        environment[outputVariable] = output.path
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let (ended, end) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in end.finish() }
        try process.run()
        for await _ in ended {}
        try #require(process.terminationStatus == 0, "the probe ran as nobody")
        return try JSONDecoder().decode(Result.self, from: Data(contentsOf: output))
    }
}

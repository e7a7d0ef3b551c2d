import Foundation
import GRDB
import KilnSupport
import KilnTesting
import Testing
@testable import KilnCache

/// Two real processes on one folder with ``DiskCache/Locking/shared``, as an app and its
/// extensions in one App Group: neither loses a write the other was told was stored, a first
/// open of an empty folder from both at once keeps every write, and one byte limit holds for
/// both. The processes are this test binary run again as a child (``SharedWriter``).
@Suite("DiskCache: two processes, one folder", .serialized)
struct DiskCacheSharedFolderTests {
    @Test(.timeLimit(.minutes(5)))
    func twoProcessesOpeningAnEmptyFolderAtOnceDropNoWrite() async throws {
        for round in 0..<20 {
            let directory = TemporaryDirectory()
            defer { directory.remove() }
            let writers = try ["left", "right"].map {
                try SharedWriter(.init(role: .writeOnce, folder: directory.url.path, name: "\(round)-\($0)", count: 24))
            }
            // Both are started and waiting; then both open the empty folder at the same moment.
            for writer in writers { await writer.waitFor { $0.contains("ready") } }
            for writer in writers { writer.send("go") }
            var acknowledged: [String] = []
            for writer in writers {
                let report = await writer.finish()
                #expect(report.status == 0, "round \(round): \(report)")
                #expect(report.events.isEmpty, "round \(round): \(report.events)")
                #expect(report.acknowledged.count == 24, "round \(round): \(report)")
                acknowledged += report.acknowledged
            }
            SharedWriter.expectStored(acknowledged, in: directory.url, round: round)
        }
    }

    @Test(.timeLimit(.minutes(5)))
    func aWriterKilledMidWriteFiveTimesLosesNothingTheOtherWriterWasToldWasStored() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let survivor = try SharedWriter(.init(role: .writeUntilStopped, folder: directory.url.path, name: "survivor", count: 16))
        await survivor.waitFor { $0.contains("ready") }
        survivor.send("go")
        for life in 0..<5 {
            let victim = try SharedWriter(.init(role: .writeUntilStopped, folder: directory.url.path, name: "victim-\(life)", count: 16))
            await victim.waitFor { $0.contains("ready") }
            victim.send("go")
            // Killed between commits, while it writes the next batch's value files.
            await victim.waitFor { lines in lines.count { $0 == "flushed" } >= 3 }
            kill(victim.processIdentifier, SIGKILL)
            let killed = await victim.finish()
            #expect(killed.status == SIGKILL, "\(killed)")
            // The survivor commits again with the victim gone.
            let commits = survivor.lines.count { $0 == "flushed" }
            await survivor.waitFor { lines in lines.count { $0 == "flushed" } >= commits + 2 }
        }
        survivor.send("stop")
        let report = await survivor.finish()
        #expect(report.status == 0, "\(report)")
        #expect(report.events.isEmpty, "\(report.events)")
        #expect(report.acknowledged.count >= 16 * 10, "\(report.acknowledged.count) keys written")
        SharedWriter.expectStored(report.acknowledged, in: directory.url)
    }

    /// The limit is exact for committed entries: every commit trims by the total both processes
    /// committed, in the same transaction. (Value files of writes not yet committed, at most
    /// ``DiskCache/Configuration/maxPendingBytes`` per process, are on disk beside them until
    /// their commit trims; both writers have committed everything here.)
    @Test(.timeLimit(.minutes(5)))
    func twoWritersUnderOneByteLimitEndWithinIt() async throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let limit = 2 * 1024 * 1024
        let writers = try ["first", "second"].map {
            try SharedWriter(.init(role: .writeOnce, folder: directory.url.path, name: $0, count: 150, byteLimit: limit, largeValues: true))
        }
        // Both open before either writes.
        for writer in writers { await writer.waitFor { $0.contains("ready") } }
        for writer in writers { writer.send("go") }
        var written = 0
        for writer in writers {
            let report = await writer.finish()
            #expect(report.status == 0, "\(report)")
            written += report.acknowledged.reduce(0) { $0 + SharedWriter.value(for: $1, large: true).count }
        }
        #expect(written > 2 * limit, "wrote \(written) bytes, enough to need trimming")

        let cache = DiskCache(configuration: SharedWriter.configuration(directory.url))
        let size = cache.size()
        #expect(size.valueBytes <= limit, "\(size.valueBytes) bytes committed under a limit of \(limit)")
        #expect(size.count > 0)
        let onDisk = directory.valueFiles().reduce(0) { sum, name in
            let attributes = try? FileManager.default.attributesOfItem(atPath: directory.valuesURL.appendingPathComponent(name).path)
            return sum + ((attributes?[.size] as? Int) ?? 0)
        }
        #expect(onDisk <= limit, "\(onDisk) bytes of value files under a limit of \(limit)")
    }

    /// Another process holds the database past the busy timeout while this one commits: the
    /// batch stays buffered and readable, `flush()` says it is not committed, and the next
    /// flush commits all of it once the other lets go.
    @Test func aCommitKeptWaitingByAnotherProcessKeepsItsWrites() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        let events = Recorder<DiskCache.Event>()
        var configuration = SharedWriter.configuration(directory.url, onEvent: { events.append($0) })
        configuration.busyTimeout = 0.01
        configuration.flushInterval = 3600
        let cache = DiskCache(configuration: configuration)
        let keys = (0..<24).map { "held/\($0)" }

        let other = try holdingConnection(directory)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        for key in keys { cache.set(SharedWriter.value(for: key), forKey: CacheKey(key)) }
        #expect(!cache.flush(), "committed while another connection held the write lock")
        #expect(events.entries.contains { if case .commitDelayed(writes: 24, _) = $0 { true } else { false } }, "\(events.entries)")
        #expect(keys.allSatisfy { cache.value(forKey: CacheKey($0)) == SharedWriter.value(for: $0) }, "buffered writes readable")

        try other.inDatabase { try $0.execute(sql: "COMMIT") }
        #expect(cache.flush())
        #expect(!events.entries.contains { if case .operationFailed = $0 { true } else { false } }, "\(events.entries)")
        SharedWriter.expectStored(keys, in: directory.url)
    }

    /// The other process holds the database while this one opens it: the cache is unavailable
    /// for that moment, the next write opens it again at once, and is stored.
    @Test func anOpenKeptWaitingByAnotherProcessOpensOnTheNextWrite() throws {
        let directory = TemporaryDirectory()
        defer { directory.remove() }
        _ = DiskCache(configuration: SharedWriter.configuration(directory.url))
        let events = Recorder<DiskCache.Event>()
        var configuration = SharedWriter.configuration(directory.url, onEvent: { events.append($0) })
        configuration.busyTimeout = 0.01
        configuration.reopenInterval = 3600

        let other = try holdingConnection(directory)
        try other.inDatabase { try $0.execute(sql: "BEGIN IMMEDIATE") }
        let cache = DiskCache(configuration: configuration)
        #expect(events.entries.contains { if case .databaseUnavailable = $0 { true } else { false } }, "\(events.entries)")
        try other.inDatabase { try $0.execute(sql: "COMMIT") }

        cache.set(SharedWriter.value(for: "after"), forKey: "after")
        #expect(cache.flush())
        #expect(events.entries.last == .databaseAvailable, "\(events.entries)")
        SharedWriter.expectStored(["after"], in: directory.url)
    }

    /// A connection to the folder's database that can keep its write lock between accesses, as
    /// another process's commit does.
    private func holdingConnection(_ directory: TemporaryDirectory) throws -> DatabaseQueue {
        var configuration = GRDB.Configuration()
        configuration.allowsUnsafeTransactions = true
        return try DatabaseQueue(path: directory.databasePath, configuration: configuration)
    }

    /// Not a test of its own: one writer of the tests above, run by ``SharedWriter`` as a child
    /// process.
    @Test(.enabled(if: SharedWriter.plan != nil, "runs only as a child of the two-process tests"))
    func sharedFolderWriter() throws {
        try SharedWriter.run(#require(SharedWriter.plan))
    }
}

/// A child process writing to a shared folder, and the parent's handle on it. The child reports
/// on its standard output, one line per thing the parent waits for: `ready` once started,
/// `ack <key>` for each key whose `flush()` returned, `flushed` after each commit, `event <…>`
/// for each event its cache reported; it reads `go` and `stop` on its standard input.
final class SharedWriter: @unchecked Sendable {
    struct Plan: Codable {
        enum Role: String, Codable {
            /// Waits for `go`, opens the cache, writes `count` keys, flushes, exits.
            case writeOnce
            /// Waits for `go`, opens the cache, then writes and flushes batches of `count` keys
            /// until `stop` (or until it is killed).
            case writeUntilStopped
        }

        var role: Role
        var folder: String
        var name: String
        var count: Int
        var byteLimit: Int?
        var largeValues = false
    }

    static let planVariable = "KILN_CACHE_SHARED_WRITER"
    static let inlineThreshold = 1024
    private static let linePrefix = "kiln-shared-writer: "

    /// How many times a child writes a batch again when `flush()` says it was not committed.
    static let commitAttempts = 10

    /// The plan this process runs, if it is a child.
    static var plan: Plan? {
        ProcessInfo.processInfo.environment[planVariable].flatMap { try? JSONDecoder().decode(Plan.self, from: Data($0.utf8)) }
    }

    static func configuration(_ folder: URL, byteLimit: Int? = nil, onEvent: (@Sendable (DiskCache.Event) -> Void)? = nil) -> DiskCache.Configuration {
        var configuration = DiskCache.Configuration(
            directory: folder, byteLimit: byteLimit, inlineThreshold: inlineThreshold, maxPendingWrites: 64, onEvent: onEvent
        )
        configuration.locking = .shared
        return configuration
    }

    /// The bytes a writer stores under `key`: self-checking, a third of them small enough to
    /// stay in the database, the rest in value files (all in files, 12–20 KB, when `large`).
    static func value(for key: String, large: Bool = false) -> Data {
        var seed: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 { seed = (seed ^ UInt64(byte)) &* 0x100_0000_01b3 }
        let count = large ? 12_000 + Int(seed % 8_000) : (seed % 3 == 0 ? 300 : 1_500 + Int(seed % 4_000))
        return SelfCheckingValue.make(seed: seed, count: count)
    }

    // MARK: Child

    static func run(_ plan: Plan) {
        @Sendable func say(_ line: String) { FileHandle.standardOutput.write(Data((linePrefix + line + "\n").utf8)) }
        say("ready")
        guard readLine() == "go" else { return }
        let stop = StopFlag()
        if plan.role == .writeUntilStopped {
            Thread.detachNewThread {
                while let line = readLine(), line != "stop" {}
                stop.raise()
            }
        }
        let cache = DiskCache(
            configuration: configuration(
                URL(fileURLWithPath: plan.folder), byteLimit: plan.byteLimit,
                onEvent: { say((isContention($0) ? "contention " : "event ") + "\($0)") }
            ))
        var next = 0
        repeat {
            let keys = (next..<next + plan.count).map { "\(plan.name)/\($0)" }
            next += plan.count
            // Acknowledged only once `flush()` says they are committed, as an app that must
            // know would do; a batch the other process kept waiting is written again.
            var committed = false
            for _ in 0..<commitAttempts where !committed {
                for key in keys { cache.set(value(for: key, large: plan.largeValues), forKey: CacheKey(key)) }
                committed = cache.flush()
            }
            if committed { for key in keys { say("ack \(key)") } }
            say("flushed")
        } while plan.role == .writeUntilStopped && !stop.isRaised
    }

    /// Whether `event` is the other process holding the database for a while: expected when
    /// two processes write at once on a loaded machine, and harmless as long as nothing
    /// acknowledged is lost.
    static func isContention(_ event: DiskCache.Event) -> Bool {
        switch event {
        case .commitDelayed, .databaseAvailable: true
        case .databaseUnavailable(let reason): reason.contains("database is locked")
        default: false
        }
    }

    private final class StopFlag: Sendable {
        private let raised = LockedValue(false)
        var isRaised: Bool { raised.current }
        func raise() { raised.set(true) }
    }

    // MARK: Parent

    private let process = Process()
    private let input = Pipe()
    private struct State {
        var received: [String] = []
        var ended = false
        var waiter: CheckedContinuation<Void, Never>?
    }
    private let state = LockedValue(State())

    /// Starts this test binary again as a child running `plan`.
    init(_ plan: Plan) throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: TestBinary.path)
        process.arguments = TestBinary.arguments(running: "sharedFolderWriter")
        var environment = ProcessInfo.processInfo.environment
        environment[Self.planVariable] = String(decoding: try JSONEncoder().encode(plan), as: UTF8.self)
        process.environment = environment
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let reader = output.fileHandleForReading
        Thread.detachNewThread { [self] in
            var buffer = Data()
            while case let chunk = reader.availableData, !chunk.isEmpty {
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    if line.hasPrefix(Self.linePrefix) { receive(String(line.dropFirst(Self.linePrefix.count))) }
                }
            }
            process.waitUntilExit()
            receive(nil)
        }
        try process.run()
    }

    var processIdentifier: Int32 { process.processIdentifier }

    /// The lines received so far.
    var lines: [String] { state.withLock { $0.received } }

    func send(_ line: String) {
        input.fileHandleForWriting.write(Data((line + "\n").utf8))
    }

    /// Returns once `condition` holds for the lines received, or the child has ended.
    func waitFor(_ condition: ([String]) -> Bool) async {
        while true {
            let (done, seen) = state.withLock { ($0.ended || condition($0.received), $0.received.count) }
            if done { return }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let changed = state.withLock {
                    if $0.ended || $0.received.count != seen { return true }
                    $0.waiter = continuation
                    return false
                }
                if changed { continuation.resume() }
            }
        }
    }

    struct Report: CustomStringConvertible {
        var status: Int32
        var acknowledged: [String]
        /// Events other than contention (see ``SharedWriter/isContention(_:)``).
        var events: [String]
        var contention: [String]
        var description: String {
            "exit \(status), \(acknowledged.count) keys acknowledged, events \(events), contention \(contention)"
        }
    }

    /// Waits for the child to end.
    func finish() async -> Report {
        await waitFor { _ in false }
        let lines = self.lines
        return Report(
            status: process.terminationStatus,
            acknowledged: lines.compactMap { $0.hasPrefix("ack ") ? String($0.dropFirst(4)) : nil },
            events: lines.compactMap { $0.hasPrefix("event ") ? String($0.dropFirst(6)) : nil },
            contention: lines.compactMap { $0.hasPrefix("contention ") ? String($0.dropFirst(11)) : nil }
        )
    }

    private func receive(_ line: String?) {
        let waiting = state.withLock { state in
            if let line { state.received.append(line) } else { state.ended = true }
            defer { state.waiter = nil }
            return state.waiter
        }
        waiting?.resume()
    }

    /// Checks that every key in `keys` reads back with the bytes its writer stored.
    static func expectStored(_ keys: [String], in folder: URL, round: Int = 0, large: Bool = false, sourceLocation: SourceLocation = #_sourceLocation) {
        let events = Recorder<DiskCache.Event>()
        let cache = DiskCache(configuration: configuration(folder, onEvent: { events.append($0) }))
        let lost = keys.filter { cache.value(forKey: CacheKey($0)) != value(for: $0, large: large) }
        #expect(
            lost.isEmpty,
            "round \(round): \(lost.count) of \(keys.count) acknowledged keys lost, such as \(lost.prefix(5)); events \(events.entries.prefix(5))",
            sourceLocation: sourceLocation
        )
    }
}

import Foundation
import KilnCache

/// Measures KilnCache against the baselines named in the cache issue, in one run:
///
/// - `MemoryCache` set / get (hit) / get (miss) against Foundation's `NSCache` with the same keys;
/// - `DiskCache` 100 B and 100 KB writes and reads against a naive store that keeps one file per
///   key (`Data.write(to:options: .atomic)` / `Data(contentsOf:)`);
/// - inline-in-SQLite against file-per-value storage at 4–64 KB, to place
///   `DiskCache.Configuration.inlineThreshold`;
/// - the same disk figures with `.shared` locking (a folder an app shares with its extensions);
/// - how long opening a cache takes with 1,000, 10,000 and 100,000 entries in it.
///
/// Each figure is the best of several rounds, in operations per second. Build in release mode:
///
/// ```swift
/// print(try await CacheBench.run())
/// ```
enum CacheBench {
    /// Runs every measurement and returns the report (one line per figure).
    static func run() async throws -> String {
        var report = Report()
        report.line("KilnCache bench (ops/s, best of \(rounds) rounds; ratio = Kiln / baseline)")
        try measureMemory(&report)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-cache-bench-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try measureDisk(&report, root: root, label: "100 B", valueSize: 100, count: 5_000)
        try measureDisk(&report, root: root, label: "100 KB", valueSize: 100 * 1024, count: 300)
        try measureDisk(&report, root: root, label: "100 B", valueSize: 100, count: 5_000, locking: .shared)
        try measureDisk(&report, root: root, label: "100 KB", valueSize: 100 * 1024, count: 300, locking: .shared)
        try measureOpen(&report, root: root)
        try measureCrossover(&report, root: root)
        return report.text
    }

    private static let rounds = 5

    /// Only the `MemoryCache` / `NSCache` figures (seconds instead of minutes).
    static func runMemoryOnly() throws -> String {
        var report = Report()
        try measureMemory(&report)
        return report.text
    }

    private struct Report {
        var text = ""
        mutating func line(_ string: String) {
            text += string + "\n"
        }
    }

    // MARK: - Timing

    /// Operations per second of `body`, which performs `operations` operations; best of `rounds`
    /// rounds.
    /// `prepare` runs untimed before each round.
    private static func opsPerSecond(
        _ operations: Int,
        rounds: Int = rounds,
        prepare: () throws -> Void = {},
        _ body: () throws -> Void
    ) throws -> Double {
        var best = 0.0
        for _ in 0..<rounds {
            try prepare()
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            best = max(best, Double(operations) / max(elapsed, 1e-9))
        }
        return best
    }

    private static func format(_ value: Double) -> String {
        value >= 1_000_000 ? String(format: "%.2fM", value / 1e6) : String(format: "%.0f", value)
    }

    private static func compare(
        _ report: inout Report, _ name: String, kiln: Double, baseline: Double, ratio: Double? = nil, goal: String
    ) {
        report.line(
            "\(name.padding(toLength: 34, withPad: " ", startingAt: 0)) kiln \(format(kiln).padding(toLength: 9, withPad: " ", startingAt: 0))"
                + " baseline \(format(baseline).padding(toLength: 9, withPad: " ", startingAt: 0))"
                + " ratio \(String(format: "%.2f", ratio ?? kiln / baseline))x  (goal \(goal))"
        )
    }

    // MARK: - Memory

    private static func measureMemory(_ report: inout Report) throws {
        let count = 100_000
        let names = (0..<count).map { "GET /articles?page=\($0)" }
        let keys = names.map { CacheKey($0) }
        let missingKeys = names.map { CacheKey($0 + "#missing") }
        let nsKeys = names.map { $0 as NSString }
        let nsMissingKeys = names.map { ($0 + "#missing") as NSString }
        let value = Data(repeating: 42, count: 100)
        let nsValue = value as NSData

        let kiln = MemoryCache(countLimit: count * 2)
        let foundation = NSCache<NSString, NSData>()
        foundation.countLimit = count * 2

        // Kiln and NSCache rounds alternate, so both see the same load on a shared machine;
        // the ratio printed is the median of the per-round ratios.
        var found = 0
        let set = try paired(
            count, kiln: { for key in keys { kiln.set(value, forKey: key) } },
            baseline: { for key in nsKeys { foundation.setObject(nsValue, forKey: key) } })
        let get = try paired(
            count, kiln: { for key in keys where kiln.value(forKey: key) != nil { found += 1 } },
            baseline: { for key in nsKeys where foundation.object(forKey: key) != nil { found += 1 } })
        let miss = try paired(
            count, kiln: { for key in missingKeys where kiln.value(forKey: key) != nil { found += 1 } },
            baseline: { for key in nsMissingKeys where foundation.object(forKey: key) != nil { found += 1 } })
        report.line("MemoryCache vs NSCache, \(count) keys, 100 B values (\(found) hits counted; median ratio of \(pairedRounds) alternating rounds)")
        compare(&report, "  set", kiln: set.kiln, baseline: set.baseline, ratio: set.ratio, goal: "-")
        compare(&report, "  get (hit)", kiln: get.kiln, baseline: get.baseline, ratio: get.ratio, goal: ">= 2x")
        compare(&report, "  get (miss)", kiln: miss.kiln, baseline: miss.baseline, ratio: miss.ratio, goal: "-")
    }

    private static let pairedRounds = 9

    /// Best ops/s of each side and the median ratio over alternating rounds.
    private static func paired(
        _ operations: Int,
        kiln: () throws -> Void,
        baseline: () throws -> Void
    ) throws -> (kiln: Double, baseline: Double, ratio: Double) {
        var kilnBest = 0.0
        var baselineBest = 0.0
        var ratios: [Double] = []
        func measure(_ body: () throws -> Void) throws -> Double {
            let start = DispatchTime.now().uptimeNanoseconds
            try body()
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
            return Double(operations) / max(elapsed, 1e-9)
        }
        for _ in 0..<pairedRounds {
            let kilnRate = try measure(kiln)
            let baselineRate = try measure(baseline)
            kilnBest = max(kilnBest, kilnRate)
            baselineBest = max(baselineBest, baselineRate)
            ratios.append(kilnRate / baselineRate)
        }
        ratios.sort()
        return (kilnBest, baselineBest, ratios[ratios.count / 2])
    }

    // MARK: - Disk

    /// The naive store the issue compares against: one file per key, atomic writes.
    private struct FilePerKeyStore {
        let directory: URL

        func url(for index: Int) -> URL {
            directory.appendingPathComponent("key-\(index)")
        }
    }

    private static func measureDisk(
        _ report: inout Report, root: URL, label: String, valueSize: Int, count: Int, locking: DiskCache.Locking = .exclusive
    ) throws {
        let value = Data((0..<valueSize).map { UInt8(truncatingIfNeeded: $0 &* 31) })
        let keys = (0..<count).map { CacheKey("GET /bench/\(label)?id=\($0)") }
        var generation = 0
        var cache: DiskCache?
        let kilnWrite = try opsPerSecond(
            count,
            prepare: {
                generation += 1
                cache = nil
                let directory = root.appendingPathComponent("disk-\(valueSize)-\(locking)-\(generation)")
                try? FileManager.default.removeItem(at: directory)
                var configuration = DiskCache.Configuration(directory: directory)
                configuration.locking = locking
                cache = DiskCache(configuration: configuration)
            }
        ) {
            guard let cache else { return }
            for key in keys { cache.set(value, forKey: key) }
            cache.flush() // committed, as durable as the file store's writes
        }
        guard let cache else { return }

        let store = FilePerKeyStore(directory: root.appendingPathComponent("files-\(valueSize)"))
        try FileManager.default.createDirectory(at: store.directory, withIntermediateDirectories: true)
        let fileWrite = try opsPerSecond(count) {
            for index in 0..<count { try value.write(to: store.url(for: index), options: .atomic) }
        }
        // Foundation's atomic write calls fsync before its rename (seen with strace on Linux);
        // DiskCache does not (see its durability notes). This second baseline takes fsync out:
        // plain write to a temporary file, then rename.
        let noSyncWrite = try opsPerSecond(count) {
            for index in 0..<count {
                let target = store.url(for: index)
                let temporary = target.appendingPathExtension("tmp")
                try value.write(to: temporary)
                guard rename(temporary.path, target.path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            }
        }
        // Reads are measured twice. The goal is checked on rounds alternating between the two
        // stores, like the memory figures: a busy moment on a shared machine weighs on both
        // sides, and each side starts with CPU caches the other one filled, which costs the
        // database lookups more than the file reads (whose time goes to system calls), so it is
        // the stricter figure. Back to back (each side's best round, like the writes) is shown
        // beside it.
        var bytes = 0
        let kilnRead = try opsPerSecond(count, rounds: pairedRounds) {
            for key in keys { bytes += cache.value(forKey: key)?.count ?? 0 }
        }
        let fileRead = try opsPerSecond(count, rounds: pairedRounds) {
            for index in 0..<count { bytes += try Data(contentsOf: store.url(for: index)).count }
        }
        let alternating = try paired(
            count,
            kiln: { for key in keys { bytes += cache.value(forKey: key)?.count ?? 0 } },
            baseline: { for index in 0..<count { bytes += try Data(contentsOf: store.url(for: index)).count } }
        )
        let expected = Int64(4 * pairedRounds) * Int64(count) * Int64(valueSize) // 9 + 9 back to back, 9 + 9 alternating
        let mode = locking == .shared ? ", shared locking" : ""
        report.line("DiskCache vs file-per-key store, \(label) values\(mode), \(count) keys (read check: \(Int64(bytes) == expected ? "ok" : "MISMATCH"))")
        let small = valueSize < 1024
        compare(&report, "  write", kiln: kilnWrite, baseline: fileWrite, goal: small ? ">= 20x" : ">= 0.83x (within 1.2x)")
        compare(&report, "  write vs temp+rename, no fsync", kiln: kilnWrite, baseline: noSyncWrite, goal: "-")
        compare(
            &report, "  read (median of \(pairedRounds) alternating)", kiln: alternating.kiln, baseline: alternating.baseline,
            ratio: alternating.ratio, goal: small ? ">= 5x" : ">= 0.83x (within 1.2x)"
        )
        compare(&report, "  read, back to back (best rounds)", kiln: kilnRead, baseline: fileRead, goal: "-")
    }

    // MARK: - Open

    /// The time `DiskCache(configuration:)` takes on a folder holding 1,000, 10,000 and 100,000
    /// entries (100 B values, one in a hundred of 20 KB in a value file), with each locking mode:
    /// what an app extension pays before its first read. The last column is the time at that size
    /// over the time at 1,000 entries.
    private static func measureOpen(_ report: inout Report, root: URL) throws {
        report.line("DiskCache open (ms, best of \(rounds) rounds; 100 B values, 1 in 100 of 20 KB in a file)")
        let small = Data(repeating: 1, count: 100)
        let large = Data(repeating: 2, count: 20 * 1024)
        var first: (exclusive: Double, shared: Double)?
        for count in [1_000, 10_000, 100_000] {
            let directory = root.appendingPathComponent("open-\(count)")
            let keys = (0..<count).map { CacheKey("GET /open?id=\($0)") }
            do {
                let cache = DiskCache(directory: directory)
                for (index, key) in keys.enumerated() { cache.set(index % 100 == 0 ? large : small, forKey: key) }
                cache.flush()
            }
            var times: [Double] = []
            for locking in [DiskCache.Locking.exclusive, .shared] {
                var configuration = DiskCache.Configuration(directory: directory)
                configuration.locking = locking
                var best = Double.infinity
                for _ in 0..<rounds {
                    let start = DispatchTime.now().uptimeNanoseconds
                    let cache = DiskCache(configuration: configuration)
                    best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
                    guard cache.value(forKey: keys[count - 1]) == small, cache.value(forKey: keys[0]) == large else {
                        throw CocoaError(.fileReadCorruptFile)
                    }
                }
                times.append(best)
            }
            let base = first ?? (times[0], times[1])
            first = base
            report.line(
                "  \(String(count).padding(toLength: 7, withPad: " ", startingAt: 0)) entries  exclusive \(String(format: "%8.2f", times[0])) ms"
                    + " (\(String(format: "%.1f", times[0] / base.exclusive))x)  shared \(String(format: "%8.2f", times[1])) ms"
                    + " (\(String(format: "%.1f", times[1] / base.shared))x)"
            )
        }
    }

    // MARK: - Crossover

    private static func measureCrossover(_ report: inout Report, root: URL) throws {
        report.line("Inline (SQLite row) vs file per value, DiskCache write+read ops/s")
        for kilobytes in [4, 8, 16, 24, 32, 48, 64] {
            let size = kilobytes * 1024
            let count = 400
            let value = Data((0..<size).map { UInt8(truncatingIfNeeded: $0 &* 7) })
            let keys = (0..<count).map { CacheKey("crossover/\(kilobytes)/\($0)") }
            var results: [(write: Double, read: Double)] = []
            for inline in [true, false] {
                var generation = 0
                var cache: DiskCache?
                let write = try opsPerSecond(
                    count,
                    prepare: {
                        generation += 1
                        cache = nil
                        let directory = root.appendingPathComponent("crossover-\(kilobytes)-\(inline)-\(generation)")
                        cache = DiskCache(configuration: .init(directory: directory, inlineThreshold: inline ? Int.max : 0))
                    }
                ) {
                    guard let cache else { return }
                    for key in keys { cache.set(value, forKey: key) }
                    cache.flush()
                }
                var bytes = 0
                let read = try opsPerSecond(count) {
                    for key in keys { bytes += cache?.value(forKey: key)?.count ?? 0 }
                }
                results.append((write, read))
            }
            report.line(
                "  \(String(kilobytes).padding(toLength: 3, withPad: " ", startingAt: 0)) KB  inline write \(format(results[0].write)) read \(format(results[0].read))"
                    + "  | file write \(format(results[1].write)) read \(format(results[1].read))"
                    + "  | inline/file write \(String(format: "%.2f", results[0].write / results[1].write))x"
                    + " read \(String(format: "%.2f", results[0].read / results[1].read))x"
            )
        }
    }
}

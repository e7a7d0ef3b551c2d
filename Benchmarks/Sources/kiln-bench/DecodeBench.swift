import BenchSupport
import Foundation
@_spi(Testing) import KilnModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

#if os(Linux)
/// glibc's `malloc_trim` (not exported by the Glibc module): hands freed heap back to the system.
@_silgen_name("malloc_trim")
func kilnMallocTrim(_ pad: Int) -> Int32
#endif

/// `kiln-bench decode`: one same-run table of decode throughput and peak memory for Foundation's
/// strict `JSONDecoder`, `@DataModel` through Foundation, and `@DataModel` through `KilnDecoder`
/// (its fast path, and for the articles its generic `Decoder` path too), beside the limit: simdjson
/// On-Demand decoding the same bytes into C++ structs with the same members (``LimitRow``). The
/// models are BenchSupport's: strict `Codable` shapes and the `@DataModel` types the macro expands.
enum DecodeBench {
    struct Input {
        var name: String
        var data: Data
    }

    struct Row {
        var label: String
        var seconds: Double
        var peakBytes: Int?
        var baselineBytes: Int?
    }

    /// Runs with the flags on the command line:
    /// - `--quick`: shorter timing;
    /// - `--only=<input prefix>`: the inputs whose name starts so;
    /// - `--case=<text>`: the row with that label, or else the rows whose label contains the text (the first row stays the baseline);
    /// - `--articles=<count>`: the generated payload's article count (20,000 by default);
    /// - `--once`: runs each chosen case once, after one warm-up, inside `kilnBenchMeasuredRegion`,
    ///   and prints no timing: for `valgrind --tool=callgrind --collect-atstart=no
    ///   --toggle-collect='*BenchMeasuredRegion*'`, which counts instructions;
    /// - `--loop=<count>` (with `--once`): decodes each chosen case that many times more before,
    ///   for a sampling profiler (`perf record`).
    static func run() throws {
        run(arguments: Array(CommandLine.arguments.dropFirst()))
    }

    static func run(arguments: [String]) {
        let quick = arguments.contains("--quick")
        let once = arguments.contains("--once")
        func option(_ name: String) -> String? {
            arguments.first { $0.hasPrefix("--\(name)=") }.map { String($0.dropFirst(name.count + 3)) }
        }
        let only = option("only")
        let chosen = option("case")
        let articleCount = option("articles").flatMap { Int($0) } ?? 20_000
        let shared = sharedDirectory()
        // Made only when chosen: a payload made and dropped would leave its peak in the heap's
        // history, above the decodes a memory profiler is asked to compare.
        var sources: [(name: String, make: () -> Data?)] = [
            ("articles (generated)", { BenchSupport.ArticlePayload.make(as: Data.self, articles: articleCount) }),
            ("plain articles (same shapes both sides)", { PlainArticlePayload.make() }),
            ("issues (generated: URLs, dates, enums)", { BenchSupport.IssuePayload.make(as: Data.self) }),
            ("payments (generated: UUIDs, decimals, dates, plain enums)", { BenchSupport.PaymentPayload.make(as: Data.self) }),
        ]
        for file in ["twitter.json", "citm_catalog.json", "canada.json"] {
            sources.append((file, { try? Data(contentsOf: shared.appendingPathComponent("benchdata/\(file)")) }))
        }
        for source in sources where only.map({ source.name.hasPrefix($0) }) ?? true {
            guard let data = source.make() else {
                print("note: \(source.name) not found under \(shared.path)/benchdata; skipped")
                continue
            }
            let input = Input(name: source.name, data: data)
            let mb = Double(input.data.count) / 1_000_000
            print("\n## \(input.name) — \(String(format: "%.2f", mb)) MB")
            // The limit row copies the document and checks its structs against Kiln's models first:
            // only when it is asked for (and never under `--once` for another row, so callgrind runs
            // no simdjson code built for this machine's vector units).
            let wantsLimit = chosen.map { LimitRow.label.contains($0) } ?? true
            let all = cases(for: input, includingLimit: wantsLimit)
            // A label equal to the chosen text picks that row alone; otherwise every label containing it.
            let exact = all.contains { $0.0 == chosen }
            let selected = all.enumerated().filter { position, entry in
                chosen.map { exact ? entry.0 == $0 : entry.0.contains($0) } ?? true || (position == 0 && !once)
            }.map(\.element)
            if once {
                let loops = option("loop").flatMap { Int($0) } ?? 0
                for (label, body) in selected {
                    try? body()
                    for _ in 0..<loops { try? body() }
                    kilnBenchMeasuredRegion(body)
                    print("ran once: \(label)")
                }
                continue
            }
            let rows = selected.map { label, body in measure(label, quick: quick, body) }
            guard let baseline = rows.first?.seconds else { continue }
            print("| decode | MB/s | ms | × Foundation strict | peak RSS (+ over the RSS before the case) |")
            print("|---|---:|---:|---:|---:|")
            for row in rows {
                var peak = row.peakBytes.map { String(format: "%.1f MB", Double($0) / 1_000_000) } ?? "n/a"
                if let top = row.peakBytes, let base = row.baselineBytes {
                    peak += String(format: " (+%.1f MB)", Double(top - base) / 1_000_000)
                }
                let rate = String(format: "%.0f", mb / row.seconds)
                let ms = String(format: "%.2f", row.seconds * 1000)
                let ratio = String(format: "%.2f", baseline / row.seconds)
                print("| \(row.label) | \(rate) | \(ms) | \(ratio)× | \(peak) |")
            }
            if let limit = selected.first(where: { $0.0 == LimitRow.label }),
                rows.contains(where: { $0.label == LimitRow.label && $0.seconds.isFinite })
            {
                for row in selected where row.0.hasPrefix("@DataModel through Kiln (fast path)") {
                    // Timed alternately with the limit in one loop, as the repair log's ratio is:
                    // timed apart, the ratio moved between 0.3× and 1.2× on a shared machine.
                    guard let medians = interleavedMedians(limit.1, row.1, quick: quick) else { continue }
                    let ratio = String(format: "%.2f", medians.first / medians.second)
                    let times = String(format: "%.3f ms and %.3f ms", medians.first * 1000, medians.second * 1000)
                    print("\(row.0): \(ratio)× the limit's speed (interleaved, \(medians.rounds) rounds: the limit \(times))")
                }
            }
            for row in rows where row.label.hasSuffix(" + repair log") {
                let plain = String(row.label.dropLast(" + repair log".count))
                guard let without = selected.first(where: { $0.0 == plain }), let with = selected.first(where: { $0.0 == row.label })
                else { continue }
                // Timed apart, as in the table, the two rows meet different moments of a shared
                // machine; this ratio times them alternately in one loop.
                guard let medians = interleavedMedians(without.1, with.1, quick: quick) else { continue }
                // Both medians as well as their ratio: a ratio that moves may move with the
                // decode without the log, which the log does not touch.
                let ratio = String(format: "%.2f", medians.second / medians.first)
                let times = String(format: "%.3f ms and %.3f ms", medians.first * 1000, medians.second * 1000)
                print("\(plain) with the repair log kept: \(ratio)× the time without it (interleaved, \(medians.rounds) rounds: \(times))")
            }
        }
    }

    /// The decodes compared for one input; the first is the baseline, and the limit row (where
    /// there is one) comes second.
    static func cases(for input: Input, includingLimit: Bool) -> [(String, () throws -> Void)] {
        var cases = kilnCases(for: input)
        if includingLimit, let limit = LimitRow.make(for: input) {
            cases.insert((LimitRow.label, { try limit.decode() }), at: min(1, cases.count))
        }
        return cases
    }

    /// Foundation's and Kiln's decodes of one input; the first is the baseline.
    static func kilnCases(for input: Input) -> [(String, () throws -> Void)] {
        let data = input.data
        let kiln = KilnDecoder()
        let decoderPath = KilnDecoder.decoderProtocolPath
        func foundation<T: Decodable>(_ type: T.Type) -> () throws -> Void { { _ = try JSONDecoder().decode(T.self, from: data) } }
        func kilnDecode<T: Decodable>(_ type: T.Type) -> () throws -> Void { { _ = try kiln.decode(T.self, from: data) } }
        func withRepairs<T: Decodable>(_ type: T.Type) -> () throws -> Void { { _ = try kiln.decodeWithRepairs(T.self, from: data) } }
        let parseOnly: (String, () throws -> Void) = ("Kiln reader only (parse to tape)", { _ = try JSONDocument(parsing: data) })
        switch input.name {
        case let name where name.hasPrefix("plain articles"):
            return [
                ("Foundation strict (Codable)", foundation(PlainStrictPage.self)),
                ("@DataModel through Foundation", foundation(PlainModelPage.self)),
                ("@DataModel through Kiln (fast path)", kilnDecode(PlainModelPage.self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs(PlainModelPage.self)),
                parseOnly,
            ]
        case let name where name.hasPrefix("articles"):
            return [
                ("Foundation strict (Codable)", foundation(StrictArticlePage.self)),
                ("@DataModel through Foundation", foundation(ArticlePage.self)),
                ("@DataModel through Foundation + repair log", { _ = try JSONDecoder().decodeWithRepairs(ArticlePage.self, from: data) }),
                ("@DataModel through Kiln (fast path)", kilnDecode(ArticlePage.self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs(ArticlePage.self)),
                ("@DataModel through Kiln (generic Decoder path)", { _ = try decoderPath.decode(ArticlePage.self, from: data) }),
                ("Kiln strict (same Codable shape)", kilnDecode(StrictArticlePage.self)),
                parseOnly,
            ]
        case let name where name.hasPrefix("issues"):
            let strict = StrictIssue.foundationDecoder()
            let kilnStrict = StrictIssue.kilnDecoder
            return [
                ("Foundation strict (Codable)", { _ = try strict.decode([StrictIssue].self, from: data) }),
                ("@DataModel through Foundation", foundation([RepoIssue].self)),
                ("@DataModel through Kiln (fast path)", kilnDecode([RepoIssue].self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs([RepoIssue].self)),
                ("Kiln strict (same Codable shape)", { _ = try kilnStrict.decode([StrictIssue].self, from: data) }),
                parseOnly,
            ]
        case let name where name.hasPrefix("payments"):
            let strict = StrictPayment.foundationDecoder()
            let kilnStrict = StrictPayment.kilnDecoder
            return [
                ("Foundation strict (Codable)", { _ = try strict.decode([StrictPayment].self, from: data) }),
                ("@DataModel through Foundation", { _ = try strict.decode([Payment].self, from: data) }),
                ("@DataModel through Kiln (fast path)", { _ = try kilnStrict.decode([Payment].self, from: data) }),
                ("@DataModel through Kiln (fast path) + repair log", { _ = try kilnStrict.decodeWithRepairs([Payment].self, from: data) }),
                ("Kiln strict (same Codable shape)", { _ = try kilnStrict.decode([StrictPayment].self, from: data) }),
                parseOnly,
            ]
        case "twitter.json":
            return [
                ("Foundation strict (Codable)", foundation(StrictTwitter.self)),
                ("@DataModel through Foundation", foundation(TwitterPage.self)),
                ("@DataModel through Kiln (fast path)", kilnDecode(TwitterPage.self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs(TwitterPage.self)),
                ("Kiln strict (same Codable shape)", kilnDecode(StrictTwitter.self)),
                parseOnly,
            ]
        case "canada.json":
            return [
                ("Foundation strict (Codable)", foundation(StrictCanada.self)),
                ("@DataModel through Foundation", foundation(Canada.self)),
                ("@DataModel through Kiln (fast path)", kilnDecode(Canada.self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs(Canada.self)),
                ("Kiln strict (same Codable shape)", kilnDecode(StrictCanada.self)),
                parseOnly,
            ]
        default:
            return [
                ("Foundation strict (Codable)", foundation(StrictCatalog.self)),
                ("@DataModel through Foundation", foundation(Catalog.self)),
                ("@DataModel through Kiln (fast path)", kilnDecode(Catalog.self)),
                ("@DataModel through Kiln (fast path) + repair log", withRepairs(Catalog.self)),
                ("Kiln strict (same Codable shape)", kilnDecode(StrictCatalog.self)),
                parseOnly,
            ]
        }
    }

    /// The median of several timed runs after a warm-up, with the peak resident memory seen
    /// while they ran (Linux: VmHWM, reset before each case).
    static func measure(_ label: String, quick: Bool, _ body: () throws -> Void) -> Row {
        let baseline = resetPeakMemory()
        let clock = ContinuousClock()
        do {
            try body()
            var times: [Double] = []
            let budget = quick ? 0.5 : 2.0
            var spent = 0.0
            while times.count < 5 || (spent < budget && times.count < 200) {
                let elapsed = try clock.measure(body)
                let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
                times.append(seconds)
                spent += seconds
            }
            times.sort()
            return Row(label: label, seconds: times[times.count / 2], peakBytes: peakMemory(), baselineBytes: baseline)
        } catch {
            print("\(label): failed: \(error)")
            return Row(label: label + " (failed)", seconds: .infinity, peakBytes: nil)
        }
    }

    /// The median times of `first` and `second`, the two run alternately in one loop after a
    /// warm-up, and the number of rounds; nil when either fails.
    static func interleavedMedians(_ first: () throws -> Void, _ second: () throws -> Void, quick: Bool) -> (first: Double, second: Double, rounds: Int)? {
        let clock = ContinuousClock()
        func seconds(_ body: () throws -> Void) throws -> Double {
            let elapsed = try clock.measure(body)
            return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        }
        do {
            try first()
            try second()
            var firstTimes: [Double] = []
            var secondTimes: [Double] = []
            let budget = quick ? 1.0 : 4.0
            var spent = 0.0
            while firstTimes.count < 5 || (spent < budget && firstTimes.count < 200) {
                let a = try seconds(first)
                let b = try seconds(second)
                firstTimes.append(a)
                secondTimes.append(b)
                spent += a + b
            }
            firstTimes.sort()
            secondTimes.sort()
            return (firstTimes[firstTimes.count / 2], secondTimes[secondTimes.count / 2], firstTimes.count)
        } catch {
            return nil
        }
    }

    /// Returns freed heap to the system and restarts the kernel's peak-RSS counter (Linux), so
    /// each case's peak is its own; returns the resident size it starts from.
    @discardableResult
    static func resetPeakMemory() -> Int? {
        #if os(Linux)
        _ = kilnMallocTrim(0)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 {
            _ = write(fd, "5", 1)
            close(fd)
        }
        return statusValue("VmRSS:")
        #else
        return nil
        #endif
    }

    static func peakMemory() -> Int? {
        #if os(Linux)
        return statusValue("VmHWM:")
        #else
        var usage = rusage()
        getrusage(RUSAGE_SELF, &usage)
        return Int(usage.ru_maxrss)
        #endif
    }

    static func statusValue(_ field: String) -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return nil }
        return line.split(separator: " ").compactMap { Int($0) }.first.map { $0 * 1024 }
    }

    /// The repository's `TestData` folder (which holds `benchdata/`), found from this file's
    /// location or the working directory.
    static func sharedDirectory() -> URL {
        // Benchmarks/Sources/kiln-bench/DecodeBench.swift → the repository.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let fromSource = repository.appendingPathComponent("TestData")
        if FileManager.default.fileExists(atPath: fromSource.path) { return fromSource }
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for candidate in [workingDirectory, workingDirectory.deletingLastPathComponent()] {
            let folder = candidate.appendingPathComponent("TestData")
            if FileManager.default.fileExists(atPath: folder.path) { return folder }
        }
        return workingDirectory.appendingPathComponent("TestData")
    }
}

/// Runs `body` once; the one function callgrind counts (`--toggle-collect`) in `kiln-bench decode --once`.
@inline(never)
func kilnBenchMeasuredRegion(_ body: () throws -> Void) {
    do {
        try body()
    } catch {
        print("failed: \(error)")
    }
}

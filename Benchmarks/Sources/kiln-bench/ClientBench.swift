import Foundation
import Synchronization
import Kiln
@_spi(Testing) import KilnNetwork
import KilnTesting
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `kiln-bench client`: whole API calls against nginx on loopback (a server nobody here wrote),
/// same process, interleaved round by round: URLSession + Foundation's strict `JSONDecoder`
/// (what an Alamofire user gets) against Kiln's `send`, with and without a response cache.
enum ClientBench {
    struct Case {
        var label: String
        var call: @Sendable () async throws -> Void
    }

    static func run() async throws {
        guard let nginx = Nginx.executable() else {
            print("note: nginx not found (scripts/install-bench-peers.sh installs it); client suite skipped")
            return
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-bench-client-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = PlainArticlePayload.make()
        let small = PlainArticlePayload.make(count: 40)
        try big.write(to: folder.appendingPathComponent("big.json"))
        try small.write(to: folder.appendingPathComponent("small.json"))
        let server = try await Nginx.start(executable: nginx, serving: folder)
        defer { server.stop() }
        print("nginx \(server.version) on \(server.baseURL.absoluteString)")

        for (name, file, bytes, rounds) in [("9 MB envelope of articles", "big.json", big.count, 15), ("20 KB envelope", "small.json", small.count, 400)] {
            print(String(format: "\n## %@ — %.2f MB, %d interleaved rounds", name, Double(bytes) / 1e6, rounds))
            let cases = try makeCases(baseURL: server.baseURL, file: file, cacheFolder: folder.appendingPathComponent("cache-\(file)"))
            let medians = try await interleaved(cases, rounds: rounds)
            var peaks: [Int?] = []
            for item in cases {
                DecodeBench.resetPeakMemory()
                for _ in 0..<3 { try await item.call() }
                peaks.append(DecodeBench.peakMemory())
            }
            let baseline = medians[0]
            print("| call | median ms | MB/s | × URLSession + Foundation strict | peak RSS |")
            print("|---|---:|---:|---:|---:|")
            for (index, item) in cases.enumerated() {
                let seconds = medians[index]
                let peak = peaks[index].map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "n/a"
                print(String(format: "| %@ | %.3f | %.0f | %.2f× | %@ |", item.label, seconds * 1000, Double(bytes) / 1e6 / seconds, baseline / seconds, peak))
            }
            let network = medians[3]
            print(
                String(
                    format: "cache hit vs the network path with the cache on: %.1f× faster; a new client's first hit: %.1f× faster", network / medians[4],
                    network / medians[5]))
            print(String(format: "Kiln send latency vs URLSession + Foundation: %+.1f%%", (medians[2] / baseline - 1) * 100))
        }
        try await revalidation(baseURL: server.baseURL, bytes: big.count)
        try await sharing(baseURL: server.baseURL)
        try await sequentialMemory(baseURL: server.baseURL)
        try await fixtureLatency(nginx: server.baseURL, small: small)
    }

    /// A response cache that keeps the data but drops what the server said about it: with no
    /// validator to send, every network call downloads and decodes again.
    struct WithoutValidators: ResponseCaching {
        let base: ResponseCache
        func cachedResponse(for request: CacheableRequest) async -> CachedResponse? {
            await base.cachedResponse(for: request).map { CachedResponse(data: $0.data, age: $0.age) }
        }
        func store(_ response: CachedResponse, for request: CacheableRequest) async {
            await base.store(CachedResponse(data: response.data, age: 0), for: request)
        }
        func removeResponse(for request: CacheableRequest) async { await base.removeResponse(for: request) }
    }

    /// Counts the requests a client sends and the body bytes it reads for each.
    final class Traffic: Sendable {
        /// Body bytes read, one entry per request.
        private let bodies = Mutex([Int]())
        var requests: Int { bodies.withLock { $0.count } }
        /// The median body size read per request (0 for a `304`, whose body is not read).
        var medianBytes: Int { bodies.withLock { $0.sorted()[$0.count / 2] } }
        func read(_ count: Int) { bodies.withLock { if !$0.isEmpty { $0[$0.count - 1] += count } } }
        var monitor: EventMonitor {
            EventMonitor { [self] event in
                if case .requestWillSend = event { bodies.withLock { $0.append(0) } }
            }
        }
    }

    /// The 9 MB list refreshed with `.networkOnly`: revalidated (`If-None-Match` → `304`, the
    /// decoded value kept) against downloaded and decoded again.
    static func revalidation(baseURL: URL, bytes: Int) async throws {
        let endpoint = Endpoint<PlainModelPageData>.get("big.json").envelope(.codeMessageData)
        let downloading = Traffic(), revalidating = Traffic()
        var again = APIClient(baseURL: baseURL, responseCache: WithoutValidators(base: ResponseCache(MemoryCache())), eventMonitors: [downloading.monitor])
        again.onBodyRead = { downloading.read($0) }
        var conditional = APIClient(baseURL: baseURL, responseCache: ResponseCache(MemoryCache()), eventMonitors: [revalidating.monitor])
        conditional.onBodyRead = { revalidating.read($0) }
        let (againClient, conditionalClient) = (again, conditional)
        let rounds = 15
        let medians = try await interleaved(
            [
                Case(label: "downloaded again") { _ = try await againClient.send(endpoint, policy: .networkOnly) },
                Case(label: "revalidated") { _ = try await conditionalClient.send(endpoint, policy: .networkOnly) },
            ], rounds: rounds)
        print(String(format: "\n## Refreshing the %.2f MB list (.networkOnly, response cache on), %d interleaved rounds", Double(bytes) / 1e6, rounds))
        print("| refresh | median ms | median body bytes read per call | × downloaded again |")
        print("|---|---:|---:|---:|")
        for (index, (label, traffic)) in [
            ("downloaded and decoded again (no validators kept)", downloading), ("revalidated: If-None-Match → 304, decoded value kept", revalidating),
        ].enumerated() {
            print(String(format: "| %@ | %.3f | %d | %.1f× |", label, medians[index] * 1000, traffic.medianBytes, medians[0] / medians[index]))
        }
    }

    /// 100 concurrent identical requests: one shared transfer against 100 transfers.
    static func sharing(baseURL: URL) async throws {
        let shared = Traffic(), separate = Traffic()
        let sharing = APIClient(baseURL: baseURL, eventMonitors: [shared.monitor])
        let apart = APIClient(baseURL: baseURL, eventMonitors: [separate.monitor])
        let endpoint = Endpoint<PlainModelPageData>.get("small.json").envelope(.codeMessageData)
        @Sendable func burst(_ client: APIClient, _ endpoint: Endpoint<PlainModelPageData>) async throws {
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<100 { group.addTask { _ = try await client.send(endpoint) } }
                try await group.waitForAll()
            }
        }
        let rounds = 20
        let medians = try await interleaved(
            [
                Case(label: "separate") { try await burst(apart, endpoint.sharingTransfer(false)) },
                Case(label: "shared") { try await burst(sharing, endpoint) },
            ], rounds: rounds)
        print("\n## 100 concurrent identical GETs of the 20 KB envelope, \(rounds) interleaved rounds")
        print("| calls | median ms for all 100 | requests sent per 100 calls | × separate |")
        print("|---|---:|---:|---:|")
        let calls = rounds + 1
        for (index, (label, traffic)) in [("sent separately (sharesTransfer off)", separate), ("shared (the default)", shared)].enumerated() {
            print(
                String(
                    format: "| %@ | %.3f | %.1f | %.1f× |", label, medians[index] * 1000, Double(traffic.requests) / Double(calls), medians[0] / medians[index])
            )
        }
    }

    /// Peak resident memory over 10,000 sequential calls: it should not grow with the count.
    static func sequentialMemory(baseURL: URL) async throws {
        let client = APIClient(baseURL: baseURL)
        let endpoint = Endpoint<PlainModelPageData>.get("small.json").envelope(.codeMessageData)
        _ = DecodeBench.resetPeakMemory()
        var peaks: [(Int, Int?)] = []
        for count in 1...10_000 {
            _ = try await client.send(endpoint)
            if [100, 1_000, 10_000].contains(count) { peaks.append((count, DecodeBench.peakMemory())) }
        }
        print("\n## Peak RSS over 10,000 sequential calls of the 20 KB envelope")
        print("| after calls | peak RSS |")
        print("|---:|---:|")
        for (count, peak) in peaks {
            print("| \(count) | \(peak.map { String(format: "%.1f MB", Double($0) / 1e6) } ?? "n/a") |")
        }
    }

    /// Small requests on a kept-alive connection: KilnTesting's `FixtureServer` beside nginx.
    static func fixtureLatency(nginx: URL, small: Data) async throws {
        let fixture = try await FixtureServer.start()
        fixture.route(.get, "/small.json", .data(small, contentType: "application/json"))
        fixture.route(.get, "/tiny", .json(["code": "0000", "data": ["ok": true]]))
        let session = URLSession(configuration: .ephemeral)
        let cases = [
            Case(label: "nginx, 20 KB file") { _ = try await session.data(from: nginx.appendingPathComponent("small.json")) },
            Case(label: "FixtureServer, 20 KB body") { _ = try await session.data(from: fixture.baseURL.appendingPathComponent("small.json")) },
            Case(label: "FixtureServer, 30 B envelope") { _ = try await session.data(from: fixture.baseURL.appendingPathComponent("tiny")) },
        ]
        let medians = try await interleaved(cases, rounds: 300)
        print("\n## Small requests, one kept-alive connection per server, 300 interleaved rounds")
        print("| server | median ms | × nginx |")
        print("|---|---:|---:|")
        for (index, item) in cases.enumerated() {
            print(String(format: "| %@ | %.3f | %.2f× |", item.label, medians[index] * 1000, medians[index] / medians[0]))
        }
        await fixture.stop()
    }

    static func makeCases(baseURL: URL, file: String, cacheFolder: URL) throws -> [Case] {
        let session = URLSession(configuration: .ephemeral)
        let url = baseURL.appendingPathComponent(file)
        let plain = APIClient(baseURL: baseURL, envelope: .codeMessageData)
        let cache = ResponseCache(LayeredCache(memory: MemoryCache(costLimit: 64 * 1024 * 1024), disk: DiskCache(directory: cacheFolder)))
        let cached = APIClient(baseURL: baseURL, envelope: .codeMessageData, responseCache: cache)
        let endpoint = Endpoint<PlainModelPageData>.get(file)
        return [
            Case(label: "URLSession data(for:) + Foundation JSONDecoder strict") {
                let (data, _) = try await session.data(for: URLRequest(url: url))
                _ = try JSONDecoder().decode(PlainStrictPage.self, from: data)
            },
            Case(label: "URLSession data(for:) + KilnDecoder") {
                let (data, _) = try await session.data(for: URLRequest(url: url))
                _ = try KilnDecoder().decode(PlainModelPageData.self, from: data, at: "data")
            },
            Case(label: "Kiln send") {
                _ = try await plain.send(endpoint)
            },
            Case(label: "Kiln send, response cache on, network path (revalidated: 304)") {
                _ = try await cached.send(endpoint, policy: .networkOnly)
            },
            Case(label: "Kiln send, response cache on, cache hit") {
                _ = try await cached.send(endpoint, policy: .cacheOnly)
            },
            Case(label: "Kiln send, response cache on, first hit of a new client (decodes the stored bytes)") {
                var relaunched = cached
                relaunched.decoder = cached.decoder // a new decoder: nothing decoded is kept
                _ = try await relaunched.send(endpoint, policy: .cacheOnly)
            },
        ]
    }

    /// Medians of `rounds` rounds in which every case runs once, in turn, after a warm-up.
    static func interleaved(_ cases: [Case], rounds: Int) async throws -> [Double] {
        for item in cases { try await item.call() }
        var times = Array(repeating: [Double](), count: cases.count)
        let clock = ContinuousClock()
        for _ in 0..<rounds {
            for (index, item) in cases.enumerated() {
                let start = clock.now
                try await item.call()
                let elapsed = clock.now - start
                times[index].append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
            }
        }
        return times.map { $0.sorted()[$0.count / 2] }
    }
}

/// nginx started from a configuration of our own, serving one folder on a loopback port.
struct Nginx {
    let process: Process
    let baseURL: URL
    let version: String

    static func executable() -> String? {
        ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/local/bin/nginx", "/opt/homebrew/bin/nginx"]
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    static func start(executable: String, serving root: URL) async throws -> Nginx {
        let prefix = root.appendingPathComponent("nginx")
        try FileManager.default.createDirectory(at: prefix, withIntermediateDirectories: true)
        var lastError = ""
        for _ in 0..<20 {
            let port = Int.random(in: 20_000..<60_000)
            let config = """
                \(getuid() == 0 ? "user root;" : "")
                worker_processes 1;
                daemon off;
                error_log \(prefix.path)/error.log warn;
                pid \(prefix.path)/nginx.pid;
                events { worker_connections 256; }
                http {
                    access_log off;
                    sendfile on;
                    tcp_nodelay on;
                    keepalive_requests 1000000;
                    default_type application/json;
                    client_body_temp_path \(prefix.path)/body;
                    proxy_temp_path \(prefix.path)/proxy;
                    fastcgi_temp_path \(prefix.path)/fastcgi;
                    uwsgi_temp_path \(prefix.path)/uwsgi;
                    scgi_temp_path \(prefix.path)/scgi;
                    server { listen 127.0.0.1:\(port); root \(root.path); }
                }
                """
            let file = prefix.appendingPathComponent("nginx.conf")
            try config.write(to: file, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: executable)
            process.arguments = ["-p", prefix.path, "-c", file.path]
            process.standardError = FileHandle.nullDevice
            try process.run()
            guard let baseURL = URL(string: "http://127.0.0.1:\(port)/") else { continue }
            // Ready when it answers; gone when the port was taken.
            for _ in 0..<100 where process.isRunning {
                if let (_, response) = try? await URLSession.shared.data(from: baseURL.appendingPathComponent("small.json")),
                    let http = response as? HTTPURLResponse
                {
                    return Nginx(process: process, baseURL: baseURL, version: http.value(forHTTPHeaderField: "Server") ?? "nginx")
                }
                try await Task.sleep(for: .milliseconds(50))
            }
            lastError = (try? String(contentsOf: prefix.appendingPathComponent("error.log"), encoding: .utf8)) ?? "no log"
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
        throw NSError(domain: "kiln-bench", code: 1, userInfo: [NSLocalizedDescriptionKey: "nginx did not start: \(lastError)"])
    }

    func stop() {
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
    }
}

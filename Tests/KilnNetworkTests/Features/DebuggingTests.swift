import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
import KilnSupport

/// What a developer reaches for when an API misbehaves: the request as a `curl` line, and every
/// attempt's events.
@Suite("cURL description and event monitors")
struct DebuggingTests {
    /// Answers with what it received, so two ways of sending can be compared.
    static func echo(_ request: FixtureRequest) -> FixtureResponse {
        .json([
            "method": .string(request.method),
            "path": .string(request.path),
            "query": .object(request.query.map { ($0.name, JSONValue.string($0.value ?? "")) }.reduce(into: [:]) { $0[$1.0] = $1.1 }),
            "token": .string(request.header("X-Token") ?? ""),
            "type": .string(request.header("Content-Type") ?? ""),
            "body": .string(String(decoding: request.body, as: UTF8.self)),
        ])
    }

    static let curl = ["/usr/bin/curl", "/bin/curl", "/usr/local/bin/curl", "/opt/homebrew/bin/curl"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// Runs a command line through `/bin/sh` and returns what it printed.
    static func shell(_ command: String) async throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-curl-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: output) }
        process.standardOutput = try FileHandle(forWritingTo: output)
        let (ended, end) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in end.finish() }
        try process.run()
        for await _ in ended {}
        #expect(process.terminationStatus == 0, "\(command)")
        return try Data(contentsOf: output)
    }

    @Test(.enabled(if: curl != nil, "needs curl"))
    func aGetWithQueryHeadersAndABodyPastedIntoCurlGetsTheSameAnswer() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/search") { Self.echo($0) }
            var components = try #require(URLComponents(url: server.baseURL.appendingPathComponent("search"), resolvingAgainstBaseURL: false))
            components.queryItems = [URLQueryItem(name: "q", value: "it's a \"test\" & more"), URLQueryItem(name: "page", value: "2")]
            var request = URLRequest(url: try #require(components.url))
            request.httpMethod = "GET"
            request.setValue("O'Brien $HOME `id`", forHTTPHeaderField: "X-Token")
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = Data(#"{"filter":"it's","n":1}"#.utf8)

            let description = request.cURLDescription
            #expect(description.hasPrefix("curl -X GET '"))
            let answer = try JSONValue(parsing: try await Self.shell(description + " --silent"))
            #expect(
                answer == [
                    "method": "GET", "path": "/search", "query": ["q": "it's a \"test\" & more", "page": "2"],
                    "token": "O'Brien $HOME `id`", "type": "application/json", "body": #"{"filter":"it's","n":1}"#,
                ])
        }
    }

    @Test(.enabled(if: curl != nil, "needs curl"))
    func theClientsDescriptionSendsWhatTheClientSends() async throws {
        try await withFixtureServer { server in
            server.route(.post, "/articles") { Self.echo($0) }
            let client = APIClient(
                baseURL: server.baseURL, envelope: .none,
                interceptors: [CommonParametersInterceptor(["app": "kiln"])], defaultHeaders: ["X-Token": "t0k"])
            let endpoint = Endpoint<JSONValue>.post("/articles", body: try .json(["title": "Hello 'world'"] as JSONValue))
            let sent = try await client.send(endpoint)
            let description = try await client.cURLDescription(for: endpoint)
            let pasted = try JSONValue(parsing: try await Self.shell(description + " --silent"))
            #expect(pasted == sent)
            #expect(sent["body"].string?.contains(#""app":"kiln""#) == true, "the interceptors ran: \(description)")
        }
    }

    @Test func aMonitorSeesEachAttemptItsAnswerAndTheRetry() async throws {
        try await withFixtureServer { server in
            let calls = Counter()
            server.route(.get, "/flaky") { _ in calls.next() == 0 ? .status(503) : .envelope(data: ["ok": true]) }
            let events = EventList()
            let client = APIClient(
                baseURL: server.baseURL,
                envelope: .codeMessageData,
                interceptors: [RetryInterceptor(policy: RetryPolicy(maxRetries: 1, baseDelay: .seconds(1), jitter: 0))],
                sleep: { _ in }, eventMonitors: [EventMonitor { events.append($0) }])
            _ = try await client.send(Endpoint<JSONValue>.get("/flaky"))
            #expect(
                events.summary == [
                    "send 1 /flaky", "response 1 503", "failed 1 http 503", "retry 1 after 1.0 seconds",
                    "send 2 /flaky", "response 2 200",
                ])
            #if canImport(FoundationNetworking)
            #expect(events.metrics.allSatisfy { $0 == nil }, "Linux's Foundation collects no task metrics")
            #else
            #expect(events.metrics.allSatisfy { $0?.transactions.isEmpty == false }, "URLSessionTaskMetrics reach the monitor")
            #endif
        }
    }

    @Test func printingMonitorWritesTheCurlLineAndTheStatus() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/ok", .envelope(data: ["ok": true]))
            let lines = EventList()
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, eventMonitors: [.printing { lines.appendLine($0) }])
            _ = try await client.send(Endpoint<JSONValue>.get("/ok"))
            let written = lines.lines
            #expect(written.count == 2)
            #expect(written.first?.contains("curl '\(server.baseURL.absoluteString)/ok'") == true, "\(written)")
            #expect(written.last?.hasPrefix("← 200 ") == true, "\(written)")
        }
    }
}

/// A thread-safe counter for route handlers.
private final class Counter: Sendable {
    private let count = LockedValue(0)
    func next() -> Int {
        count.withLock { count in
            defer { count += 1 }
            return count
        }
    }
}

/// Events as short lines, in order.
private final class EventList: Sendable {
    private struct State {
        var lines: [String] = []
        var metrics: [TransferMetrics?] = []
    }
    private let state = LockedValue(State())
    var metrics: [TransferMetrics?] { state.withLock { $0.metrics } }

    func append(_ event: APIEvent) {
        let line: String
        switch event {
        case .requestWillSend(let request, let attempt): line = "send \(attempt) \(request.url?.path ?? "")"
        case .responseReceived(_, let head, let attempt, _, let metrics):
            line = "response \(attempt) \(head.status)"
            state.withLock { $0.metrics.append(metrics) }
        case .attemptFailed(_, let error, let attempt, _, _):
            if case .http(let status, _) = error { line = "failed \(attempt) http \(status)" } else { line = "failed \(attempt) \(error)" }
        case .retryScheduled(_, let delay, let attempt): line = "retry \(attempt) after \(delay.map { "\($0)" } ?? "none")"
        case .transferShared(_, let callers): line = "shared by \(callers)"
        }
        appendLine(line)
    }

    func appendLine(_ line: String) { state.withLock { $0.lines.append(line) } }
    var lines: [String] { state.withLock { $0.lines } }
    var summary: [String] { lines }
}

import Foundation
import KilnModel
import KilnNetwork
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@DataModel
struct Tick: Equatable {
    var n = 0
    var text = ""
}

/// Collects a stream's updates until it ends (or `limit` items arrived), and how it ended.
private func collect<Value>(
    _ stream: ResponseStream<Value>, items limit: Int = .max
) async -> (updates: [StreamEvent<Value>], error: APIError?) {
    var updates: [StreamEvent<Value>] = []
    var items = 0
    do {
        for try await update in stream {
            updates.append(update)
            if update.item != nil { items += 1 }
            if items >= limit { break }
        }
        return (updates, nil)
    } catch {
        return (updates, error)
    }
}

private func values<Value>(_ updates: [StreamEvent<Value>]) -> [Value] {
    updates.compactMap { $0.item?.value }
}

/// Server-Sent Events against sse-starlette under uvicorn, a server no one here wrote.
@Suite("Server-Sent Events against sse-starlette", .timeLimit(.minutes(2)))
struct SSEServerTests {
    @Test func eventsArriveDecodedWithTheirTypesAndIDs() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let (updates, error) = await collect(client.events(Endpoint<Tick>.get("/events", query: [.init(name: "count", value: "3")]), reconnection: .never))
            #expect(error == nil)
            guard case .opened(let head)? = updates.first else {
                Issue.record("expected .opened first, got \(updates)")
                return
            }
            #expect(head.status == 200)
            #expect(head.header("Content-Type")?.hasPrefix("text/event-stream") == true)
            let items = updates.compactMap(\.item)
            #expect(items.map { $0.value } == [Tick(n: 1, text: "event 1"), Tick(n: 2, text: "event 2"), Tick(n: 3, text: "event 3")])
            #expect(items.map { $0.event?.type } == ["tick", "tick", "tick"])
            #expect(items.map { $0.event?.id } == ["1", "2", "3"])
            #expect(items.allSatisfy { $0.repairs.isEmpty })
        }
    }

    @Test(arguments: ["close", "abort"])
    func aDroppedStreamReconnectsWithLastEventIDAfterTheServersRetry(mode: String) async throws {
        try await withSSEServer { server in
            let sleeps = SleepRecorder()
            let client = APIClient(baseURL: server.baseURL, sleep: sleeps.sleep)
            let key = "drop-\(mode)"
            let endpoint = Endpoint<Tick>.get(
                "/drop/\(key)",
                query: [
                    .init(name: "total", value: "6"), .init(name: "per", value: "2"),
                    .init(name: "retry", value: "10"), .init(name: "mode", value: mode),
                ])
            let (updates, error) = await collect(client.events(endpoint))
            #expect(error == nil, "204 after the last event ends the stream quietly")
            #expect(values(updates).map(\.n) == [1, 2, 3, 4, 5, 6])
            let interruptions = updates.compactMap { if case .reconnecting(let why) = $0 { why } else { nil } }
            #expect(interruptions.count == 3)
            #expect(interruptions.map(\.attempt) == [1, 1, 1], "an item arrived before each drop")
            #expect(sleeps.delays == [.milliseconds(10), .milliseconds(10), .milliseconds(10)], "the server's retry: time")
            let transportErrors = interruptions.filter { if case .transport(let failure)? = $0.error { failure.reason == .connectionLost } else { false } }
                .count
            let cleanCloses = interruptions.filter { $0.error == nil }.count
            #expect(mode == "abort" ? transportErrors == 3 : cleanCloses == 3, "\(interruptions)")
            let log = try await server.log(key)
            #expect(log == [.lastEventID(nil), .lastEventID("2"), .lastEventID("4"), .lastEventID("6")])
        }
    }

    @Test func reconnectionBacksOffWhileNothingArrivesAndGivesUpAtItsLimit() async throws {
        try await withRefusingPort { url in
            let sleeps = SleepRecorder()
            let client = APIClient(baseURL: url, sleep: sleeps.sleep)
            let policy = Reconnection(initialDelay: .seconds(1), multiplier: 2, maximumDelay: .seconds(5), maximumAttempts: 5)
            let (updates, error) = await collect(client.events(Endpoint<Tick>.get("/events"), reconnection: policy))
            #expect(sleeps.delays == [.seconds(1), .seconds(2), .seconds(4), .seconds(5), .seconds(5)])
            #expect(updates.count == 5)
            guard case .transport(let failure)? = error else {
                Issue.record("expected a transport error after five attempts, got \(String(describing: error))")
                return
            }
            #expect(failure.reason == .cannotConnect)
        }
    }

    @Test func aFailureStatusEndsTheStreamWithTheServersMessage() async throws {
        try await withSSEServer { server in
            let sleeps = SleepRecorder()
            let client = APIClient(baseURL: server.baseURL, sleep: sleeps.sleep)
            let (updates, error) = await collect(client.events(Endpoint<Tick>.get("/failing")))
            #expect(updates.isEmpty)
            guard case .http(503, _)? = error else {
                Issue.record("expected HTTP 503, got \(String(describing: error))")
                return
            }
            #expect(error?.serverMessage == "The stream is closed for maintenance.")
            #expect(sleeps.delays.isEmpty, "a failure status is not reconnected")
        }
    }

    @Test func noContentEndsTheStreamWithoutReconnecting() async throws {
        try await withSSEServer { server in
            let sleeps = SleepRecorder()
            let client = APIClient(baseURL: server.baseURL, sleep: sleeps.sleep)
            let (updates, error) = await collect(client.events(Endpoint<Tick>.get("/nocontent/204")))
            #expect(error == nil)
            #expect(updates.isEmpty)
            #expect(sleeps.delays.isEmpty)
            let log = try await server.log("204")
            #expect(log == [.word("asked")])
        }
    }

    @Test func anUnreadableEventFailsAloneAndRepairsAreLoggedPerEvent() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let (updates, error) = await collect(client.events(Endpoint<Tick>.get("/mixed"), reconnection: .never))
            #expect(error == nil)
            let items = updates.compactMap(\.item)
            #expect(items.count == 4)
            guard items.count == 4 else { return }
            #expect(items[0].value == Tick(n: 1, text: "fine"))
            #expect(items[0].repairs.isEmpty)
            #expect(items[1].value == Tick(n: 2, text: ""))
            #expect(Set(items[1].repairs.map(\.path)) == ["n", "text"], "\(items[1].repairs)")
            guard case .failure(.decoding)? = items[2].result as Result<Tick, APIError>? else {
                Issue.record("expected a decoding failure for the third event, got \(items[2].result)")
                return
            }
            #expect(items[2].event?.data == "{not json")
            #expect(items[3].value == Tick(n: 4, text: "fine again"))
        }
    }

    @Test func eventBoundariesHoldWhenTheServerWritesOneByteAtATime() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let (updates, error) = await collect(client.events(Endpoint<ServerSentEvent>.get("/bytewise"), reconnection: .never))
            #expect(error == nil)
            #expect(values(updates) == SSEExamples.bytewiseEvents)
        }
    }

    @Test func theFirstEventArrivesBeforeTheServerHasSentTheRest() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            var iterator = client.events(Endpoint<Tick>.get("/gated/first"), reconnection: .never).makeAsyncIterator()
            guard case .opened? = try await iterator.next() else {
                Issue.record("expected .opened")
                return
            }
            // The server holds the second event until it is released: the first must be here now.
            let first = try await iterator.next()
            #expect(first?.item?.value?.n == 1)
            try await server.release("first")
            let second = try await iterator.next()
            #expect(second?.item?.value?.n == 2)
            #expect(try await iterator.next() == nil)
            let log = try await server.log("first")
            #expect(log == [.word("released")], "the first event arrived before the server was told to send the second")
        }
    }

    @Test(arguments: [true, false])
    func leavingTheLoopClosesTheConnection(byCancelling: Bool) async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let key = byCancelling ? "cancel" : "break"
            let (firstItem, arrived) = AsyncStream<Void>.makeStream()
            let reader = Task {
                var items = 0
                for try await update in client.events(Endpoint<Tick>.get("/hold/\(key)").timeout(60), reconnection: .never) {
                    guard update.item != nil else { continue }
                    items += 1
                    arrived.yield()
                    if !byCancelling { break }
                }
                return items
            }
            for await _ in firstItem { break }
            if byCancelling { reader.cancel() }
            let outcome = await reader.result
            if byCancelling {
                #expect(throws: APIError.cancelled) { try outcome.get() }
            } else {
                #expect(try outcome.get() == 1)
            }
            // The server notices the closed connection on its next write (every 20 ms).
            var log: [ServerLogEntry] = []
            for _ in 0..<500 {
                log = try await server.log(key)
                if log.count > 1 { break }
                try await Task.sleep(for: .milliseconds(20))
            }
            #expect(log == [.word("connected"), .word("disconnected")])
        }
    }

    @Test func tenThousandEventsStreamWithFlatMemory() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            let endpoint = Endpoint<ServerSentEvent>.get(
                "/many", query: [.init(name: "n", value: "10000"), .init(name: "size", value: "8000"), .init(name: "rate", value: "20000000")])
            var count = 0
            let residentBefore = residentBytes()
            var peak = 0
            for try await update in client.events(endpoint, reconnection: .never) {
                guard update.item != nil else { continue }
                count += 1
                if count % 250 == 0 { peak = max(peak, residentBytes()) }
            }
            #expect(count == 10_000)
            // 80 MB pass through at 20 MB/s, as a busy live feed sends them: held at any point (the
            // whole body, or the events read so far), they would add that much to what the
            // process had before the request.
            let growth = peak - residentBefore
            #expect(growth < 32 * 1024 * 1024, "resident memory grew by \(growth) bytes while 80 MB streamed")
        }
    }
}

/// The resident set size of this process, in bytes (0 where it cannot be read).
func residentBytes() -> Int {
    #if os(Linux)
    guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
    let fields = statm.split(separator: " ")
    guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    #else
    var info = mach_task_basic_info()
    var count = mach_msg_type_number_t(MemoryLayout<mach_task_basic_info>.size / MemoryLayout<natural_t>.size)
    let result = withUnsafeMutablePointer(to: &info) {
        $0.withMemoryRebound(to: integer_t.self, capacity: Int(count)) { task_info(mach_task_self_, task_flavor_t(MACH_TASK_BASIC_INFO), $0, &count) }
    }
    return result == KERN_SUCCESS ? Int(info.resident_size) : 0
    #endif
}

/// What the `/bytewise` route sends, as the standard dispatches it.
enum SSEExamples {
    static let bytewiseEvents = [
        ServerSentEvent(type: "greeting", data: "{\"n\": 1,\n \"text\": \"two lines\"}", id: "7"),
        ServerSentEvent(data: "{\"n\": 2, \"text\": \"no space after the colon\"}", id: "7"),
        ServerSentEvent(data: "", id: "7"),
        ServerSentEvent(data: "{\"n\": 3, \"text\": \"caf\u{e9} \u{2603}\"}", id: "8"),
    ]
}

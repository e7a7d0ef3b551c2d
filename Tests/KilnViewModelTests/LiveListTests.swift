import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing
import KilnSupport

@DataModel
struct LiveMessage: Equatable {
    var id = 0
    var text = ""
}

/// Hands out the stub's answers one call at a time, when the test says so.
private final class AnswerGate: Sendable {
    private struct State {
        var waiting: [CheckedContinuation<FixtureResponse, Never>] = []
        var calls = 0
    }
    private let state = LockedValue(State())

    var callCount: Int { state.withLock { $0.calls } }

    func next() async -> FixtureResponse {
        await withCheckedContinuation { continuation in
            state.withLock {
                $0.calls += 1
                $0.waiting.append(continuation)
            }
        }
    }

    /// Answers the oldest waiting call; `false` if none waits yet.
    func answer(_ response: FixtureResponse) -> Bool {
        let continuation: CheckedContinuation<FixtureResponse, Never>? = state.withLock {
            $0.waiting.isEmpty ? nil : $0.waiting.removeFirst()
        }
        continuation?.resume(returning: response)
        return continuation != nil
    }
}

private func events(_ text: String) -> FixtureResponse {
    FixtureResponse(headers: ["Content-Type": "text/event-stream"], body: .data(Data(text.utf8)))
}

@MainActor
@Suite("LiveList")
struct LiveListTests {
    private func makeClient(_ gate: AnswerGate) -> APIClient {
        let stub = StubTransport()
        stub.on(.get, "/live") { _ in await gate.next() }
        return APIClient(baseURL: URL(string: "https://api.example.com")!, transport: stub, sleep: { _ in })
    }

    @Test func itemsArriveThroughEveryStateToTheEnd() async {
        let gate = AnswerGate()
        let client = makeClient(gate)
        let list = LiveList(keepingLast: nil) {
            client.events(Endpoint<LiveMessage>.get("/live"))
        } makeItem: {
            "\($0.id): \($0.text)"
        }
        #expect(list.state == .idle)
        let running = Task { await list.start() }
        #expect(await eventually { gate.callCount == 1 })
        #expect(list.state == .connecting)

        #expect(gate.answer(events("retry: 5\nid: 1\ndata: {\"id\": 1, \"text\": \"hi\"}\n\ndata: {oops\n\nid: 2\ndata: {\"id\": \"2\"}\n\n")))
        // The body ended: the stream connects again, sending the last ID.
        #expect(await eventually { gate.callCount == 2 })
        #expect(list.items == ["1: hi", "2: "])
        #expect(list.unreadableItems == 1)
        #expect(list.state == .reconnecting(attempt: 1, failure: nil))

        #expect(gate.answer(.status(204)))
        await running.value
        #expect(list.state == .ended)
        #expect(list.items == ["1: hi", "2: "])
    }

    @Test func aFailureStatusFailsTheListAndKeepsItsItems() async {
        let gate = AnswerGate()
        let client = makeClient(gate)
        let list = LiveList { client.events(Endpoint<LiveMessage>.get("/live")) }
        let running = Task { await list.start() }
        #expect(await eventually { gate.callCount == 1 })
        #expect(gate.answer(events("data: {\"id\": 7}\n\n")))
        #expect(await eventually { gate.callCount == 2 })
        #expect(gate.answer(.status(500, body: #"{"message": "down"}"#)))
        await running.value
        #expect(list.items == [LiveMessage(id: 7)])
        #expect(list.state == .failed(.http(status: 500)))
    }

    @Test func keepingTheLastNDropsTheOldest() async {
        let gate = AnswerGate()
        let client = makeClient(gate)
        let list = LiveList(keepingLast: 3) { client.jsonLines(Endpoint<LiveMessage>.get("/live")) }
        let running = Task { await list.start() }
        #expect(await eventually { gate.callCount == 1 })
        let lines = (1...10).map { "{\"id\": \($0)}" }.joined(separator: "\n")
        #expect(gate.answer(FixtureResponse(body: .data(Data(lines.utf8)))))
        await running.value
        #expect(list.items.map(\.id) == [8, 9, 10])
        #expect(list.state == .ended)
    }

    @Test func stoppingEndsTheStreamAndALateAnswerNeverLands() async {
        let gate = AnswerGate()
        let client = makeClient(gate)
        let list = LiveList { client.events(Endpoint<LiveMessage>.get("/live")) }
        let running = Task { await list.start() }
        #expect(await eventually { gate.callCount == 1 })
        list.stop()
        #expect(list.state == .ended)
        _ = gate.answer(events("data: {\"id\": 1}\n\n"))
        await running.value
        #expect(list.items.isEmpty)
        #expect(list.state == .ended)
    }
}

import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
import KilnSupport

@Suite("TestClock and eventually", .timeLimit(.minutes(1)))
struct TestClockTests {
    @Test func aSleeperWakesOnlyWhenTheClockPassesItsDeadline() async throws {
        let clock = TestClock()
        let woke = Recorder<Duration>()
        let sleeper = Task {
            try await clock.sleep(for: .seconds(5))
            woke.append(clock.now.offset)
        }
        await clock.waitForSleepers(count: 1)
        clock.advance(by: .seconds(4))
        #expect(clock.sleeperCount == 1, "4 s is not 5 s")
        #expect(woke.entries.isEmpty)
        clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(woke.entries == [.seconds(5)])
        #expect(clock.date == Date(timeIntervalSince1970: 1_700_000_005))
    }

    @Test func cancellingASleeperEndsItsSleep() async {
        let clock = TestClock()
        let sleeper = Task { try await clock.sleep(for: .seconds(60)) }
        await clock.waitForSleepers(count: 1)
        sleeper.cancel()
        let result = await sleeper.result
        #expect(throws: CancellationError.self) { try result.get() }
        #expect(clock.sleeperCount == 0)
    }

    @Test func aClientsRetryDelaysRunOnTheTestClock() async throws {
        try await withFixtureServer { server in
            let attempts = Recorder<Int>()
            server.route(.get, "/flaky") { _ in
                attempts.append(attempts.entries.count)
                return attempts.entries.count < 3 ? .status(503) : .envelope(data: ["ok": true])
            }
            let clock = TestClock()
            var client = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData,
                interceptors: [RetryInterceptor(policy: RetryPolicy(maxRetries: 2, baseDelay: .seconds(2)))])
            client.sleep = { try await clock.sleep(for: $0) }
            let call = Task { [client] in try await client.send(Endpoint<JSONValue>.get("/flaky")) }
            await clock.waitForSleepers(count: 1)
            #expect(attempts.entries.count == 1, "the second attempt waits for the clock")
            clock.advance(by: .seconds(60))
            await clock.waitForSleepers(count: 1)
            clock.advance(by: .seconds(60))
            let answer = try await call.value
            #expect(answer == ["ok": true])
            #expect(attempts.entries.count == 3)
        }
    }

    @Test func eventuallyIsFalseWhenTheConditionNeverHolds() async {
        #expect(await eventually(timeout: .milliseconds(50)) { false } == false)
        #expect(await eventually { true })
    }
}

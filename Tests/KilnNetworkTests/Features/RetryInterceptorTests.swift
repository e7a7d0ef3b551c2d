import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("RetryInterceptor")
struct RetryInterceptorTests {
    func client(_ server: FixtureServer, recorder: SleepRecorder, maxRetries: Int = 2) -> APIClient {
        APIClient(
            baseURL: server.baseURL,
            envelope: .codeMessageData,
            interceptors: [RetryInterceptor(policy: RetryPolicy(maxRetries: maxRetries, baseDelay: .milliseconds(100)))],
            sleep: recorder.sleep
        )
    }

    @Test func retriesAreCountedAndBounded() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/flaky", .status(503))
            let recorder = SleepRecorder()
            let error = await failure { try await client(server, recorder: recorder).send(Endpoint<Int>.get("/flaky")) }
            #expect(error == .http(status: 503, body: Data()))
            #expect(server.requests(to: "/flaky").count == 3)
            #expect(recorder.delays.count == 2)
        }
    }

    @Test func transientFailuresRecover() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/flaky", sequence: [.status(503), .status(500), .envelope(data: 7)])
            let recorder = SleepRecorder()
            let response = try await client(server, recorder: recorder).response(for: Endpoint<Int>.get("/flaky"))
            #expect(response.value == 7)
            #expect(response.attempts == 3)
            #expect(recorder.delays.count == 2)
        }
    }

    @Test func droppedConnectionIsRetried() async throws {
        try await withFixtureServer { server in
            server.route(
                .get, "/flaky",
                sequence: [
                    .envelope(data: messagesFixture).droppingConnection(afterBytes: 10),
                    .envelope(data: messagesFixture),
                ])
            let recorder = SleepRecorder()
            let response = try await client(server, recorder: recorder).response(for: Endpoint<MessagePage>.get("/flaky"))
            #expect(response.value.list.count == 2)
            #expect(response.attempts == 2)
        }
    }

    @Test func nonRetrySafeRequestsAreNeverRetried() async throws {
        try await withFixtureServer { server in
            server.route(.post, "/orders", .status(503))
            let recorder = SleepRecorder()
            let error = await failure {
                try await client(server, recorder: recorder).send(Endpoint<Int>.post("/orders", body: .form([("item", "1")])))
            }
            #expect(error == .http(status: 503, body: Data()))
            #expect(server.requests(to: "/orders").count == 1)
            #expect(recorder.delays.isEmpty)
        }
    }

    @Test func clientErrorsAreNotRetried() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/bad", .status(400))
            let recorder = SleepRecorder()
            _ = await failure { try await client(server, recorder: recorder).send(Endpoint<Int>.get("/bad")) }
            #expect(server.requests(to: "/bad").count == 1)
        }
    }

    @Test func retryAfterIsHonoured() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/busy", sequence: [.status(429, headers: ["Retry-After": "2"]), .envelope(data: 1)])
            let recorder = SleepRecorder()
            let value = try await client(server, recorder: recorder).send(Endpoint<Int>.get("/busy"))
            #expect(value == 1)
            #expect(recorder.delays == [.seconds(2)])
        }
    }

    @Test func backoffGrowsExponentiallyWithinJitter() {
        let policy = RetryPolicy(baseDelay: .milliseconds(100), multiplier: 2, maxDelay: .milliseconds(350), jitter: 0.5)
        for _ in 0..<50 {
            let first = policy.delay(forRetry: 1)
            let second = policy.delay(forRetry: 2)
            let third = policy.delay(forRetry: 3)
            #expect(first >= .milliseconds(50) && first <= .milliseconds(100))
            #expect(second >= .milliseconds(100) && second <= .milliseconds(200))
            #expect(third >= .milliseconds(175) && third <= .milliseconds(350))
        }
        let exact = RetryPolicy(baseDelay: .milliseconds(100), jitter: 0)
        #expect(exact.delay(forRetry: 3) == .milliseconds(400))
        #expect(exact.delay(forRetry: 1, retryAfter: .seconds(60)) == .seconds(10))
    }

    @Test func retryAfterParsesSecondsAndDates() {
        #expect(RetryPolicy.parseRetryAfter("3") == .seconds(3))
        #expect(RetryPolicy.parseRetryAfter("Wed, 21 Oct 2015 07:28:00 GMT") == .zero)
        #expect(RetryPolicy.parseRetryAfter("soon") == nil)
    }
}

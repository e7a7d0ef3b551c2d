import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("AuthInterceptor")
struct AuthInterceptorTests {
    @Test func concurrent401sRefreshOnce() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/me") { request in
                request.header("Authorization") == "Bearer fresh"
                    ? .envelope(data: ["name": "Ada"])
                    : .status(401, body: "expired")
            }
            server.route(.post, "/refresh", .envelope(data: ["token": "fresh"]).delayed(by: .milliseconds(200)))
            let plain = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let session = AuthSession(token: "stale") {
                // Generous timeouts: under a sanitizer on a busy 2-core machine, 21 requests may queue.
                let reply = try await plain.send(Endpoint<JSONValue>.post("/refresh", body: .none).timeout(60))
                return reply["token"].string ?? ""
            }
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [AuthInterceptor(session: session)])

            let names = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<20 {
                    group.addTask { try await client.send(Endpoint<JSONValue>.get("/me").timeout(60))["name"].string ?? "" }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(names == Array(repeating: "Ada", count: 20))
            #expect(server.requests(to: "/refresh").count == 1)
            #expect(await session.refreshCount == 1)
        }
    }

    @Test func failedRefreshFailsWithThe401() async throws {
        struct RefreshFailed: Error {}
        try await withFixtureServer { server in
            server.route(.get, "/me", .status(401))
            let session = AuthSession(token: "stale") { throw RefreshFailed() }
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [AuthInterceptor(session: session)])
            let error = await failure { try await client.send(Endpoint<JSONValue>.get("/me")) }
            #expect(error == .http(status: 401, body: Data()))
            #expect(server.requests(to: "/me").count == 1)
        }
    }

    @Test func repeated401IsNotRetriedForever() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/me", .status(401))
            let session = AuthSession(token: "a") { "b" }
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [AuthInterceptor(session: session)])
            let error = await failure { try await client.send(Endpoint<JSONValue>.get("/me")) }
            #expect(error == .http(status: 401, body: Data()))
            #expect(server.requests(to: "/me").count == 2)
            #expect(server.requests(to: "/me").map { $0.header("Authorization") } == ["Bearer a", "Bearer b"])
        }
    }
}

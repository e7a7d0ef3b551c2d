import Foundation
import KilnCache
import KilnNetworkCache
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

/// Every policy against a server that is up, slow (answers after 300 ms) or down, with a cache
/// that holds a 10-second-old answer and with an empty one: the exact origins delivered, how the
/// call ended, and whether the server was asked at all.
@Suite struct CachePolicyMatrixTests {
    enum ServerState: String, CaseIterable, CustomStringConvertible {
        case up, slow, down
        var description: String { rawValue }
    }

    /// What one policy does in one situation. `asked` is whether the server got a request
    /// (`nil` when the server is down: nothing can be counted).
    struct Outcome: Equatable, CustomStringConvertible {
        var origins: [String]
        var error: String?
        var asked: Bool?

        var description: String {
            "\(origins) \(error ?? "ok")" + (asked.map { $0 ? ", asked the server" : ", did not ask the server" } ?? "")
        }
    }

    static let policies: [(name: String, policy: CachePolicy)] = [
        ("networkOnly", .networkOnly),
        ("cacheOnly", .cacheOnly),
        ("cacheElseNetwork(maxAge: 60)", .cacheElseNetwork(maxAge: 60)),
        ("cacheElseNetwork(maxAge: 5)", .cacheElseNetwork(maxAge: 5)),
        ("networkElseCache", .networkElseCache),
        ("cacheThenNetwork", .cacheThenNetwork),
    ]

    static func ok(_ origins: String...) -> Outcome { Outcome(origins: origins, error: nil, asked: origins.contains("network")) }
    static func down(_ origins: String..., error: String? = "transport") -> Outcome { Outcome(origins: origins, error: error, asked: nil) }
    static let offline = down()
    static let notCached = Outcome(origins: [], error: "notCached", asked: false)

    /// With a cached answer 10 seconds old.
    static let warm: [String: [ServerState: Outcome]] = [
        "networkOnly": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "cacheOnly": [.up: ok("cache"), .slow: ok("cache"), .down: down("cache", error: nil)],
        "cacheElseNetwork(maxAge: 60)": [.up: ok("cache"), .slow: ok("cache"), .down: down("cache", error: nil)],
        "cacheElseNetwork(maxAge: 5)": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "networkElseCache": [.up: ok("network"), .slow: ok("network"), .down: down("cache", error: nil)],
        "cacheThenNetwork": [
            .up: ok("cache", "network"), .slow: ok("cache", "network"),
            .down: down("cache"),
        ],
    ]

    /// With nothing cached.
    static let cold: [String: [ServerState: Outcome]] = [
        "networkOnly": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "cacheOnly": [.up: notCached, .slow: notCached, .down: down(error: "notCached")],
        "cacheElseNetwork(maxAge: 60)": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "cacheElseNetwork(maxAge: 5)": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "networkElseCache": [.up: ok("network"), .slow: ok("network"), .down: offline],
        "cacheThenNetwork": [.up: ok("network"), .slow: ok("network"), .down: offline],
    ]

    let endpoint = Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "page", value: "1")])
    let messages: JSONValue = ["list": [["id": 1, "title": "hello"]], "hasMore": false]

    @Test(arguments: [true, false])
    func everyPolicyWithTheServerUpSlowAndDown(cacheIsWarm: Bool) async throws {
        let expected = cacheIsWarm ? Self.warm : Self.cold
        let stopped = try await FixtureServer.start()
        let downURL = stopped.baseURL
        await stopped.stop()
        try await withFixtureServer { server in
            for state in ServerState.allCases {
                for (name, policy) in Self.policies {
                    server.route(.get, "/messages", .envelope(data: messages))
                    let clock = TestClock()
                    let cache = MemoryCache(clock: clock.cacheClock)
                    let responseCache = ResponseCache(cache, clock: clock.cacheClock)
                    if cacheIsWarm {
                        let filler = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, responseCache: responseCache)
                        _ = try await filler.send(endpoint, policy: .networkOnly)
                        clock.advance(by: .seconds(10))
                    }
                    if state == .slow {
                        server.route(.get, "/messages", .envelope(data: messages).delayed(by: .milliseconds(300)))
                    }
                    let asked = server.requests(to: "/messages").count
                    let client = APIClient(
                        baseURL: server.baseURL,
                        envelope: .codeMessageData,
                        interceptors: state == .down ? [UnreachableNetwork(address: downURL)] : [],
                        responseCache: responseCache)
                    var outcome = await run(client, policy)
                    outcome.asked = state == .down ? nil : server.requests(to: "/messages").count > asked
                    #expect(outcome == expected[name]?[state], "\(name), server \(state), cache \(cacheIsWarm ? "warm" : "empty")")
                }
            }
        }
    }

    /// The origins delivered and how the sequence ended.
    func run(_ client: APIClient, _ policy: CachePolicy) async -> Outcome {
        var origins: [String] = []
        do {
            for try await value in client.values(for: endpoint, policy: policy) {
                origins.append(value.origin.isCached ? "cache" : "network")
            }
            return Outcome(origins: origins, error: nil, asked: nil)
        } catch let error as APIError {
            let name: String
            switch error {
            case .transport: name = "transport"
            case .notCached: name = "notCached"
            default: name = "\(error)"
            }
            return Outcome(origins: origins, error: name, asked: nil)
        } catch {
            return Outcome(origins: origins, error: "not an APIError: \(error)", asked: nil)
        }
    }
}

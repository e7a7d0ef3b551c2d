import Foundation
import KilnCache
import KilnNetworkCache
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
import KilnSupport

extension TestClock {
    /// The clock as a cache's date source.
    var cacheClock: CacheClock { CacheClock { [self] in date } }
}

@Suite struct APIClientCachingTests {
    let messages: JSONValue = ["list": [["id": 1, "title": "hello"]], "hasMore": false]
    let endpoint = Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "page", value: "1")])

    func client(_ server: FixtureServer, cache: (any Cache)? = nil, clock: TestClock = TestClock()) -> APIClient {
        let store = cache ?? MemoryCache(clock: clock.cacheClock)
        return APIClient(baseURL: server.baseURL, envelope: .codeMessageData, responseCache: ResponseCache(store, clock: clock.cacheClock))
    }

    /// The key `client`'s response cache stores `endpoint` under.
    func key(_ client: APIClient, _ endpoint: Endpoint<MessagePage>) throws -> CacheKey {
        let cache = try #require(client.responseCache as? ResponseCache)
        return cache.key(for: try #require(client.cacheableRequest(for: endpoint)))
    }

    /// The origins a policy delivered, and how it ended.
    func origins(_ client: APIClient, _ policy: CachePolicy, endpoint: Endpoint<MessagePage>? = nil) async -> (origins: [String], error: APIError?) {
        var seen: [String] = []
        do {
            for try await value in client.values(for: endpoint ?? self.endpoint, policy: policy) {
                seen.append(value.origin.isCached ? "cache" : "network")
            }
            return (seen, nil)
        } catch let error as APIError {
            return (seen, error)
        } catch {
            Issue.record("not an APIError: \(error)")
            return (seen, nil)
        }
    }

    @Test func networkOnlyStoresWhatCacheOnlyThenFinds() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messages))
            let client = client(server)
            #expect(await origins(client, .cacheOnly).error == .notCached)
            #expect(await origins(client, .networkOnly).origins == ["network"])
            let cached = try await client.send(endpoint, policy: .cacheOnly)
            #expect(cached.value.list.first?.title == "hello")
            #expect(cached.origin.isCached)
        }
    }

    @Test func cacheElseNetworkHonoursMaxAge() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messages))
            let clock = TestClock()
            let client = client(server, clock: clock)
            #expect(await origins(client, .cacheElseNetwork(maxAge: 60)).origins == ["network"])
            clock.advance(by: .seconds(30))
            #expect(await origins(client, .cacheElseNetwork(maxAge: 60)).origins == ["cache"])
            #expect(server.requests(to: "/messages").count == 1)
            clock.advance(by: .seconds(31))
            #expect(await origins(client, .cacheElseNetwork(maxAge: 60)).origins == ["network"])
            #expect(server.requests(to: "/messages").count == 2)
        }
    }

    @Test func cacheThenNetworkWithTheServerUpDownAndRefusing() async throws {
        let clock = TestClock()
        let cache = MemoryCache(clock: clock.cacheClock)
        var serverURL: URL?
        try await withFixtureServer { server in
            serverURL = server.baseURL
            server.route(.get, "/messages", .envelope(data: messages))
            let client = client(server, cache: cache, clock: clock)
            let first = await origins(client, .cacheThenNetwork)
            #expect(first.origins == ["network"] && first.error == nil, "an empty cache goes straight to the network")
            let second = await origins(client, .cacheThenNetwork)
            #expect(second.origins == ["cache", "network"] && second.error == nil)
        }
        // The same cache and the same URL, the server gone: the cached value still arrives, then the failure.
        let baseURL = try #require(serverURL)
        let offline = APIClient(baseURL: baseURL, envelope: .codeMessageData, responseCache: ResponseCache(cache, clock: clock.cacheClock))
        let result = await origins(offline, .cacheThenNetwork)
        #expect(result.origins == ["cache"])
        guard case .transport? = result.error else {
            Issue.record("expected a transport failure, got \(String(describing: result.error))")
            return
        }
        #expect(await origins(offline, .networkElseCache).origins == ["cache"], "offline falls back to the cache")
    }

    @Test(.timeLimit(.minutes(1)))
    func cachedValueArrivesBeforeTheServerAnswers() async throws {
        try await withFixtureServer { server in
            let log = Recorder<String>()
            server.route(.get, "/messages", .envelope(data: messages))
            let client = client(server)
            _ = try await client.send(endpoint, policy: .networkOnly)
            // The server answers only once the cached value was delivered: a client that waited
            // for the network first would never get an answer.
            let cacheShown = AsyncStream<Void>.makeStream()
            server.route(.get, "/messages") { _ in
                for await _ in cacheShown.stream { break }
                log.append("server answered")
                return .envelope(data: ["list": [["id": 2, "title": "fresh"]], "hasMore": false])
            }
            for try await value in client.values(for: endpoint, policy: .cacheThenNetwork) {
                log.append("\(value.origin.isCached ? "cache" : "network"): \(value.value.list.first?.title ?? "")")
                if value.origin.isCached { cacheShown.continuation.yield() }
            }
            #expect(log.entries == ["cache: hello", "server answered", "network: fresh"])
        }
    }

    @Test func onlySuccessfulAnswersAreStored() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: .null, code: "1001", message: "token expired"))
            let client = client(server)
            #expect(await origins(client, .networkOnly).error == .server(code: "1001", message: "token expired"))
            #expect(await origins(client, .cacheOnly).error == .notCached)
            server.route(.get, "/messages", .envelope(data: "not a page"))
            guard case .decoding? = await origins(client, .networkOnly).error else {
                Issue.record("expected a decoding failure")
                return
            }
            #expect(await origins(client, .cacheOnly).error == .notCached)
        }
    }

    @Test func serverRefusalDoesNotFallBackToTheCache() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", sequence: [.envelope(data: messages), .envelope(data: .null, code: "1001", message: "no")])
            let client = client(server)
            #expect(await origins(client, .networkElseCache).origins == ["network"])
            let refused = await origins(client, .networkElseCache)
            #expect(refused.origins == [] && refused.error == .server(code: "1001", message: "no"))
        }
    }

    @Test func volatileParametersShareOneEntry() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messages))
            let client = client(server)
            let first = Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "page", value: "1"), URLQueryItem(name: "timestamp", value: "111")])
            let second = Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "timestamp", value: "222"), URLQueryItem(name: "page", value: "1")])
            #expect(try key(client, first) == key(client, second))
            _ = try await client.send(first, policy: .networkOnly)
            #expect(await origins(client, .cacheOnly, endpoint: second).origins == ["cache"])
            let otherPage = Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "page", value: "2")])
            #expect(await origins(client, .cacheOnly, endpoint: otherPage).error == .notCached)
        }
    }

    @Test func survivesOnDiskAcrossClients() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: folder) }
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messages))
            _ = try await client(server, cache: DiskCache(directory: folder)).send(endpoint, policy: .networkOnly)
            let reopened = client(server, cache: DiskCache(directory: folder))
            let cached = try await reopened.send(endpoint, policy: .cacheOnly)
            #expect(cached.value.list.map(\.id) == [1])
        }
    }

    @Test func aCachedEntryThatNoLongerDecodesIsAMiss() async throws {
        try await withFixtureServer { server in
            let cache = MemoryCache()
            let client = client(server, cache: cache)
            let key = try key(client, endpoint)
            cache.set(Data("[1, 2".utf8), forKey: key)
            #expect(await origins(client, .cacheOnly).error == .notCached)
            #expect(cache.value(forKey: key) == nil, "the unreadable entry was removed")
        }
    }
}

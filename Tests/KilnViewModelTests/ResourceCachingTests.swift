import Foundation
import KilnCache
import KilnNetworkCache
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing

/// `Resource(client:endpoint:policy:)` over the real response cache and a stub server.
@MainActor
@Suite("Resource with a cache policy")
struct ResourceCachingTests {
    @Test func cachedValueFirstThenFreshOneThenOfflineKeepsIt() async {
        let stub = StubTransport()
        let calls = FixtureCounter()
        let gate = Gate()
        stub.on(.get, "/articles/1") { _ in
            switch calls.next() {
            case 0: return .envelope(data: articleJSON(1, "v0"))
            case 1:
                await gate.wait()
                return .envelope(data: articleJSON(1, "v1"))
            default: throw URLError(.notConnectedToInternet)
            }
        }
        let clock = TestClock()
        var client = stubClient(stub)
        client.responseCache = ResponseCache(MemoryCache(clock: CacheClock { clock.date }), clock: CacheClock { clock.date })

        // First visit: nothing cached, the network answers.
        let first = Resource(client: client, endpoint: .article(id: 1), policy: .cacheThenNetwork)
        await first.load()
        #expect(first.value?.title == "v0")
        #expect(first.origin == .network)

        // A minute later, a new screen: the cached article at once, then the fresh one.
        clock.advance(by: .seconds(60))
        let second = Resource(client: client, endpoint: .article(id: 1), policy: .cacheThenNetwork)
        let loading = Task { await second.load() }
        #expect(await eventually { second.value != nil })
        #expect(second.state == .loading(previous: makeArticle(1, "v0")))
        #expect(second.origin == .cache(age: 60))
        gate.open()
        await loading.value
        #expect(second.state == .loaded(makeArticle(1, "v1")))
        #expect(second.origin == .network)

        // Offline: the cached (now v1) article stays, with the failure beside it.
        await second.refresh()
        #expect(second.value?.title == "v1")
        #expect(second.failure?.isNetworkFailure == true)
        #expect(second.origin == .cache(age: 0))
    }

    @Test func aRevalidatedValueEndsTheLoadAsLoaded() async throws {
        let stub = StubTransport()
        stub.on(.get, "/articles/2") { request in
            // The server's own validator: an unchanged article is a 304 with no body.
            if request.header("If-None-Match") == "\"v0\"" { return .status(304, headers: ["ETag": "\"v0\""]) }
            return FixtureResponse.envelope(data: articleJSON(2, "v0")).headers(["ETag": "\"v0\""])
        }
        var client = stubClient(stub)
        client.responseCache = ResponseCache(MemoryCache())
        let first = Resource(client: client, endpoint: .article(id: 2), policy: .cacheThenNetwork)
        await first.load()
        #expect(first.origin == .network)

        let second = Resource(client: client, endpoint: .article(id: 2), policy: .cacheThenNetwork)
        await second.load()
        #expect(second.state == .loaded(makeArticle(2, "v0")))
        #expect(second.origin == .revalidated)
        #expect(stub.requests.map { $0.header("If-None-Match") } == [nil, "\"v0\""])
    }

    @Test func cacheOnlyMissIsAFailureNotACrash() async {
        let client = stubClient(StubTransport())
        var cached = client
        cached.responseCache = ResponseCache(MemoryCache())
        let resource = Resource(client: cached, endpoint: .article(id: 9), policy: .cacheOnly)
        await resource.load()
        #expect(resource.value == nil)
        #expect(resource.failure != nil)
    }
}

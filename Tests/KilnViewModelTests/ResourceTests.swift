import Foundation
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing
import KilnSupport

@MainActor
@Suite("Resource")
struct ResourceTests {
    /// A loader the test drives by hand: each load hands the test a continuation.
    final class ManualLoader<Value: Sendable>: Sendable {
        private struct State {
            var continuations: [AsyncThrowingStream<Sourced<Value>, any Error>.Continuation] = []
            var terminated = 0
        }
        private let state = LockedValue(State())

        var load: SourcedStream<Value> {
            { [state] in
                let (stream, continuation) = AsyncThrowingStream.makeStream(of: Sourced<Value>.self)
                continuation.onTermination = { _ in state.withLock { $0.terminated += 1 } }
                state.withLock { $0.continuations.append(continuation) }
                return stream
            }
        }

        var loads: Int { state.withLock { $0.continuations.count } }
        var terminated: Int { state.withLock { $0.terminated } }
        func latest() -> AsyncThrowingStream<Sourced<Value>, any Error>.Continuation? {
            state.withLock { $0.continuations.last }
        }
    }

    @Test func cacheThenNetworkStateSequence() async {
        let loader = ManualLoader<String>()
        let resource = Resource(load: loader.load)
        var seen: [Loadable<String>] = []
        let token = observeChanges { seen.append(resource.state) }
        #expect(resource.state == .idle)

        let loading = Task { await resource.load() }
        #expect(await eventually { loader.loads == 1 })
        #expect(resource.state == .loading(previous: nil))
        #expect(resource.origin == nil)
        // Changes close together are one call of the observer: each state is seen before the next.
        #expect(await eventually { seen.last == .loading(previous: nil) })

        loader.latest()?.yield(Sourced(value: "cached", origin: .cache(age: 120)))
        #expect(await eventually { resource.value == "cached" })
        #expect(resource.state == .loading(previous: "cached"))
        #expect(resource.state.isRefreshing)
        #expect(resource.origin == .cache(age: 120))
        #expect(await eventually { seen.last == .loading(previous: "cached") })

        loader.latest()?.yield(Sourced(value: "fresh", origin: .network))
        loader.latest()?.finish()
        await loading.value
        #expect(resource.state == .loaded("fresh"))
        #expect(resource.origin == .network)

        await settle()
        #expect(seen == [.idle, .loading(previous: nil), .loading(previous: "cached"), .loaded("fresh")])
        token.cancel()
    }

    @Test func networkFailureAfterACacheHitKeepsTheCachedValue() async {
        let resource = Resource<String> {
            AsyncThrowingStream { continuation in
                continuation.yield(Sourced(value: "cached", origin: .cache(age: 5)))
                continuation.finish(throwing: APIError.transport(TransportError(.offline)))
            }
        }
        await resource.load()
        #expect(resource.value == "cached")
        #expect(resource.origin == .cache(age: 5))
        #expect(resource.failure?.isNetworkFailure == true)
        #expect(resource.state == .failed(.network(TransportError(.offline)), previous: "cached"))
    }

    @Test func serverRefusalIsToldApartFromNetworkFailure() async {
        let stub = StubTransport()
        stub.on(.get, "/articles/1", .envelope(code: "1001", message: "文章不存在"))
        stub.on(.get, "/articles/2", failure: URLError(.notConnectedToInternet))
        let refused = Resource(client: stubClient(stub), endpoint: .article(id: 1))
        let offline = Resource(client: stubClient(stub), endpoint: .article(id: 2))
        await refused.load()
        await offline.load()
        #expect(refused.failure == .server(code: "1001", message: "文章不存在"))
        #expect(refused.failure?.isServerRefusal == true)
        #expect(offline.failure?.isNetworkFailure == true)
        #expect(offline.failure?.isServerRefusal == false)
    }

    @Test func loadDoesNotReloadALoadedValueButRefreshDoes() async {
        let stub = StubTransport()
        let calls = FixtureCounter()
        stub.on(.get, "/articles/1") { _ in
            .envelope(data: articleJSON(1, "v\(calls.next())"))
        }
        let resource = Resource(client: stubClient(stub), endpoint: .article(id: 1))
        await resource.load()
        await resource.load()
        #expect(resource.value?.title == "v0")
        await resource.refresh()
        #expect(resource.value?.title == "v1")
        #expect(stub.requests.count == 2)
    }

    @Test func refreshCancelsTheLoadInFlight() async {
        let loader = ManualLoader<String>()
        let resource = Resource(load: loader.load)
        let first = Task { await resource.load() }
        #expect(await eventually { loader.loads == 1 })
        let second = Task { await resource.refresh() }
        #expect(await eventually { loader.loads == 2 && loader.terminated >= 1 })
        await first.value
        loader.latest()?.yield(Sourced(value: "second", origin: .network))
        loader.latest()?.finish()
        await second.value
        #expect(resource.state == .loaded("second"))
    }

    @Test func cancellingTheCallerCancelsTheLoadAndReleasesTheResource() async {
        let loader = ManualLoader<String>()
        var resource: Resource<String>? = Resource(load: loader.load)
        weak let released = resource
        let appearance = Task { [resource] in await resource?.load() } // a view's `.task`
        #expect(await eventually { loader.loads == 1 })
        resource = nil
        appearance.cancel() // the view went away
        #expect(await eventually { loader.terminated == 1 })
        await appearance.value
        #expect(await eventually { released == nil })
    }
}

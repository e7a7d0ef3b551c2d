import Foundation
import KilnCache
import KilnModel
import KilnNetwork
import KilnNetworkCache
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
import KilnSupport
#endif

/// Records the conditional headers of each request a client sends.
final class ConditionalHeaders: Sendable {
    private let sent = LockedValue([[String: String]]())

    var requests: [[String: String]] { sent.current }

    var monitor: EventMonitor {
        EventMonitor { [sent] event in
            guard case .requestWillSend(let request, _) = event else { return }
            let headers = request.allHTTPHeaderFields ?? [:]
            sent.withLock { $0.append(headers.filter { $0.key.lowercased().hasPrefix("if-") }) }
        }
    }
}

/// The response cache against httpbin's caching endpoints: validators it checks itself,
/// `Cache-Control` it sets, and any header it is asked to send.
@Suite("HTTP caching against httpbin", .serialized, .timeLimit(.minutes(2)))
struct HTTPBinCachingTests {
    func client(_ base: URL, _ recorder: ConditionalHeaders) -> APIClient {
        APIClient(baseURL: base, responseCache: ResponseCache(MemoryCache()), eventMonitors: [recorder.monitor])
    }

    @Test func anETagIsSentBackAndA304ServesTheStoredValue() async throws {
        try await withHTTPBin { (base: URL) async throws in
            let recorder = ConditionalHeaders()
            let api = client(base, recorder)
            let endpoint = Endpoint<JSONValue>.get("/etag/kiln-1")
            let first = try await api.send(endpoint, policy: .networkOnly)
            let second = try await collect(api.values(for: endpoint, policy: .cacheThenNetwork))
            #expect(first.origin == .network)
            #expect(second.map(\.origin.isCached) == [true, false])
            #expect(second.last?.origin == .revalidated)
            #expect(second.last?.value == first.value)
            #expect(recorder.requests.map { $0["If-None-Match"] } == [nil, "kiln-1"])
        }
    }

    @Test func lastModifiedAndETagFromCacheAreRevalidated() async throws {
        try await withHTTPBin { (base: URL) async throws in
            let recorder = ConditionalHeaders()
            let api = client(base, recorder)
            let endpoint = Endpoint<JSONValue>.get("/cache")
            _ = try await api.send(endpoint, policy: .networkOnly)
            #expect(try await api.send(endpoint, policy: .followServer).origin == .revalidated)
            #expect(recorder.requests.count == 2)
            #expect(recorder.requests.last?["If-Modified-Since"] != nil)
        }
    }

    @Test func maxAgeIsServedWithoutARequestWhileFresh() async throws {
        try await withHTTPBin { (base: URL) async throws in
            let recorder = ConditionalHeaders()
            let api = client(base, recorder)
            let endpoint = Endpoint<JSONValue>.get("/cache/3600")
            #expect(try await api.send(endpoint, policy: .followServer).origin == .network)
            #expect(try await api.send(endpoint, policy: .followServer).origin.isCached)
            #expect(try await api.send(endpoint, policy: .staleWhileRevalidate).origin.isCached)
            #expect(recorder.requests.count == 1)
        }
    }

    @Test func noStoreIsNotStoredAndRemovesWhatWas() async throws {
        try await withHTTPBin { (base: URL) async throws in
            let recorder = ConditionalHeaders()
            let api = client(base, recorder)
            let stored = Endpoint<JSONValue>.get("/response-headers", query: [URLQueryItem(name: "Cache-Control", value: "max-age=3600")])
            _ = try await api.send(stored, policy: .networkOnly)
            #expect(try await api.send(stored, policy: .cacheOnly).origin.isCached)
            let notStored = Endpoint<JSONValue>.get("/response-headers", query: [URLQueryItem(name: "Cache-Control", value: "no-store")])
            _ = try await api.send(notStored, policy: .networkOnly)
            #expect(await failure { try await api.send(notStored, policy: .cacheOnly) } == .notCached)
        }
    }

    @Test func varyComparesTheNamedRequestHeaders() async throws {
        try await withHTTPBin { (base: URL) async throws in
            let recorder = ConditionalHeaders()
            let api = client(base, recorder)
            let query = [URLQueryItem(name: "Vary", value: "X-Kiln-Variant"), URLQueryItem(name: "Cache-Control", value: "max-age=3600")]
            let a = Endpoint<JSONValue>.get("/response-headers", query: query, headers: ["X-Kiln-Variant": "a"])
            let b = Endpoint<JSONValue>.get("/response-headers", query: query, headers: ["X-Kiln-Variant": "b"])
            _ = try await api.send(a, policy: .followServer)
            #expect(try await api.send(a, policy: .followServer).origin.isCached)
            #expect(try await api.send(b, policy: .followServer).origin == .network)
            #expect(recorder.requests.count == 2)
        }
    }
}

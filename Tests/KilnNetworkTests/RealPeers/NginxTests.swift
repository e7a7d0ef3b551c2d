import Foundation
import KilnCache
import KilnModel
import KilnNetwork
import KilnNetworkCache
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
import KilnSupport
#endif

struct Item: Decodable, Sendable, Hashable {
    var id: Int
    var name: String
}

/// Counts the attempts a client sends and the transfers it shared.
final class AttemptCounter: Sendable {
    private struct State {
        var sent: [String] = []
        var shares: [Int] = []
    }
    private let state = LockedValue(State())

    var requests: [String] { state.withLock { $0.sent } }
    var sharedBy: [Int] { state.withLock { $0.shares } }

    var monitor: EventMonitor {
        EventMonitor { [state] event in
            switch event {
            case .requestWillSend(let request, _): state.withLock { $0.sent.append(request.url?.path ?? "") }
            case .transferShared(_, let callers): state.withLock { $0.shares.append(callers) }
            default: break
            }
        }
    }
}

/// The client against nginx as public APIs are served: plain JSON, error bodies, validators and
/// `Cache-Control`, and identical requests sharing one transfer.
@Suite("Against nginx", .serialized, .timeLimit(.minutes(2)))
struct NginxTests {
    static let items = #"[{"id": 1, "name": "one"}, {"id": 2, "name": "two"}]"#

    func client(_ server: Nginx, cache: (any ResponseCaching)? = nil, monitor: EventMonitor? = nil) -> APIClient {
        APIClient(baseURL: server.baseURL, responseCache: cache, eventMonitors: monitor.map { [$0] } ?? [])
    }

    // MARK: Plain JSON and error bodies

    @Test func aPlainJSONAPIDecodesWithTheDefaultClient() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "static/items.json")
            let items = try await APIClient(baseURL: server.baseURL).send(Endpoint<[Item]>.get("/static/items.json"))
            #expect(items == [Item(id: 1, name: "one"), Item(id: 2, name: "two")])
        }
    }

    @Test func problemDetailsAreReadable() async throws {
        try await withNginx { (server: Nginx) async throws in
            let error = await failure { try await client(server).send(Endpoint<Item>.get("/problem")) }
            guard case .http(404, _)? = error, let error else {
                Issue.record("expected HTTP 404, got \(String(describing: error))")
                return
            }
            #expect(error.serverMessage == "User 42 does not exist.")
            #expect(error.problem?.title == "Not Found")
            #expect(error.problem?.status == 404)
            #expect(error.problem?.type == "https://example.com/probs/no-user")
            #expect(error.problem?.members["user"] == 42)
            #expect(error.description.contains("404"))
            #expect(error.description.contains("User 42 does not exist."))
        }
    }

    @Test(arguments: [
        ("/message", 422, "Validation Failed"),
        ("/oauth", 401, "The access token expired"),
        ("/nested-error", 400, "API key not valid."),
    ])
    func commonErrorShapesCarryTheServersMessage(path: String, status: Int, message: String) async throws {
        try await withNginx { (server: Nginx) async throws in
            let error = await failure { try await client(server).send(Endpoint<Item>.get(path)) }
            guard case .http(let got, _)? = error, got == status, let error else {
                Issue.record("expected HTTP \(status), got \(String(describing: error))")
                return
            }
            #expect(error.serverMessage == message)
            #expect(error.problem == nil)
            #expect(error.description.contains(message))
        }
    }

    @Test func aBodyThatIsNotJSONHasNoMessage() async throws {
        try await withNginx { (server: Nginx) async throws in
            let error = await failure { try await client(server).send(Endpoint<Item>.get("/plain-error")) }
            #expect(error?.serverMessage == nil)
            #expect(error?.description == "The server answered with HTTP 503 (\(HTTPURLResponse.localizedString(forStatusCode: 503))).")
        }
    }

    struct Validation: Decodable {
        struct Field: Decodable {
            var field: String
            var code: String
        }
        var message: String
        var errors: [Field]
    }

    @Test func anErrorBodyDecodesIntoTheAppsOwnType() async throws {
        try await withNginx { (server: Nginx) async throws in
            let error = await failure { try await client(server).send(Endpoint<Item>.get("/message")) }
            #expect(error?.decodeBody(as: Validation.self)?.errors.first?.field == "name")
        }
    }

    // MARK: HTTP caching

    @Test func aSecondCacheThenNetworkRevalidatesAndGetsA304() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "static/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/static/items.json")
            let first = try await collect(api.values(for: endpoint, policy: .cacheThenNetwork))
            #expect(first.map(\.origin) == [.network])
            let second = try await collect(api.values(for: endpoint, policy: .cacheThenNetwork))
            #expect(second.map(\.origin.isCached) == [true, false])
            #expect(second.last?.origin == .revalidated)
            #expect(second.last?.value == first.first?.value)

            let log = try await server.requests(to: "/static/items.json")
            #expect(log.map(\.status) == [200, 304])
            #expect(log.first?.ifNoneMatch == "")
            #expect(log.last?.ifNoneMatch.isEmpty == false)
            #expect(log.last?.ifModifiedSince.isEmpty == false)
        }
    }

    @Test func aChangedFileIsDownloadedAgain() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "static/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/static/items.json")
            _ = try await api.send(endpoint, policy: .networkOnly)
            try server.put(#"[{"id": 3, "name": "three and more"}]"#, at: "static/items.json")
            let changed = try await api.send(endpoint, policy: .networkOnly)
            #expect(changed.origin == .network)
            #expect(changed.value == [Item(id: 3, name: "three and more")])
            #expect(try await server.requests(to: "/static/items.json").map(\.status) == [200, 200])
        }
    }

    @Test func noStoreAnswersAreNotStored() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "nostore/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/nostore/items.json")
            _ = try await api.send(endpoint, policy: .networkOnly)
            let error = await failure { try await api.send(endpoint, policy: .cacheOnly) }
            #expect(error == .notCached)
        }
    }

    @Test func aFreshAnswerIsServedWithoutARequest() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "fresh/items.json")
            let counter = AttemptCounter()
            let api = client(server, cache: ResponseCache(MemoryCache()), monitor: counter.monitor)
            let endpoint = Endpoint<[Item]>.get("/fresh/items.json")
            #expect(try await api.send(endpoint, policy: .followServer).origin == .network)
            #expect(try await api.send(endpoint, policy: .followServer).origin.isCached)
            #expect(try await collect(api.values(for: endpoint, policy: .staleWhileRevalidate)).map(\.origin.isCached) == [true])
            #expect(counter.requests.count == 1)
            #expect(try await server.requests(to: "/fresh/items.json").count == 1)
        }
    }

    @Test func aStaleAnswerIsRevalidatedFirst() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "stale/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/stale/items.json")
            #expect(try await api.send(endpoint, policy: .followServer).origin == .network)
            #expect(try await api.send(endpoint, policy: .followServer).origin == .revalidated)
            let revalidating = try await collect(api.values(for: endpoint, policy: .staleWhileRevalidate))
            #expect(revalidating.map(\.origin.isCached) == [true, false])
            #expect(try await server.requests(to: "/stale/items.json").map(\.status) == [200, 304, 304])
        }
    }

    @Test func noCacheAnswersAreStoredButAlwaysRevalidated() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "nocache/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/nocache/items.json")
            _ = try await api.send(endpoint, policy: .followServer)
            #expect(try await api.send(endpoint, policy: .followServer).origin == .revalidated)
            #expect(try await api.send(endpoint, policy: .cacheOnly).origin.isCached)
        }
    }

    @Test func varyKeepsAnAnswerToItsRequestHeaders() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "vary/items.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let english = Endpoint<[Item]>.get("/vary/items.json", headers: ["Accept-Language": "en"])
            let french = Endpoint<[Item]>.get("/vary/items.json", headers: ["Accept-Language": "fr"])
            _ = try await api.send(english, policy: .networkOnly)
            #expect(try await api.send(english, policy: .cacheOnly).origin.isCached)
            #expect(await failure { try await api.send(french, policy: .cacheOnly) } == .notCached)
            #expect(try await api.send(french, policy: .followServer).origin == .network)
            #expect(try await server.requests(to: "/vary/items.json").count == 2)
        }
    }

    // MARK: Identical requests share one transfer

    /// A JSON list of `count` items, about 40 bytes each.
    static func bigList(_ count: Int) -> String {
        "[" + (0..<count).map { #"{"id": \#($0), "name": "item number \#($0)"}"# }.joined(separator: ",") + "]"
    }

    @Test func twentyIdenticalGetsMakeOneRequest() async throws {
        try await withNginx { (server: Nginx) async throws in
            // About 4 s at nginx's 16 KB/s: every caller joins long before it ends.
            try server.put(Self.bigList(1_600), at: "slow/list.json")
            let counter = AttemptCounter()
            let api = client(server, monitor: counter.monitor)
            let endpoint = Endpoint<[Item]>.get("/slow/list.json").timeout(60)
            let lists = try await withThrowingTaskGroup(of: [Item].self) { group in
                for _ in 0..<20 { group.addTask { try await api.send(endpoint) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(lists.count == 20)
            #expect(Set(lists.map(\.count)) == [1_600])
            #expect(Set(lists).count == 1)
            #expect(counter.requests.count == 1)
            #expect(counter.sharedBy == [20])
            #expect(try await server.requests(to: "/slow/list.json").count == 1)
        }
    }

    /// `count` calls of `path`, returned once all of them wait for the one shared transfer.
    static func waitingCallers(_ count: Int, of api: APIClient, _ path: String) async -> [Task<[Item], any Error>] {
        let endpoint = Endpoint<[Item]>.get(path).timeout(120)
        let callers = (0..<count).map { _ in Task { try await api.send(endpoint) } }
        #expect(await eventually { api.callersWaitingForSharedTransfers == count })
        return callers
    }

    @Test func oneCancelledCallerLeavesTheOthersTheirValues() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.bigList(1_000), at: "slow/list.json")
            let api = client(server)
            let callers = await Self.waitingCallers(5, of: api, "/slow/list.json")
            callers[0].cancel()
            let cancelled = await callers[0].result
            guard case .failure(let error) = cancelled, let error = error as? APIError, error == .cancelled else {
                Issue.record("expected the cancelled caller to end with .cancelled, got \(cancelled)")
                return
            }
            // It ended while the transfer went on for the other four.
            #expect(api.callersWaitingForSharedTransfers == 4)
            for caller in callers.dropFirst() {
                #expect(try await caller.value.count == 1_000)
            }
            let log = try await server.requests(to: "/slow/list.json")
            #expect(log.count == 1)
            #expect(log.first?.completed == true)
        }
    }

    @Test func whenEveryCallerLeavesTheServerSeesTheConnectionClose() async throws {
        try await withNginx { (server: Nginx) async throws in
            // About 60 s at 16 KB/s: cancelled long before it could end.
            try server.put(Self.bigList(24_000), at: "slow/huge.json")
            let api = client(server)
            let callers = await Self.waitingCallers(3, of: api, "/slow/huge.json")
            // The body is on its way: nginx is writing to the status request and to ours.
            #expect(await server.waitUntilWriting(atLeast: 2))
            for caller in callers { caller.cancel() }
            for caller in callers {
                let result = await caller.result
                guard case .failure(let error) = result, (error as? APIError) == .cancelled else {
                    Issue.record("expected .cancelled, got \(result)")
                    continue
                }
            }
            #expect(await eventually { server.log().contains { $0.uri == "/slow/huge.json" } })
            let line = server.log().first { $0.uri == "/slow/huge.json" }
            #expect(line?.completed == false)
            #expect((line?.bytesSent ?? .max) < 900_000)
        }
    }

    @Test func aRevalidationSharedByManyCallersIsOneConditionalRequest() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.bigList(1_000), at: "slow/list.json")
            let api = client(server, cache: ResponseCache(MemoryCache()))
            let endpoint = Endpoint<[Item]>.get("/slow/list.json").timeout(60)
            _ = try await api.send(endpoint, policy: .networkOnly)
            let origins = try await withThrowingTaskGroup(of: ValueOrigin.self) { group in
                for _ in 0..<10 { group.addTask { try await api.send(endpoint, policy: .networkOnly).origin } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(origins == Array(repeating: .revalidated, count: 10))
            let log = try await server.requests(to: "/slow/list.json")
            #expect(log.map(\.status).first == 200)
            // Ten callers, at most a few transfers: each one a 304.
            #expect(log.dropFirst().allSatisfy { $0.status == 304 })
        }
    }

    @Test func anEndpointCanOptOutOfSharing() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items, at: "static/items.json")
            let counter = AttemptCounter()
            let api = client(server, monitor: counter.monitor)
            let endpoint = Endpoint<[Item]>.get("/static/items.json").sharingTransfer(false)
            async let first = api.send(endpoint)
            async let second = api.send(endpoint)
            _ = try await (first, second)
            #expect(counter.requests.count == 2)
            #expect(counter.sharedBy.isEmpty)
        }
    }

    // MARK: Load

    @Test func aThousandConcurrentRequestsOfAHundredURLsAllEnd() async throws {
        try await withNginx { (server: Nginx) async throws in
            for index in 0..<100 { try server.put(#"{"id": \#(index), "name": "n\#(index)"}"#, at: "static/\(index).json") }
            let api = client(server)
            let outcomes = await withTaskGroup(of: Result<Item, APIError>.self) { group in
                for request in 0..<1_000 {
                    group.addTask {
                        do throws(APIError) {
                            return .success(try await api.send(Endpoint<Item>.get("/static/\(request % 100).json").timeout(60)))
                        } catch {
                            return .failure(error)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.count == 1_000)
            let values = outcomes.compactMap { try? $0.get() }
            #expect(values.count == 1_000, "failures: \(outcomes.compactMap { if case .failure(let e) = $0 { e } else { nil } }.prefix(3))")
            #expect(Set(values.map(\.id)) == Set(0..<100))
        }
    }

    @Test func requestsWaitingForAConnectionDoNotTimeOut() async throws {
        try await withNginx { (server: Nginx) async throws in
            // 30 downloads of about 4 s each through one host's 6 connections: about 20 s in
            // all, each request idle for none of it (the 10 s timeout never runs out).
            try server.put(Self.bigList(1_600), at: "slow/list.json")
            let api = client(server)
            let counts = try await withThrowingTaskGroup(of: Int.self) { group in
                for index in 0..<30 {
                    group.addTask {
                        try await api.send(Endpoint<[Item]>.get("/slow/list.json", query: [URLQueryItem(name: "n", value: "\(index)")])).count
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(counts == Array(repeating: 1_600, count: 30))
        }
    }
}

/// Every value a stream delivers, in order.
func collect<Value>(_ stream: AsyncThrowingStream<Sourced<Value>, any Error>) async throws -> [Sourced<Value>] {
    var values: [Sourced<Value>] = []
    for try await value in stream { values.append(value) }
    return values
}

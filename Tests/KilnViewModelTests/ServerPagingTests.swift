import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing

/// `PagedList` paging by what the server sends: the offset of items received, the previous
/// page's next link (from the page or the `Link` header), and the end each of them signals.
@MainActor
@Suite("Paging by what the server sends")
struct ServerPagingTests {
    nonisolated static func link(_ path: String) -> URL {
        URL(string: "https://stub.local" + path) ?? URL(fileURLWithPath: "/")
    }

    /// A client over `stub` reading plain JSON bodies.
    nonisolated static func client(_ stub: StubTransport, interceptors: [any Interceptor] = []) -> APIClient {
        APIClient(baseURL: link("/api"), interceptors: interceptors, transport: stub)
    }

    // MARK: What a request carries

    @Test func eachRequestCarriesTheOffsetCountedBeforeDeduplication() async {
        let requests = Recorder<PageRequest>()
        let list = PagedList<Int>(pageSize: 3, deduplication: .by { $0 }) { request in
            requests.append(request)
            switch request.offset {
            case 0: return Page(items: [1, 2, 3])
            case 3: return Page(items: [3, 4, 5]) // the server shifted: item 3 again
            default: return Page(items: [6])
            }
        }
        await list.loadFirst()
        await list.loadNext()
        await list.loadNext()
        #expect(list.items == [1, 2, 3, 4, 5, 6])
        #expect(requests.entries.map(\.offset) == [0, 3, 6])
        #expect(requests.entries.map(\.isFirst) == [true, false, false])
        #expect(list.isAtEnd)
    }

    @Test func theNextRequestCarriesThePreviousPagesLink() async {
        let requests = Recorder<PageRequest>()
        let list = PagedList<Int>(pageSize: 2) { request in
            requests.append(request)
            switch request.link?.path {
            case nil: return Page(items: [1, 2], nextLink: Self.link("/items/2"))
            case "/items/2": return Page(items: [3, 4], nextLink: Self.link("/items/3"))
            default: return Page(items: [5, 6])
            }
        }
        await list.loadFirst()
        await list.loadNext()
        await list.loadNext()
        #expect(list.items == [1, 2, 3, 4, 5, 6])
        #expect(requests.entries.map(\.link) == [nil, Self.link("/items/2"), Self.link("/items/3")])
        // The last page was asked for by link and gave none: under `.automatic` it is the last,
        // although it is full.
        #expect(list.isAtEnd)
    }

    @Test func aFirstPageWithoutALinkEndsTheListUnderMissingNextLink() async {
        let list = PagedList<Int>(pageSize: 2, endOfList: .missingNextLink) { _ in Page(items: [1, 2]) }
        await list.loadFirst()
        #expect(list.isAtEnd)
    }

    @Test(arguments: [
        // (the page, whether more follow under .automatic)
        (Page<Int>(items: [1, 2], hasMore: false, nextLink: ServerPagingTests.link("/2")), false),
        (Page<Int>(items: [1, 2], totalPages: 1, nextLink: ServerPagingTests.link("/2")), false),
        (Page<Int>(items: [1], nextLink: ServerPagingTests.link("/2")), true),
        (Page<Int>(items: [], nextLink: ServerPagingTests.link("/2")), false),
    ])
    func theFlagAndTheCountOutrankTheLinkUnderAutomatic(page: Page<Int>, more: Bool) async {
        let list = PagedList<Int>(pageSize: 2) { _ in page }
        await list.loadFirst()
        #expect(list.hasMore == more)
    }

    // MARK: The client helpers

    @Test func theClientHelperFollowsTheLinkHeaderThroughTheClient() async {
        let stub = StubTransport()
        stub.on(.get, "/api/items", .json([1, 2]).headers(["Link": #"</api/items/after/2?token=a%2Cb>; rel="next", </api/items>; rel="first""#]))
        stub.on(.get, "/api/items/after/2", .json([3, 4]).headers(["Link": #"<4>; rel="next"; title="page, 3""#]))
        stub.on(.get, "/api/items/after/4", .json([5, 6]).headers(["Link": #"</api/items>; rel="first""#]))
        let client = Self.client(stub, interceptors: [CommonParametersInterceptor(["app": "kiln"])])
        let list = PagedList<Int>(client: client, pageSize: 2) { request in
            Endpoint<[Int]>.get("/items", query: [URLQueryItem(name: "size", value: String(request.size))], headers: ["X-Page": String(request.number)])
        } page: { numbers in
            Page(items: numbers)
        }
        await list.loadFirst()
        await list.loadNext()
        await list.loadNext()
        await list.loadNext()
        #expect(list.items == [1, 2, 3, 4, 5, 6])
        #expect(list.isAtEnd)
        #expect(stub.requests.map(\.path) == ["/api/items", "/api/items/after/2", "/api/items/after/4"])
        // The link's query replaces the endpoint's; the interceptors and the endpoint's headers apply.
        #expect(stub.requests.map { $0.queryValue("size") } == ["2", nil, nil])
        #expect(stub.requests.map { $0.queryValue("token") } == [nil, "a,b", nil])
        #expect(stub.requests.map { $0.queryValue("app") } == ["kiln", "kiln", "kiln"])
        #expect(stub.requests.map { $0.header("X-Page") } == ["1", "2", "3"])
    }

    @Test func theItemViewModelHelperFollowsLinksToo() async {
        final class Row {
            let number: Int
            init(number: Int) { self.number = number }
        }
        let stub = StubTransport()
        stub.on(.get, "/api/items", .json([1, 2]).headers(["Link": #"</api/items/2>; rel="next""#]))
        stub.on(.get, "/api/items/2", .json([3]))
        let list = PagedList<Row>(client: Self.client(stub), pageSize: 2) { _ in
            Endpoint<[Int]>.get("/items")
        } page: { numbers in
            Page(items: numbers)
        } makeItem: { number in
            Row(number: number)
        }
        await list.loadFirst()
        await list.loadNext()
        #expect(list.items.map(\.number) == [1, 2, 3])
        #expect(list.isAtEnd)
        #expect(stub.requests.map(\.path) == ["/api/items", "/api/items/2"])
    }

    @Test func aNextLinkThePageSetsWinsOverTheHeader() async {
        struct Numbers: Decodable, Sendable {
            var items: [Int]
            var next: String?
        }
        let stub = StubTransport()
        stub.on(.get, "/api/items", .json(["items": [1, 2], "next": "https://stub.local/api/body/2"]).headers(["Link": #"</api/header/2>; rel="next""#]))
        stub.on(.get, "/api/body/2", .json(["items": [3]]))
        let list = PagedList<Int>(client: Self.client(stub), pageSize: 2) { _ in
            Endpoint<Numbers>.get("/items")
        } page: { response in
            Page(items: response.items, nextLink: response.next.flatMap { URL(string: $0) })
        }
        await list.loadFirst()
        await list.loadNext()
        #expect(list.items == [1, 2, 3])
        #expect(stub.requests.map(\.path) == ["/api/items", "/api/body/2"])
    }

    // MARK: Starting over, retrying, stale pages

    @Test func refreshAndLoadFirstForgetTheLinkAndTheOffset() async {
        let requests = Recorder<PageRequest>()
        let firstPages = FixtureCounter()
        let list = PagedList<String>(pageSize: 2) { request in
            requests.append(request)
            guard let link = request.link else {
                let generation = firstPages.next()
                return Page(items: ["g\(generation)-1", "g\(generation)-2"], nextLink: Self.link("/g\(generation)/2"))
            }
            return Page(items: [link.path + "-a", link.path + "-b"], nextLink: Self.link(link.path + "/more"))
        }
        await list.loadFirst()
        await list.loadNext()
        await list.refresh()
        await list.loadNext()
        await list.loadFirst()
        await list.loadNext()
        #expect(requests.entries.map(\.link?.path) == [nil, "/g0/2", nil, "/g1/2", nil, "/g2/2"])
        #expect(requests.entries.map(\.offset) == [0, 2, 0, 2, 0, 2])
        #expect(list.items == ["g2-1", "g2-2", "/g2/2-a", "/g2/2-b"])
    }

    @Test func retryAsksForTheSameLinkAndOffset() async {
        let requests = Recorder<PageRequest>()
        let secondPages = FixtureCounter()
        let list = PagedList<Int>(pageSize: 2) { request in
            requests.append(request)
            guard request.link != nil else { return Page(items: [1, 2], nextLink: Self.link("/2")) }
            if secondPages.next() == 0 { throw URLError(.notConnectedToInternet) }
            return Page(items: [3])
        }
        await list.loadFirst()
        await list.loadNext()
        #expect(list.failure != nil)
        await list.retry()
        #expect(list.items == [1, 2, 3])
        #expect(requests.entries.dropFirst().map(\.link) == [Self.link("/2"), Self.link("/2")])
        #expect(requests.entries.dropFirst().map(\.offset) == [2, 2])
    }

    @Test func aLinkedPageFromBeforeARefreshNeverLandsAndTheNewLinkIsFollowed() async {
        let gate = Gate()
        let firstPages = FixtureCounter()
        let requests = Recorder<PageRequest>()
        let list = PagedList<String>(pageSize: 2) { request in
            requests.append(request)
            guard let link = request.link else {
                let generation = firstPages.next()
                return Page(items: ["g\(generation)-1", "g\(generation)-2"], nextLink: Self.link("/g\(generation)/2"))
            }
            // Generation 0's second page waits for the gate, whatever cancellation says.
            if link.path == "/g0/2" { await gate.wait() }
            return Page(items: [link.path], nextLink: Self.link(link.path + "/more"))
        }
        await list.loadFirst()
        let next = Task { await list.loadNext() }
        #expect(await eventually { list.phase == .loading(.next) })
        await list.refresh()
        #expect(list.items == ["g1-1", "g1-2"])
        gate.open()
        await next.value
        await settle()
        #expect(list.items == ["g1-1", "g1-2"])
        // The list carries on from the new first page's link, not the old page's.
        await list.loadNext()
        #expect(list.items == ["g1-1", "g1-2", "/g1/2"])
        #expect(requests.entries.map(\.link?.path) == [nil, "/g0/2", nil, "/g1/2"])
    }
}

import Foundation
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `PagedList` against lists nginx pages the ways public APIs do (``Nginx/pagingLocations``):
/// GitHub's `Link` header, relative links, Stripe's `has_more` with the last id, Mastodon's
/// `max_id`, offset and limit. Each list ends on the server's own signal.
@MainActor
@Suite("Paging against nginx", .serialized, .timeLimit(.minutes(2)))
struct NginxPagingTests {
    struct Customer: Decodable, Sendable, Hashable {
        var id: String
        var name: String
    }

    /// Stripe's list object.
    struct CustomerList: Decodable, Sendable {
        var data: [Customer]
        var hasMore: Bool
        enum CodingKeys: String, CodingKey {
            case data
            case hasMore = "has_more"
        }
    }

    struct Status: Decodable, Sendable, Hashable {
        var id: String
        var content: String
    }

    /// Adds `X-Kiln-Trace`, which nginx writes to its log: proof that a request went through
    /// the client's interceptors.
    struct Trace: Interceptor {
        var value: String
        func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
            var request = request
            request.setValue(value, forHTTPHeaderField: "X-Kiln-Trace")
            return request
        }
    }

    /// A JSON list of the items `ids`.
    static func items(_ ids: some Sequence<Int>, prefix: String = "item") -> String {
        "[" + ids.map { #"{"id": \#($0), "name": "\#(prefix) \#($0)"}"# }.joined(separator: ",") + "]"
    }

    /// Three pages of two issues (1–6), linked as GitHub links them.
    static func putIssues(_ server: Nginx) throws {
        for page in 1...3 { try server.put(items((page * 2 - 1)...(page * 2)), at: "issues/\(page).json") }
    }

    /// A list of two items a page paged by `Link` header: `first`, then whatever the header says.
    static func linked(_ client: APIClient, first: Endpoint<[Item]>, endOfList: EndOfList = .missingNextLink) -> PagedList<Item> {
        PagedList(client: client, pageSize: 2, endOfList: endOfList) { _ in
            first
        } page: { items in
            Page(items: items)
        }
    }

    /// The GitHub-style list, under `.automatic`: the server's links alone end it.
    static func issues(_ client: APIClient) -> PagedList<Item> {
        linked(client, first: .get("/repos/kiln/issues", query: [URLQueryItem(name: "per_page", value: "2")]), endOfList: .automatic)
    }

    /// The URIs nginx served that start with one of `prefixes`, in order.
    static func served(_ server: Nginx, _ prefixes: String...) async throws -> [String] {
        try await server.requests { line in prefixes.contains { line.uri.hasPrefix($0) } }.map(\.uri)
    }

    // MARK: Link header

    @Test func linkedPagesArriveInOrderAndTheLastOneHasNoNextLink() async throws {
        try await withNginx { (server: Nginx) async throws in
            try Self.putIssues(server)
            let list = Self.issues(APIClient(baseURL: server.baseURL))
            await list.loadFirst()
            #expect(list.hasMore)
            await list.loadNext()
            #expect(list.hasMore)
            await list.loadNext()
            #expect(list.items.map(\.id) == Array(1...6))
            // Page 3 is full, but it has no `rel="next"`: the list ends there.
            #expect(list.isAtEnd)
            await list.loadNext()
            #expect(
                try await Self.served(server, "/repos/", "/repositories/") == [
                    "/repos/kiln/issues?per_page=2",
                    "/repositories/7/issues?per_page=2&page=2",
                    "/repositories/7/issues?per_page=2&page=3",
                ])
        }
    }

    @Test func aFollowedLinkGoesThroughTheClientsInterceptors() async throws {
        try await withNginx { (server: Nginx) async throws in
            try Self.putIssues(server)
            let client = APIClient(
                baseURL: server.baseURL,
                interceptors: [Trace(value: "paging"), CommonParametersInterceptor(["client": "kiln"])]
            )
            let list = Self.issues(client)
            await list.loadFirst()
            await list.loadNext()
            await list.loadNext()
            #expect(list.isAtEnd)
            let log = try await server.requests { $0.uri.hasPrefix("/repos/") || $0.uri.hasPrefix("/repositories/") }
            #expect(log.map(\.trace) == ["paging", "paging", "paging"])
            // The link's own query is kept, and the interceptor's parameter is added once.
            #expect(
                log.map(\.uri) == [
                    "/repos/kiln/issues?per_page=2&client=kiln",
                    "/repositories/7/issues?per_page=2&page=2&client=kiln",
                    "/repositories/7/issues?per_page=2&page=3&client=kiln",
                ])
        }
    }

    @Test func relativeLinksAndSeveralLinksInOneHeaderAreRead() async throws {
        try await withNginx { (server: Nginx) async throws in
            for page in 1...3 { try server.put(Self.items((page * 2 - 1)...(page * 2)), at: "rel/\(page).json") }
            let client = APIClient(baseURL: server.baseURL)
            let head = try await client.response(for: Endpoint<[Item]>.get("/rel/items")).head
            // Two `Link` lines, three links; commas and semicolons inside quotes and <…>.
            #expect(head.link("next")?.absoluteString == server.baseURL.absoluteString + "/rel/items?page=2")
            #expect(head.links.first { $0.hasRelation("next") }?.parameters["title"] == "Page 2, of 3; next")
            let help = head.links.first { $0.hasRelation("help") }
            #expect(help?.url.absoluteString == "https://docs.example.com/paging?a=1,2;b=3")
            #expect(help?.relations == ["help", "describedby"])
            #expect(help?.parameters["type"] == "text/html")
            #expect(head.link("first")?.path == "/rel/items")

            let list = Self.linked(client, first: .get("/rel/items"))
            await list.loadFirst()
            await list.loadNext()
            await list.loadNext()
            #expect(list.items.map(\.id) == Array(1...6))
            #expect(list.isAtEnd)
            #expect(try await Self.served(server, "/rel/") == ["/rel/items", "/rel/items", "/rel/items?page=2", "/rel/items?page=3"])
        }
    }

    @Test func aSingleFullPageWithoutALinkIsTheWholeList() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(NginxTests.items, at: "static/items.json")
            let list = Self.linked(APIClient(baseURL: server.baseURL), first: .get("/static/items.json"))
            await list.loadFirst()
            #expect(list.items.count == 2)
            #expect(list.isAtEnd)
        }
    }

    // MARK: Cursors in the body

    @Test func stripeHasMoreWithTheLastIDEndsWhenHasMoreIsFalse() async throws {
        try await withNginx { (server: Nginx) async throws in
            func customers(_ ids: ClosedRange<Int>, hasMore: Bool) -> String {
                let data = ids.map { #"{"id": "cus_\#($0)", "object": "customer", "name": "Customer \#($0)"}"# }.joined(separator: ",")
                return #"{"object": "list", "url": "/v1/customers", "has_more": \#(hasMore), "data": [\#(data)]}"#
            }
            try server.put(customers(1...2, hasMore: true), at: "stripe/after-.json")
            try server.put(customers(3...4, hasMore: true), at: "stripe/after-cus_2.json")
            // A full last page: only `has_more` says it is the last.
            try server.put(customers(5...6, hasMore: false), at: "stripe/after-cus_4.json")
            let list = PagedList<Customer>(client: APIClient(baseURL: server.baseURL), pageSize: 2) { request in
                Endpoint<CustomerList>.get(
                    "/v1/customers",
                    query: [URLQueryItem(name: "limit", value: String(request.size))]
                        + (request.cursor.map { [URLQueryItem(name: "starting_after", value: $0)] } ?? []))
            } page: { response in
                Page(items: response.data, hasMore: response.hasMore, nextCursor: response.data.last?.id)
            }
            await list.loadFirst()
            await list.loadNext()
            await list.loadNext()
            await list.loadNext()
            #expect(list.items.map(\.id) == (1...6).map { "cus_\($0)" })
            #expect(list.isAtEnd)
            #expect(
                try await Self.served(server, "/v1/") == [
                    "/v1/customers?limit=2", "/v1/customers?limit=2&starting_after=cus_2", "/v1/customers?limit=2&starting_after=cus_4",
                ])
        }
    }

    @Test func mastodonMaxIDPagesUntilAnEmptyPage() async throws {
        try await withNginx { (server: Nginx) async throws in
            func statuses(_ ids: [Int]) -> String {
                "[" + ids.map { #"{"id": "\#($0)", "content": "toot \#($0)"}"# }.joined(separator: ",") + "]"
            }
            try server.put(statuses([109, 108]), at: "mastodon/max-.json")
            try server.put(statuses([107]), at: "mastodon/max-108.json")
            try server.put(statuses([]), at: "mastodon/max-107.json")
            let list = PagedList<Status>(client: APIClient(baseURL: server.baseURL), pageSize: 2) { request in
                Endpoint<[Status]>.get(
                    "/api/v1/timelines/public",
                    query: [URLQueryItem(name: "limit", value: String(request.size))]
                        + (request.cursor.map { [URLQueryItem(name: "max_id", value: $0)] } ?? []))
            } page: { statuses in
                Page(items: statuses, nextCursor: statuses.last?.id)
            }
            await list.loadFirst()
            await list.loadNext()
            #expect(list.hasMore, "a cursor is there: a short page does not end a cursor list")
            await list.loadNext()
            #expect(list.items.map(\.id) == ["109", "108", "107"])
            #expect(list.isAtEnd)
            await list.loadNext()
            #expect(try await Self.served(server, "/api/").count == 3)
        }
    }

    // MARK: Offset and limit

    @Test func offsetCountsWhatTheServerSentAndAShortPageEndsTheList() async throws {
        try await withNginx { (server: Nginx) async throws in
            try server.put(Self.items(1...3), at: "offset/0.json")
            // An item was added at the top in between: the second page repeats item 3.
            try server.put(Self.items(3...5), at: "offset/3.json")
            try server.put(Self.items(6...7), at: "offset/6.json")
            let list = PagedList<Item>(client: APIClient(baseURL: server.baseURL), pageSize: 3, deduplication: .by { $0.id }) { request in
                .get(
                    "/offset/items",
                    query: [
                        URLQueryItem(name: "offset", value: String(request.offset)),
                        URLQueryItem(name: "limit", value: String(request.size)),
                    ])
            } page: { items in
                Page(items: items)
            }
            await list.loadFirst()
            await list.loadNext()
            await list.loadNext()
            #expect(list.items.map(\.id) == Array(1...7))
            #expect(list.isAtEnd)
            #expect(
                try await Self.served(server, "/offset/") == [
                    "/offset/items?offset=0&limit=3", "/offset/items?offset=3&limit=3", "/offset/items?offset=6&limit=3",
                ])
        }
    }

    // MARK: Refresh, stale pages, one load at a time

    @Test func refreshStartsOverFromTheFirstPage() async throws {
        try await withNginx { (server: Nginx) async throws in
            try Self.putIssues(server)
            let list = Self.issues(APIClient(baseURL: server.baseURL))
            await list.loadFirst()
            await list.loadNext()
            try server.put(Self.items(10...11), at: "issues/1.json")
            await list.refresh()
            #expect(list.items.map(\.id) == [10, 11])
            #expect(list.pagesLoaded == 1)
            await list.loadNext()
            #expect(list.items.map(\.id) == [10, 11, 3, 4])
            #expect(
                try await Self.served(server, "/repos/", "/repositories/") == [
                    "/repos/kiln/issues?per_page=2",
                    "/repositories/7/issues?per_page=2&page=2",
                    "/repos/kiln/issues?per_page=2",
                    "/repositories/7/issues?per_page=2&page=2",
                ])
        }
    }

    /// A list whose first page links to `/slow/linked-2.json`, a list of `count` items nginx
    /// sends at 16 KB/s.
    static func slowlyLinked(_ server: Nginx, count: Int) throws -> PagedList<Item> {
        try server.put(items(1...2), at: "slowlinks/1.json")
        try server.put(NginxTests.bigList(count), at: "slow/linked-2.json")
        return linked(APIClient(baseURL: server.baseURL), first: Endpoint<[Item]>.get("/slowlinks/items").timeout(120))
    }

    @Test func aLinkedPageFromBeforeARefreshNeverLands() async throws {
        try await withNginx { (server: Nginx) async throws in
            // About 60 s at 16 KB/s: the refresh lands long before it could end.
            let list = try Self.slowlyLinked(server, count: 24_000)
            await list.loadFirst()
            let next = Task { await list.loadNext() }
            // The linked page is on its way: nginx is writing to the status request and to ours.
            #expect(await server.waitUntilWriting(atLeast: 2))
            try server.put(Self.items(10...11), at: "slowlinks/1.json")
            await list.refresh()
            #expect(list.items.map(\.id) == [10, 11])
            await next.value
            #expect(list.items.map(\.id) == [10, 11])
            #expect(list.phase == .loaded)
            #expect(list.pagesLoaded == 1)
            #expect(await eventually { server.log().contains { $0.uri == "/slow/linked-2.json" } })
            #expect(server.log().first { $0.uri == "/slow/linked-2.json" }?.completed == false)
        }
    }

    @Test func loadNextWhileALinkedPageIsInFlightJoinsIt() async throws {
        try await withNginx { (server: Nginx) async throws in
            // About 4 s at 16 KB/s: the other calls come while it is in flight.
            let list = try Self.slowlyLinked(server, count: 1_600)
            await list.loadFirst()
            let first = Task { await list.loadNext() }
            #expect(await server.waitUntilWriting(atLeast: 2))
            let second = Task { await list.loadNext() }
            let third = Task { await list.loadNext() }
            await first.value
            await second.value
            await third.value
            #expect(list.items.count == 2 + 1_600)
            #expect(list.isAtEnd)
            #expect(try await server.requests(to: "/slow/linked-2.json").count == 1)
        }
    }
}

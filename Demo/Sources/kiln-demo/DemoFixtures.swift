import Foundation
import Kiln
import Synchronization
import KilnTesting

/// The demo's server: deterministic, messy data (nulls, numbers as strings, snake_case, an
/// unknown ticket kind) served over real HTTP on loopback by KilnTesting's fixture server.
struct DemoFixtures: Sendable {
    static let pageSize = 10
    static let articlesPerCategory = 23
    static let downloadSize = 8 * 1_048_576
    static let issueCount = 25
    static let issuesPerPage = 10

    let seed: UInt64
    let latency: Duration
    let failRate: Double

    let categories: JSONValue = [
        ["id": 1, "name": "Swift"], ["id": "2", "name": "Architecture"], ["id": 3, "name": "Testing"],
    ]

    func articles(category: Int) -> [JSONValue] {
        var rng = DemoRandom(seed: seed &+ UInt64(category))
        let topics = ["MVVM", "data factory", "paging", "caching", "observation", "tolerant models", "uploads", "envelopes"]
        return (0..<Self.articlesPerCategory).map { i in
            let id = category * 1000 + i + 1
            let topic = topics[Int(rng.next() % UInt64(topics.count))]
            let messy = rng.next() % 5 == 0
            return [
                "article_id": messy ? .string(String(id)) : .int(Int64(id)),
                "title": .string("\(topic.capitalized) #\(i + 1)"),
                "desc": messy ? .null : .string("Why \(topic) keeps view controllers small."),
                "pub_date": i % 2 == 0 ? .int(Int64(20_161_001 + i)) : .string(String(20_161_001 + i)),
                "view_count": i == 4 ? "1.2k" : .int(Int64(rng.next() % 5000)),
                "author": ["nick_name": i % 7 == 0 ? .null : .string(["Kai", "Lin", "Mo"][i % 3]), "followers": "12k"],
            ]
        }
    }

    func articlePage(category: Int, page: Int) -> JSONValue {
        let all = articles(category: category)
        let start = (page - 1) * Self.pageSize
        let slice = start < all.count && start >= 0 ? Array(all[start..<min(all.count, start + Self.pageSize)]) : []
        let totalPages = (all.count + Self.pageSize - 1) / Self.pageSize
        return ["page": .int(Int64(page)), "total_pages": .string(String(totalPages)), "list": .array(slice)]
    }

    func articleDetail(id: Int) -> JSONValue? {
        let category = id / 1000
        guard let article = articles(category: category).first(where: { $0["article_id"].int == id }) else { return nil }
        var detail = article
        detail.set(.string("Full text of “\(article["title"].string ?? "")”: the view model loads it by id, the view only draws."), at: "content")
        return detail
    }

    /// Six messages in the earlier session, eight now.
    func messages(fresh: Bool) -> JSONValue {
        let count = fresh ? 8 : 6
        let senders = ["Kai", "Lin", "Mo", "Ana"]
        return [
            "list": .array(
                (0..<count).map { i in
                    [
                        "id": .int(Int64(count - i)),
                        "sender": .string(senders[i % senders.count]),
                        "text": .string(i == 0 && fresh ? "New: the fresh list arrived" : "Message \(count - i)"),
                        "sent_at": i % 3 == 0 ? .string(String(1_479_000_000 + (count - i) * 600)) : .int(Int64(1_479_000_000 + (count - i) * 600)),
                        "unread": i < 2 ? (fresh ? "1" : 0) : 0,
                    ]
                })
        ]
    }

    /// The GitHub-style issues, newest first: numbers 125 down to 101.
    func issues() -> [JSONValue] {
        var rng = DemoRandom(seed: seed ^ 0x155E)
        let subjects = ["Crash when paging", "Link header ignored", "Cache misses on 304", "Docs: offset paging", "Retry storm"]
        return (0..<Self.issueCount).map { i in
            let number = 100 + Self.issueCount - i
            let comments = Int(rng.next() % 12)
            return [
                "id": .int(Int64(900_000 + number)),
                "number": .int(Int64(number)),
                "title": .string(subjects[i % subjects.count]),
                "state": i % 4 == 0 ? "closed" : "open",
                // As real servers do now and then: a count sent as a string, a deleted user.
                "comments": i % 6 == 0 ? .string(String(comments)) : .int(Int64(comments)),
                "user": i % 9 == 8 ? .null : ["login": .string(["kai", "lin", "mo"][i % 3])],
            ]
        }
    }

    /// One page of issues as GitHub answers it: a bare array, with `Link: <…>; rel="next"`
    /// (relative, to the repository's id-based URL) on every page but the last.
    func issuePage(_ page: Int, size: Int) -> FixtureResponse {
        let all = issues()
        let size = max(1, size)
        let pages = (all.count + size - 1) / size
        let start = (page - 1) * size
        let slice = start >= 0 && start < all.count ? Array(all[start..<min(all.count, start + size)]) : []
        func link(_ page: Int, _ relation: String) -> String {
            #"</repositories/7/issues?per_page=\#(size)&page=\#(page)>; rel="\#(relation)""#
        }
        var links: [String] = []
        if page > 1 { links += [link(page - 1, "prev"), link(1, "first")] }
        if page < pages { links += [link(page + 1, "next"), link(pages, "last")] }
        let response = FixtureResponse.json(.array(slice))
        return links.isEmpty ? response : response.headers(["Link": links.joined(separator: ", ")])
    }

    let tickets: JSONValue = [
        "list": [
            ["modelType": 1, "goodName": "Green tea", "minLimitMoney": "100", "ticketMoney": 20, "deadline": "2016-10-10"],
            ["modelType": "2", "productName": "Cheesecake", "discount": "8.5", "expireDate": "2016-11-11"],
            ["modelType": 3, "giftName": "Mug", "rule": ["text": "one per person"], "endTime": "2016-12-12", "points": "300"],
            ["modelType": 9, "title": "a kind this app does not know yet"],
            ["modelType": 1, "goodName": "Coffee", "minLimitMoney": 50, "ticketMoney": "5.5", "deadline": nil],
            ["modelType": 2, "productName": "Bread", "discount": 9, "expireDate": "2017-01-01"],
        ]
    ]

    /// Installs every route on `server`.
    /// The live activity feed, as Server-Sent Events: half of it, after which the connection
    /// closes; the client comes back with `Last-Event-ID` and gets the rest; after that, `204`
    /// (nothing more: do not reconnect). The body comes in small pieces with pauses, as a live
    /// server sends it. One entry's id is a string and one has no `who`.
    func activityStream(after lastID: Int) -> FixtureResponse {
        let feed: [JSONValue] = [
            ["id": 1, "who": "Kai", "what": "published “Paging real APIs”"],
            ["id": 2, "who": "Lin", "what": "commented on “Tolerant models”"],
            ["id": "3", "who": "Mo", "what": "starred kiln"],
            ["id": 4, "who": .null, "what": "joined the Swift room"],
            ["id": 5, "who": "Ana", "what": "replied to Kai"],
            ["id": 6, "who": "Kai", "what": "went offline"],
        ]
        let start = min(max(lastID, 0), feed.count)
        guard start < feed.count else { return .status(204) }
        let batch = feed[start..<min(feed.count, start + feed.count / 2)]
        var text = "retry: 50\n\n"
        for (offset, entry) in batch.enumerated() {
            let json = (try? JSONEncoder().encode(entry)).map { String(decoding: $0, as: UTF8.self) } ?? "null"
            text += "id: \(start + offset + 1)\nevent: activity\ndata: \(json)\n\n"
        }
        return FixtureResponse(
            headers: ["Content-Type": "text/event-stream", "Cache-Control": "no-store"],
            body: .data(Data(text.utf8)),
            fault: .slowBody(chunkSize: 48, interval: .milliseconds(15))
        )
    }

    func install(on server: FixtureServer) {
        let faults = FaultInjector(rate: failRate, seed: seed)
        func route(_ method: HTTPMethod, _ path: String, _ answer: @escaping @Sendable (FixtureRequest) throws -> FixtureResponse) {
            server.route(method, path, latency: latency) { request in
                if faults.shouldFail() { return .status(503, body: "injected failure") }
                return try answer(request)
            }
        }
        let messageCalls = FixtureCounter()
        route(.get, "/categories") { _ in .envelope(data: categories) }
        route(.get, "/articles") { request in
            let category = Int(request.queryValue("category") ?? "") ?? 1
            let page = Int(request.queryValue("page") ?? "") ?? 1
            return .envelope(data: articlePage(category: category, page: page))
        }
        route(.get, "/article") { request in
            guard let id = Int(request.queryValue("id") ?? ""), let detail = articleDetail(id: id) else {
                return .envelope(code: "4004", message: "这篇文章不存在")
            }
            return .envelope(data: detail)
        }
        route(.get, "/messages") { _ in .envelope(data: messages(fresh: messageCalls.next() > 0)) }
        route(.get, "/task/profile") { _ in
            .envelope(data: ["responseCode": "0000", "responseMsg": "返回成功", "remark": "交流学习", "userName": "简书Haofree", "taskNo": "1"])
        }
        route(.get, "/task/order") { _ in .envelope(data: ["order_no": "A-1024", "amount": "99.50", "items": ["tea", 2, "cake"]]) }
        route(.get, "/task/wallet") { _ in .envelope(code: "1001", message: "余额不足，请先充值") }
        route(.get, "/tickets") { _ in .envelope(data: tickets) }
        route(.get, "/repos/kiln/issues") { request in
            issuePage(1, size: Int(request.queryValue("per_page") ?? "") ?? 30)
        }
        route(.get, "/repositories/7/issues") { request in
            issuePage(Int(request.queryValue("page") ?? "") ?? 1, size: Int(request.queryValue("per_page") ?? "") ?? 30)
        }
        route(.post, "/upload") { request in
            let parts = try request.multipartParts()
            return .envelope(data: [
                "parts": .array(
                    parts.map { part in
                        [
                            "name": .string(part.name), "filename": part.filename.map(JSONValue.string) ?? .null,
                            "content_type": part.contentType.map(JSONValue.string) ?? .null,
                            "size": .int(Int64(part.data.count)), "sha256": .string(part.sha256),
                        ]
                    })
            ])
        }
        server.route(.get, "/activity", latency: latency) { request in
            activityStream(after: Int(request.header("Last-Event-ID") ?? "") ?? 0)
        }
        server.route(.get, "/download", latency: latency) { _ in
            .generated(byteCount: Self.downloadSize, seed: seed).headers(["X-Checksum-SHA256": Self.downloadChecksum(seed: seed)])
        }
    }

    static func downloadChecksum(seed: UInt64) -> String {
        SHA256Digest.hex(of: GeneratedBytes.data(in: 0..<downloadSize, seed: seed))
    }
}

/// Decides, reproducibly, which requests fail when `--fail-rate` is set.
final class FaultInjector: Sendable {
    private struct State {
        var random: DemoRandom
        var injected = 0
    }

    private let state: Mutex<State>
    private let rate: Double

    /// How many requests were failed so far.
    var injected: Int { state.withLock { $0.injected } }

    init(rate: Double, seed: UInt64) {
        self.rate = rate
        self.state = Mutex(State(random: DemoRandom(seed: seed ^ 0xFA17)))
    }

    func shouldFail() -> Bool {
        guard rate > 0 else { return false }
        return state.withLock { state in
            let fail = Double(state.random.next() % 10_000) / 10_000 < rate
            if fail { state.injected += 1 }
            return fail
        }
    }
}

/// SplitMix64: the same numbers on every machine for a given seed.
struct DemoRandom: Sendable {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

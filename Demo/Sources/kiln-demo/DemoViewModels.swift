import Foundation
import Kiln
import Synchronization
import KilnTesting
import Observation

// The demo's view models: what an iOS app would have, built from KilnViewModel's parts. The
// terminal views only read them.

/// The item view model: built from a model, with derived display values.
@MainActor
@Observable
final class BlogListItemViewModel: Identifiable {
    var article: Article
    init(article: Article) { self.article = article }

    nonisolated var id: Int { MainActor.assumeIsolated { article.id } }
    var intro: String { "标题:\(article.title) 内容:\(article.desc)" }
    var byline: String {
        let date = article.published.map { DemoFormat.day($0) } ?? "--"
        return "\(article.authorName) · \(date) · \(article.viewCount) views"
    }
}

/// The blog list: categories, then a paged list per category.
@MainActor
@Observable
final class BlogListViewModel {
    let categories: Resource<[Category]>
    private(set) var list: PagedList<BlogListItemViewModel>
    private(set) var categoryIndex = 0
    var selection = 0
    @ObservationIgnored private let client: APIClient

    init(client: APIClient) {
        self.client = client
        categories = Resource(client: client, endpoint: .get("/categories"))
        list = Self.makeList(client: client, category: 1)
    }

    static func makeList(client: APIClient, category: Int) -> PagedList<BlogListItemViewModel> {
        PagedList(
            client: client, pageSize: DemoFixtures.pageSize, endOfList: .pageCount,
            deduplication: .byID,
            endpoint: { request in
                Endpoint<ArticlePage>.get(
                    "/articles",
                    query: [
                        URLQueryItem(name: "category", value: String(category)),
                        URLQueryItem(name: "page", value: String(request.number)),
                        URLQueryItem(name: "size", value: String(request.size)),
                    ])
            },
            page: { response in Page(items: response.list, totalPages: response.totalPages) },
            makeItem: { BlogListItemViewModel(article: $0) })
    }

    var category: Category? {
        guard let all = categories.value, all.indices.contains(categoryIndex) else { return nil }
        return all[categoryIndex]
    }

    func start() async {
        await categories.load()
        await list.loadFirst()
    }

    func selectCategory(_ index: Int) async {
        guard let all = categories.value, all.indices.contains(index), index != categoryIndex || list.pagesLoaded == 0 else { return }
        categoryIndex = index
        selection = 0
        list = Self.makeList(client: client, category: all[index].id)
        await list.loadFirst()
    }

    var selectedArticle: Article? {
        list.items.indices.contains(selection) ? list.items[selection].article : nil
    }
}

/// The detail page: content loaded by id; a new id reloads.
@MainActor
@Observable
final class ArticleDetailViewModel {
    private(set) var articleID: Int?
    private(set) var resource: Resource<ArticleDetail>?
    @ObservationIgnored private let client: APIClient

    init(client: APIClient) { self.client = client }

    func show(id: Int) async {
        guard id != articleID || resource?.value == nil else { return }
        articleID = id
        let resource = Resource<ArticleDetail>(
            client: client, endpoint: .get("/article", query: [URLQueryItem(name: "id", value: String(id))]))
        self.resource = resource
        await resource.load()
    }
}

/// The message list: the cached list at once, with its age, then the fresh one.
@MainActor
@Observable
final class MessagesViewModel {
    let resource: Resource<MessagePage>
    @ObservationIgnored private let log = DeliveryLog()

    init(client: APIClient) {
        let log = self.log
        // The resource runs the cache policy; the log notes each delivery as it passes, so the
        // order (cache, then network) shows even when both land within one redraw.
        resource = Resource(load: {
            let upstream = client.values(for: Endpoint<MessagePage>.get("/messages"), policy: .cacheThenNetwork)
            return AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        for try await value in upstream {
                            log.append("\(value.origin) · \(value.value.list.count) messages")
                            continuation.yield(value)
                        }
                        continuation.finish()
                    } catch {
                        log.append("failed: \(LoadFailure(error).isNetworkFailure ? "offline" : "error")")
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        })
    }

    /// What arrived, in order: `cache (7200 s old) · 6 messages`, `network · 8 messages`.
    var deliveries: [String] { log.entries }

    func load() async {
        await resource.load()
    }
}

/// A thread-safe list of what a stream delivered.
final class DeliveryLog: Sendable {
    private let stored = Mutex([String]())
    func append(_ entry: String) { stored.withLock { $0.append(entry) } }
    var entries: [String] { stored.withLock { $0 } }
}

/// One view model running three requests, each mapped to its own response model.
@MainActor
@Observable
final class TaskCenterViewModel {
    let profile: Resource<ProfileResponse>
    let order: Resource<OrderResponse>
    let wallet: Resource<WalletResponse>

    init(client: APIClient) {
        profile = Resource(client: client, endpoint: .get("/task/profile"))
        order = Resource(client: client, endpoint: .get("/task/order"))
        wallet = Resource(client: client, endpoint: .get("/task/wallet"))
    }

    func loadAll() async {
        async let first: Void = profile.load()
        async let second: Void = order.load()
        async let third: Void = wallet.load()
        _ = await (first, second, third)
    }
}

/// Three ticket kinds in one list through the display protocol.
@MainActor
final class TicketsViewModel {
    let list: DisplayList<TicketRow>

    init(client: APIClient) {
        var registry = ModelRegistry<any TicketDisplay>(discriminator: "modelType")
        registry.register("1", as: CouponTicket.self)
        registry.register("2", as: DiscountTicket.self)
        registry.register("3", as: ExchangeTicket.self)
        list = DisplayList(client: client, endpoint: .get("/tickets"), registry: registry, at: "list") { TicketRow($0) }
    }
}

/// A GitHub-style list paged by `Link` header: the view model names the first page only; each
/// next page is the URL the server linked to, sent through the same client (its common
/// parameters and retries apply), and the page without a `rel="next"` link is the last.
@MainActor
@Observable
final class IssuesViewModel {
    let list: PagedList<Issue>

    init(client: APIClient) {
        list = PagedList(client: client, pageSize: DemoFixtures.issuesPerPage, endOfList: .missingNextLink, deduplication: .byID) { request in
            // A public API's plain JSON: no {"code", "msg", "data"} around it.
            Endpoint<[Issue]>.get("/repos/kiln/issues", query: [URLQueryItem(name: "per_page", value: String(request.size))])
                .envelope(Envelope.none)
        } page: { issues in
            Page(items: issues)
        }
    }
}

/// The upload and download, with live progress.
@MainActor
@Observable
final class TransfersViewModel {
    enum Phase: Equatable { case idle, running, done, failed(String) }

    private(set) var uploadProgress: Double = 0
    private(set) var downloadProgress: Double = 0
    private(set) var uploadPhase = Phase.idle
    private(set) var downloadPhase = Phase.idle
    private(set) var uploadCheck = ""
    private(set) var downloadCheck = ""
    private(set) var uploadVerified = false
    private(set) var downloadVerified = false
    /// Every fraction seen, to show that progress only moves forward.
    private(set) var uploadFractions: [Double] = []
    private(set) var downloadFractions: [Double] = []
    @ObservationIgnored private let client: APIClient
    @ObservationIgnored private let workspace: URL

    init(client: APIClient, workspace: URL) {
        self.client = client
        self.workspace = workspace
    }

    func upload() async {
        uploadPhase = .running
        uploadProgress = 0
        uploadFractions = []
        do {
            let photo = Data((0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) })
            let report = workspace.appendingPathComponent("report.csv")
            let rows = (1...40_000).map { "\($0),message \($0),\($0 % 7 == 0 ? "unread" : "read")" }.joined(separator: "\n")
            try Data(rows.utf8).write(to: report)
            var form = MultipartFormData()
            form.append(photo, name: "photo", filename: "photo.png", mimeType: "image/png")
            form.append(fileAt: report, name: "report")
            form.append("from the Kiln demo", name: "note")
            let expected = [
                "photo": SHA256Digest.hex(of: photo), "report": try SHA256Digest.hex(ofFileAt: report),
                "note": SHA256Digest.hex(of: Data("from the Kiln demo".utf8)),
            ]
            var receipt: UploadReceipt?
            for try await event in client.upload(Endpoint<UploadReceipt>.post("/upload", body: .multipart(form))) {
                switch event {
                case .progress(let progress):
                    let fraction = progress.fraction ?? 0
                    uploadFractions.append(fraction)
                    uploadProgress = fraction
                case .finished(let value):
                    receipt = value
                }
            }
            guard let receipt else { throw DemoFailure("the upload ended without a receipt") }
            let matched = receipt.parts.filter { expected[$0.name] == $0.sha256 }
            uploadVerified = matched.count == 3
            uploadProgress = 1
            uploadCheck =
                "\(receipt.parts.count) parts received, \(matched.count)/3 SHA-256 match ("
                + receipt.parts.map { "\($0.name) \(DemoFormat.bytes($0.size))" }.joined(separator: ", ") + ")"
            uploadPhase = .done
        } catch {
            uploadPhase = .failed(DemoFormat.failure(error))
        }
    }

    func download() async {
        downloadPhase = .running
        downloadProgress = 0
        downloadFractions = []
        let destination = workspace.appendingPathComponent("download.bin")
        try? FileManager.default.removeItem(at: destination)
        do {
            var file: DownloadedFile?
            for try await event in client.download(Endpoint<Data>.get("/download"), to: destination) {
                switch event {
                case .progress(let progress):
                    let fraction = progress.fraction ?? 0
                    downloadFractions.append(fraction)
                    downloadProgress = fraction
                case .finished(let value):
                    file = value
                }
            }
            guard let file else { throw DemoFailure("the download ended without a file") }
            let actual = try SHA256Digest.hex(ofFileAt: file.url)
            let declared = file.head.headers.first { $0.key.lowercased() == "x-checksum-sha256" }?.value ?? ""
            downloadVerified = !declared.isEmpty && actual == declared
            downloadProgress = 1
            downloadCheck =
                "\(DemoFormat.bytes(Int(file.byteCount))) · SHA-256 \(actual.prefix(16))… \(downloadVerified ? "matches" : "DOES NOT match") the server's"
            downloadPhase = .done
        } catch {
            downloadPhase = .failed(DemoFormat.failure(error))
        }
    }
}

/// The live screen: an activity feed read as Server-Sent Events, shown as it arrives.
@MainActor
@Observable
final class ActivityFeedViewModel {
    let feed: LiveList<Activity>

    init(client: APIClient) {
        // Short waits and few attempts: offline, the demo says so within a second.
        let reconnection = Reconnection(initialDelay: .milliseconds(100), maximumDelay: .seconds(1), maximumAttempts: 3)
        feed = LiveList(keepingLast: 100) {
            client.events(Endpoint<Activity>.get("/activity"), reconnection: reconnection)
        }
    }
}

extension LiveList.State {
    /// Whether the stream failed for want of a network.
    var failureIsNetwork: Bool {
        if case .failed(let failure) = self { failure.isNetworkFailure } else { false }
    }
}

/// Every repair the tolerant decoder made, from every response: what a team shows its backend.
@MainActor
@Observable
final class RepairJournal {
    private(set) var entries: [Repair] = []

    func add(_ repair: Repair) {
        entries.append(repair)
    }
}

struct DemoFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

enum DemoFormat {
    static func day(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        let c = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", c.year ?? 0, c.month ?? 0, c.day ?? 0)
    }

    static func age(_ seconds: TimeInterval) -> String {
        if seconds < 90 { return "\(Int(seconds)) s" }
        if seconds < 5400 { return "\(Int(seconds / 60)) min" }
        return "\(Int(seconds / 3600)) h"
    }

    static func bytes(_ count: Int) -> String {
        count >= 1_048_576
            ? String(format: "%.1f MB", Double(count) / 1_048_576)
            : count >= 1024 ? String(format: "%.0f KB", Double(count) / 1024) : "\(count) B"
    }

    static func failure(_ error: any Error) -> String {
        let failure = LoadFailure(error)
        switch failure {
        case .server(_, let message): return "the server says: \(message)"
        case .network: return "you are offline (\(failure.description))"
        default: return failure.description
        }
    }

    static func bar(_ fraction: Double, width: Int = 30) -> String {
        let clamped = min(1, max(0, fraction))
        let filled = Int((clamped * Double(width)).rounded())
        return "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] "
            + String(format: "%3d%%", Int((clamped * 100).rounded()))
    }
}

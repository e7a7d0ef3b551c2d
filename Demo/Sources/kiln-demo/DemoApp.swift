import Foundation
import Kiln
import KilnTesting
import Observation

/// The screens, in Tab order.
enum Screen: Int, CaseIterable, Sendable {
    case blog, article, messages, tasks, tickets, transfers, issues, live, repairs

    var title: String {
        switch self {
        case .blog: "Blog"
        case .article: "Article"
        case .messages: "Messages"
        case .tasks: "Requests"
        case .tickets: "Tickets"
        case .transfers: "Transfers"
        case .issues: "Issues"
        case .live: "Live"
        case .repairs: "Repairs"
        }
    }
}

/// The demo's whole state: the client, the view models, the screen on show. Views draw from it.
@MainActor
@Observable
final class DemoApp {
    var screen = Screen.blog
    var status = ""
    let options: DemoOptions
    let blog: BlogListViewModel
    let article: ArticleDetailViewModel
    let messages: MessagesViewModel
    let tasks: TaskCenterViewModel
    let tickets: TicketsViewModel
    let transfers: TransfersViewModel
    let issues: IssuesViewModel
    let activity: ActivityFeedViewModel
    let journal: RepairJournal
    @ObservationIgnored let server: FixtureServer
    @ObservationIgnored let workspace: URL
    @ObservationIgnored private var started: Set<Screen> = []

    /// Starts the fixture server, seeds the cache with an "earlier session", and builds the
    /// view models on one API client.
    static func launch(_ options: DemoOptions) async throws -> DemoApp {
        let server = try await FixtureServer.start(port: options.port)
        let fixtures = DemoFixtures(seed: options.seed, latency: .milliseconds(options.latency), failRate: options.failRate)
        fixtures.install(on: server)
        let workspace = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-demo-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)

        // The earlier session: messages fetched two hours ago and archived on disk.
        let cacheFolder = workspace.appendingPathComponent("cache")
        do {
            let twoHoursAgo = CacheClock { Date().addingTimeInterval(-7200) }
            let earlier = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [RetryInterceptor(policy: RetryPolicy(maxRetries: 8))],
                responseCache: ResponseCache(DiskCache(directory: cacheFolder, clock: twoHoursAgo), clock: twoHoursAgo))
            // Without it the messages screen simply starts with nothing cached.
            _ = try? await earlier.send(Endpoint<MessagePage>.get("/messages"), policy: .networkOnly)
        }

        let journal = RepairJournal()
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        policy.onRepair = { repair in Task { @MainActor in journal.add(repair) } }
        // Offline: requests go to a port nobody listens on, under the server's own URLs.
        // The demo's API wraps every answer in {"code", "msg", "data"}: the client is told so.
        let client = APIClient(
            baseURL: server.baseURL,
            envelope: .codeMessageData,
            interceptors: [
                CommonParametersInterceptor(["service_code": "kiln-demo"]),
                RetryInterceptor(policy: RetryPolicy(maxRetries: options.failRate > 0 ? 6 : 1)),
            ] + (options.offline ? [UnreachableNetwork()] : []),
            decoder: KilnDecoder(policy: policy),
            responseCache: ResponseCache(LayeredCache(disk: DiskCache(directory: cacheFolder)))
        )
        return DemoApp(options: options, client: client, server: server, workspace: workspace, journal: journal)
    }

    private init(options: DemoOptions, client: APIClient, server: FixtureServer, workspace: URL, journal: RepairJournal) {
        self.options = options
        self.server = server
        self.workspace = workspace
        self.journal = journal
        blog = BlogListViewModel(client: client)
        article = ArticleDetailViewModel(client: client)
        messages = MessagesViewModel(client: client)
        tasks = TaskCenterViewModel(client: client)
        tickets = TicketsViewModel(client: client)
        transfers = TransfersViewModel(client: client, workspace: workspace)
        issues = IssuesViewModel(client: client)
        activity = ActivityFeedViewModel(client: client)
    }

    func shutdown() async {
        await server.stop()
        try? FileManager.default.removeItem(at: workspace)
    }

    /// Loads what a screen shows the first time it appears.
    func appear(_ screen: Screen) async {
        self.screen = screen
        guard started.insert(screen).inserted else { return }
        switch screen {
        case .blog: await blog.start()
        case .article:
            // The selected article, or the first one there is (offline there is no list to pick from).
            await article.show(id: blog.selectedArticle?.id ?? blog.list.items.first?.article.id ?? 1001)
        case .messages: await messages.load()
        case .tasks: await tasks.loadAll()
        case .tickets: await tickets.list.load()
        case .transfers:
            await transfers.upload()
            await transfers.download()
        case .issues: await issues.list.loadFirst()
        case .live: await activity.feed.start()
        case .repairs: break
        }
    }
}

/// The command-line options, shared by the interactive and the scripted runs.
struct DemoOptions: Sendable {
    var latency = 0
    var failRate = 0.0
    var offline = false
    var port: UInt16 = 0
    var seed: UInt64 = 2016
    var script = false
}

import Foundation
import Kiln

/// The demo at the keyboard: Tab between screens, arrows or j/k to move, Enter to open, n for
/// the next page, r to refresh, q to quit. The screen is redrawn only when an observed value
/// changes.
@MainActor
final class InteractiveSession {
    let app: DemoApp
    let terminal = Terminal()
    private var token: ObservationToken?

    init(app: DemoApp) { self.app = app }

    func run() async {
        terminal.enterRawMode()
        defer { terminal.restore() }
        token = observeChanges { [weak self] in self?.redraw() }
        Task { await app.appear(.blog) }
        for await key in terminal.keys() {
            if key == .character("q") || key == .escape { break }
            handle(key)
        }
        token?.cancel()
    }

    func redraw() {
        let tabs = Screen.allCases.map { $0 == app.screen ? "[\($0.rawValue + 1) \($0.title)]" : " \($0.rawValue + 1) \($0.title) " }.joined()
        var lines = ["Kiln demo — data factory MVVM against a live fixture server (\(app.server.baseURL.absoluteString))", tabs, ""]
        lines += DemoViews.render(app.screen, app: app)
        lines += ["", help(for: app.screen)]
        if !app.status.isEmpty { lines.append(app.status) }
        terminal.draw(lines)
    }

    func help(for screen: Screen) -> String {
        let common = "Tab/1-\(Screen.allCases.count) screens · q quit"
        switch screen {
        case .blog: return "↑↓/jk move · ←→ category · Enter open · n next page · r refresh · " + common
        case .article: return "r reload · " + common
        case .messages: return "r reload (cache, then network) · " + common
        case .tasks, .tickets: return "r reload · " + common
        case .transfers: return "u upload · d download · r both · " + common
        case .issues: return "n next page (the Link header's) · r refresh · " + common
        case .live: return "r reconnect · " + common
        case .repairs: return common
        }
    }

    func go(_ screen: Screen) {
        Task { await app.appear(screen) }
    }

    func handle(_ key: Key) {
        switch key {
        case .tab: go(Screen(rawValue: (app.screen.rawValue + 1) % Screen.allCases.count) ?? .blog)
        case .backTab: go(Screen(rawValue: (app.screen.rawValue + Screen.allCases.count - 1) % Screen.allCases.count) ?? .blog)
        case .character(let c) where c.wholeNumberValue.map { (1...Screen.allCases.count).contains($0) } ?? false:
            if let number = c.wholeNumberValue, let screen = Screen(rawValue: number - 1) { go(screen) }
        default:
            handleOnScreen(key)
        }
    }

    func handleOnScreen(_ key: Key) {
        let blog = app.blog
        switch (app.screen, key) {
        case (.blog, .down), (.blog, .character("j")):
            blog.selection = min(blog.selection + 1, max(0, blog.list.items.count - 1))
            if blog.selection >= blog.list.items.count - 2 { Task { await blog.list.loadNext() } }
        case (.blog, .up), (.blog, .character("k")):
            blog.selection = max(0, blog.selection - 1)
        case (.blog, .right), (.blog, .left):
            let count = blog.categories.value?.count ?? 0
            guard count > 0 else { return }
            let next = (blog.categoryIndex + (key == .right ? 1 : count - 1)) % count
            Task { await blog.selectCategory(next) }
        case (.blog, .character("n")):
            Task { await blog.list.loadNext() }
        case (.blog, .character("r")):
            Task { await blog.list.refresh() }
        case (.blog, .enter):
            guard let id = blog.selectedArticle?.id else { return }
            Task {
                await app.appear(.article)
                await app.article.show(id: id)
            }
        case (.article, .character("r")):
            if let id = app.article.articleID {
                Task {
                    await app.article.resource?.refresh()
                    _ = id
                }
            }
        case (.messages, .character("r")):
            Task { await app.messages.resource.refresh() }
        case (.tasks, .character("r")):
            Task { await app.tasks.loadAll() }
        case (.tickets, .character("r")):
            Task { await app.tickets.list.refresh() }
        case (.issues, .character("n")):
            Task { await app.issues.list.loadNext() }
        case (.issues, .character("r")):
            Task { await app.issues.list.refresh() }
        case (.transfers, .character("u")):
            Task { await app.transfers.upload() }
        case (.transfers, .character("d")):
            Task { await app.transfers.download() }
        case (.live, .character("r")):
            Task { await app.activity.feed.start() }
        case (.transfers, .character("r")):
            Task {
                await app.transfers.upload()
                await app.transfers.download()
            }
        default:
            break
        }
    }
}

import Foundation
import Kiln

/// The walk through every screen when no one is at the keyboard (or with `--script`): each step
/// prints what the screen shows and checks it, and the run ends with a one-line summary.
@MainActor
final class ScriptedWalk {
    let app: DemoApp
    private var passed = 0
    private var failed: [String] = []

    init(app: DemoApp) { self.app = app }

    var online: Bool { !app.options.offline }

    func check(_ condition: Bool, _ what: String) {
        if condition {
            passed += 1
            print("  ✓ \(what)")
        } else {
            failed.append(what)
            print("  ✗ \(what)")
        }
    }

    func show(_ screen: Screen, _ note: String = "") {
        print("── \(screen.rawValue + 1)/\(Screen.allCases.count) \(screen.title)\(note.isEmpty ? "" : " · \(note)") " + String(repeating: "─", count: 30))
        for line in DemoViews.render(screen, app: app) { print("  " + line) }
    }

    /// Runs every step; `true` when every check passed.
    func run() async -> Bool {
        await blog()
        await article()
        await messages()
        await tasks()
        await tickets()
        await transfers()
        await issues()
        await live()
        await repairs()
        let total = passed + failed.count
        print("")
        print(
            "kiln-demo: \(Screen.allCases.count) screens, \(total) checks\(app.options.offline ? " (offline)" : ""): \(passed) passed, \(failed.count) failed")
        for what in failed { print("  failed: \(what)") }
        return failed.isEmpty
    }

    func blog() async {
        await app.appear(.blog)
        let blog = app.blog
        show(.blog, "first page")
        guard online else {
            check(blog.categories.failure?.isNetworkFailure == true, "offline: the blog says it is offline")
            return
        }
        check(blog.categories.value?.count == 3, "three categories (one id sent as a string)")
        check(blog.list.items.count == 10, "first page: 10 articles")
        await blog.list.loadNext()
        check(blog.list.items.count == 20 && blog.list.items[10].article.id == 1011, "next page appends: 20 articles")
        await blog.list.loadNext()
        show(.blog, "after n, n")
        check(blog.list.items.count == 23 && blog.list.isAtEnd, "end of list after 23 articles (page count)")
        await blog.list.loadNext()
        check(blog.list.items.count == 23, "n at the end loads nothing more")
        await blog.list.refresh()
        check(blog.list.items.count == 10 && blog.list.items.first?.article.id == 1001, "refresh resets to the first page")
        await blog.selectCategory(1)
        show(.blog, "category Architecture")
        check(blog.list.items.first?.article.id == 2001 && blog.list.items.count == 10, "another category replaces the list")
        let item = blog.list.items.first
        let before = item?.intro
        item?.article.title = "Renamed"
        check(item?.intro != before && item?.intro.hasPrefix("标题:Renamed") == true, "item view model's intro follows its model")
        blog.selection = 2
    }

    func article() async {
        await app.appear(.article)
        let model = app.article
        show(.article)
        guard online else {
            check(model.resource?.failure?.isNetworkFailure == true, "offline: the article says it is offline")
            return
        }
        let expected = app.blog.list.items[2].article.id
        check(model.resource?.value?.id == expected && model.resource?.value?.content.contains("Full text") == true, "article #\(expected) loaded by id")
        await model.show(id: 3005)
        show(.article, "id changed")
        check(model.resource?.value?.id == 3005, "a new id reloads the detail")
        await model.show(id: 9999)
        check(model.resource?.failure?.isServerRefusal == true, "an unknown id shows the server's message")
        show(.article, "unknown id")
    }

    func messages() async {
        await app.appear(.messages)
        show(.messages)
        let deliveries = app.messages.deliveries
        check(
            deliveries.first?.hasPrefix("cache (") == true && deliveries.first?.contains("6 messages") == true,
            "the cached list (2 h old, 6 messages) arrives first")
        if online {
            check(deliveries.count == 2 && deliveries.last == "network · 8 messages", "then the fresh list from the network (8 messages)")
        } else {
            check(
                app.messages.resource.failure?.isNetworkFailure == true && app.messages.resource.value?.list.count == 6,
                "offline: the cached list stays and the offline state shows")
        }
    }

    func tasks() async {
        await app.appear(.tasks)
        show(.tasks)
        let tasks = app.tasks
        guard online else {
            check(tasks.profile.failure?.isNetworkFailure == true, "offline: requests fail as offline, not as server errors")
            return
        }
        check(tasks.profile.value?.userName == "简书Haofree" && tasks.profile.value?.taskNo == 1, "type 1 maps to its own model (taskNo \"1\" → 1)")
        check(tasks.order.value?.items == ["tea", "2", "cake"] && tasks.order.value?.amount == 99.5, "type 2 maps to its own model")
        check(tasks.wallet.failure == .server(code: "1001", message: "余额不足，请先充值"), "type 3 shows the server's own message")
    }

    func tickets() async {
        await app.appear(.tickets)
        show(.tickets)
        let list = app.tickets.list
        guard online else {
            check(list.state.failure?.isNetworkFailure == true, "offline: tickets say they are offline")
            return
        }
        check(list.rows.map(\.kind) == ["coupon", "discount", "exchange", "coupon", "discount"], "three ticket kinds in one list")
        check(list.repairs.contains { $0.kind == .unknownType && $0.path == "data.list[3]" }, "the unknown kind is skipped with a repair line")
    }

    func transfers() async {
        await app.appear(.transfers)
        show(.transfers)
        let model = app.transfers
        guard online else {
            check(model.uploadPhase != .done && model.downloadPhase != .done, "offline: transfers fail without a partial file")
            return
        }
        print("  upload progress:   " + milestones(model.uploadFractions))
        print("  download progress: " + milestones(model.downloadFractions))
        check(isMonotonic(model.uploadFractions) && model.uploadFractions.last == 1, "upload progress only moves forward and reaches 100%")
        check(model.uploadVerified, "the server received all three parts intact (SHA-256)")
        check(isMonotonic(model.downloadFractions) && model.downloadFractions.last == 1, "download progress only moves forward and reaches 100%")
        check(model.downloadVerified, "the downloaded file's SHA-256 matches the server's")
    }

    func issues() async {
        await app.appear(.issues)
        let list = app.issues.list
        show(.issues, "first page")
        guard online else {
            check(list.failure?.isNetworkFailure == true, "offline: the issues say they are offline")
            return
        }
        check(list.items.count == 10 && list.hasMore, "first page: 10 issues, and a Link header with rel=\"next\"")
        await list.loadNext()
        await list.loadNext()
        show(.issues, "after n, n")
        let numbers = list.items.map(\.number)
        check(numbers == Array((101...125).reversed()), "pages arrive in order, following the Link header: 25 issues")
        check(list.isAtEnd, "end of list: the last page has no next link")
        let followed = app.server.requests(to: "/repositories/7/issues")
        check(
            Set(followed.map { $0.queryValue("page") }) == ["2", "3"] && followed.allSatisfy { $0.queryValue("service_code") == "kiln-demo" },
            "each next page is the linked URL, sent through the client's interceptors")
        let asked = app.server.requests.count
        await list.loadNext()
        check(list.items.count == 25 && app.server.requests.count == asked, "n at the end asks for nothing")
        await list.refresh()
        check(list.items.count == 10 && list.hasMore && list.items.first?.number == 125, "refresh starts over from the first page")
    }

    func live() async {
        // Returns when the stream has ended: the server answers 204 after the last event.
        await app.appear(.live)
        show(.live)
        let feed = app.activity.feed
        guard online else {
            check(feed.state.failureIsNetwork, "offline: the live feed fails as offline after its reconnection attempts")
            return
        }
        check(feed.items.map(\.id) == [1, 2, 3, 4, 5, 6], "six events, in order, across a dropped connection")
        let asked = app.server.requests(to: "/activity").map { $0.header("Last-Event-ID") ?? "-" }
        check(asked == ["-", "3", "6"], "the reconnection resumed from the last event seen (Last-Event-ID 3), then the server said 204")
        check(feed.items.first { $0.id == 4 }?.who == "someone", "an event with a null field is repaired on its own (who → \"someone\")")
        check(feed.state == .ended, "the stream ends when the server says there is nothing more")
    }

    func repairs() async {
        await app.appear(.repairs)
        // Repairs reach the journal through the main actor: let the queued ones land.
        for _ in 0..<20 { await Task.yield() }
        show(.repairs)
        guard online else {
            check(true, "offline: only the cached messages were decoded")
            return
        }
        let entries = app.journal.entries
        check(entries.contains { $0.path.hasSuffix("view_count") && $0.found == "\"1.2k\"" }, "a bad view count is repaired and logged with its path")
        check(entries.contains { $0.kind == .coerced }, "coercions (\"1\" → 1) are logged")
    }

    func isMonotonic(_ values: [Double]) -> Bool {
        zip(values, values.dropFirst()).allSatisfy { $0 <= $1 }
    }

    func milestones(_ values: [Double]) -> String {
        var shown: [Int] = []
        for value in values {
            let percent = Int((value * 100).rounded(.down))
            if shown.isEmpty || percent >= (shown.last ?? 0) + 25 || (percent == 100 && shown.last != 100) { shown.append(percent) }
        }
        return shown.map { "\($0)%" }.joined(separator: " → ")
    }
}

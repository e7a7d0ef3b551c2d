import Foundation
import Kiln

/// The terminal "views": each reads its view model and returns lines. They only observe and
/// draw — the same split a SwiftUI body or a UIKit cell would have.
@MainActor
enum DemoViews {
    static func render(_ screen: Screen, app: DemoApp) -> [String] {
        switch screen {
        case .blog: blog(app.blog)
        case .article: article(app.article)
        case .messages: messages(app.messages, offline: app.options.offline)
        case .tasks: tasks(app.tasks)
        case .tickets: tickets(app.tickets)
        case .transfers: transfers(app.transfers)
        case .issues: issues(app.issues)
        case .live: live(app.activity)
        case .repairs: repairs(app.journal)
        }
    }

    static func blog(_ model: BlogListViewModel) -> [String] {
        var lines: [String] = []
        if let categories = model.categories.value {
            lines.append(
                "Categories: " + categories.enumerated().map { i, c in i == model.categoryIndex ? "[\(c.name)]" : " \(c.name) " }.joined(separator: " "))
        } else if let failure = model.categories.failure {
            lines.append("Categories: \(DemoFormat.failure(failure))")
        } else {
            lines.append("Categories: loading…")
        }
        let list = model.list
        for (i, item) in list.items.enumerated() {
            lines.append("\(i == model.selection ? ">" : " ") \(item.intro)")
            if i == model.selection { lines.append("    \(item.byline)") }
        }
        if let line = phaseLine(list) { lines.append(line) }
        let end = list.isAtEnd ? " · end of list" : ""
        lines.append("\(list.items.count) articles, \(pages(list))\(end)")
        return lines
    }

    static func issues(_ model: IssuesViewModel) -> [String] {
        let list = model.list
        var lines = list.items.map { issue in
            "#\(issue.number) \(issue.title) — \(issue.state), \(issue.comments) comments, by \(issue.author)"
        }
        if let line = phaseLine(list) { lines.append(line) }
        let end = list.isAtEnd ? " · end of list (no rel=\"next\" link)" : list.pagesLoaded > 0 ? " · n follows the Link header" : ""
        lines.append("\(list.items.count) issues, \(pages(list))\(end)")
        return lines
    }

    /// What a paged list is loading, or why its last load failed.
    static func phaseLine<Item>(_ list: PagedList<Item>) -> String? {
        switch list.phase {
        case .loading(let kind): kind == .next ? "  … loading the next page" : "  … loading"
        case .failed(let failure, _): "  ! \(DemoFormat.failure(failure)) — press n to retry"
        default: nil
        }
    }

    static func pages<Item>(_ list: PagedList<Item>) -> String {
        "\(list.pagesLoaded) page\(list.pagesLoaded == 1 ? "" : "s")"
    }

    static func article(_ model: ArticleDetailViewModel) -> [String] {
        guard let resource = model.resource else { return ["Open an article from the blog list (Enter)."] }
        var lines = ["Article #\(model.articleID.map(String.init) ?? "--")"]
        if let detail = resource.value {
            lines.append("Title:   \(detail.title)")
            lines.append("Author:  \(detail.authorName) · \(detail.published.map { DemoFormat.day($0) } ?? "--")")
            lines.append("Content: \(detail.content)")
        }
        if resource.isLoading { lines.append("… loading") }
        if let failure = resource.failure { lines.append("! \(DemoFormat.failure(failure))") }
        return lines
    }

    static func messages(_ model: MessagesViewModel, offline: Bool) -> [String] {
        let resource = model.resource
        var lines: [String] = []
        switch resource.origin {
        case .cache(let age)?: lines.append("Showing the cached list, \(DemoFormat.age(age)) old\(resource.isLoading ? " — fetching the fresh one…" : "")")
        case .network?: lines.append("Showing the fresh list from the network")
        case .revalidated?: lines.append("Showing the cached list, confirmed current by the server")
        case nil: lines.append(resource.isLoading ? "… loading" : "")
        }
        if let failure = resource.failure {
            lines.append("! \(DemoFormat.failure(failure))\(resource.value != nil ? " — the cached list stays" : "")")
        }
        for message in resource.value?.list ?? [] {
            let when = message.sentAt.map { DemoFormat.day($0) } ?? "--"
            lines.append("\(message.unread ? "●" : " ") \(message.sender): \(message.text)  (\(when))")
        }
        if !model.deliveries.isEmpty { lines.append("Delivered: " + model.deliveries.joined(separator: "  →  ")) }
        return lines
    }

    static func tasks(_ model: TaskCenterViewModel) -> [String] {
        func line<Value>(_ name: String, _ resource: Resource<Value>, _ show: (Value) -> String) -> String {
            if let value = resource.value { return "\(name): \(show(value))" }
            if let failure = resource.failure { return "\(name): \(DemoFormat.failure(failure))" }
            return "\(name): \(resource.isLoading ? "loading…" : "-")"
        }
        return [
            line("Type 1 (profile)", model.profile) { "\($0.userName), task #\($0.taskNo) — \($0.responseMsg)" },
            line("Type 2 (order)  ", model.order) { "\($0.orderNo), ¥\(String(format: "%.2f", $0.amount)), items \($0.items.joined(separator: ", "))" },
            line("Type 3 (wallet) ", model.wallet) { "balance ¥\($0.balance)" },
        ]
    }

    static func tickets(_ model: TicketsViewModel) -> [String] {
        let list = model.list
        var lines = list.rows.map { row in
            "\(row.kind.padding(toLength: 9, withPad: " ", startingAt: 0)) \(row.money.padding(toLength: 9, withPad: " ", startingAt: 0)) \(row.title) — \(row.detail)"
        }
        if let failure = list.state.failure { lines.append("! \(DemoFormat.failure(failure))") }
        for repair in list.repairs where repair.kind == .unknownType { lines.append("skipped: \(repair)") }
        if list.state.isLoading { lines.append("… loading") }
        return lines
    }

    static func transfers(_ model: TransfersViewModel) -> [String] {
        func phase(_ phase: TransfersViewModel.Phase, _ check: String) -> String {
            switch phase {
            case .idle: "waiting"
            case .running: "running"
            case .done: check
            case .failed(let reason): "failed: \(reason)"
            }
        }
        return [
            "Upload   \(DemoFormat.bar(model.uploadProgress))  photo.png + report.csv + note",
            "         \(phase(model.uploadPhase, model.uploadCheck))",
            "Download \(DemoFormat.bar(model.downloadProgress))  /download",
            "         \(phase(model.downloadPhase, model.downloadCheck))",
        ]
    }

    static func live(_ model: ActivityFeedViewModel) -> [String] {
        let feed = model.feed
        var lines = feed.items.map { "#\($0.id) \($0.who) \($0.what)" }
        switch feed.state {
        case .idle: lines.append("not connected")
        case .connecting: lines.append("… connecting")
        case .live: lines.append("● live")
        case .reconnecting(let attempt, _): lines.append("… reconnecting (attempt \(attempt)), from the last event seen")
        case .ended: lines.append("stream ended")
        case .failed(let failure): lines.append("! \(DemoFormat.failure(failure))")
        }
        if feed.unreadableItems > 0 { lines.append("\(feed.unreadableItems) event(s) could not be read and were skipped") }
        return lines
    }

    static func repairs(_ journal: RepairJournal) -> [String] {
        guard !journal.entries.isEmpty else { return ["Nothing repaired yet: open the other screens first."] }
        return ["\(journal.entries.count) repairs in the responses so far:"] + journal.entries.map { "  \($0)" }
    }
}

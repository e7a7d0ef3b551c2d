import Foundation
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing

/// A blog list, tested the way an app tests its own view model: a stub server, the view
/// model, and what the view would show.
@MainActor
@Suite("Blog list (PagedList)")
struct BlogListTests {
    /// Three pages of three articles: ids 1–9, the last page says there is no more.
    func threePages(prefix: String = "A") -> StubTransport {
        let stub = StubTransport()
        stub.on(.get, "/articles") { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            guard (1...3).contains(page) else { return .envelope(data: ["list": [], "hasMore": false]) }
            let first = (page - 1) * 3 + 1
            return articlePage(first...(first + 2), prefix: prefix, hasMore: page < 3)
        }
        return stub
    }

    @Test func firstPageLoadsItemViewModels() async {
        let stub = threePages()
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        #expect(model.articles.phase == .idle)

        await model.first()

        #expect(model.intros == ["标题:A1 内容:desc", "标题:A2 内容:desc", "标题:A3 内容:desc"])
        #expect(model.articles.phase == .loaded)
        #expect(model.articles.hasMore)
        #expect(model.articles.pagesLoaded == 1)
        #expect(stub.requests.map { $0.queryValue("page") } == ["1"])
        #expect(stub.requests.first?.queryValue("category") == "swift")
        #expect(stub.requests.first?.queryValue("size") == "3")
    }

    @Test func nextPageAppends() async {
        let model = BlogListViewModel(client: stubClient(threePages()), category: "swift")
        await model.first()
        await model.next()
        #expect(model.articles.items.map(\.blogId) == Array(1...6))
        #expect(model.articles.pagesLoaded == 2)
    }

    @Test func firstPageAgainReplacesInsteadOfAppending() async {
        let model = BlogListViewModel(client: stubClient(threePages()), category: "swift")
        await model.first()
        await model.next()
        await model.first()
        #expect(model.articles.items.map(\.blogId) == [1, 2, 3])
        #expect(model.articles.pagesLoaded == 1)
        #expect(model.articles.hasMore)
    }

    @Test func refreshKeepsItemsVisibleUntilThePageArrives() async {
        let stub = StubTransport()
        let gate = Gate()
        let calls = FixtureCounter()
        stub.on(.get, "/articles") { _ in
            if calls.next() == 0 { return articlePage(1...3, prefix: "old", hasMore: true) }
            await gate.wait()
            return articlePage(1...3, prefix: "new", hasMore: true)
        }
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        let refreshing = Task { await model.articles.refresh() }
        #expect(await eventually { model.articles.phase == .loading(.refresh) })
        #expect(model.articles.items.map(\.article.title) == ["old1", "old2", "old3"])
        gate.open()
        await refreshing.value
        #expect(model.articles.items.map(\.article.title) == ["new1", "new2", "new3"])
    }

    @Test func endOfListStopsAskingForPages() async {
        let stub = threePages()
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        await model.next()
        await model.next()
        #expect(model.articles.isAtEnd)
        #expect(!model.articles.hasMore)
        await model.next()
        await model.next()
        #expect(model.articles.items.count == 9)
        #expect(stub.requests.count == 3, "no request after the last page")
    }

    @Test(arguments: [EndOfList.pageCount, .shortPage, .automatic])
    func endOfListFromPageCountOrShortPage(rule: EndOfList) async {
        let stub = StubTransport()
        // Two pages: a full one, then a short one; the server also says there are 2 pages.
        stub.on(.get, "/articles") { request in
            let page = Int(request.queryValue("page") ?? "") ?? 0
            let ids = page == 1 ? [1, 2, 3] : [4]
            return .envelope(data: ["list": .array(ids.map { articleJSON($0, "A\($0)") }), "pageCount": 2])
        }
        let list = PagedList<Article>(client: stubClient(stub), pageSize: 3, endOfList: rule) { request in
            .articles(category: "swift", page: request.number, size: request.size)
        } page: { response in
            Page(items: response.list, totalPages: rule == .shortPage ? nil : response.pageCount)
        }
        await list.loadFirst()
        #expect(list.hasMore)
        await list.loadNext()
        #expect(list.isAtEnd)
        await list.loadNext()
        #expect(list.items.map(\.id) == [1, 2, 3, 4])
        #expect(stub.requests.count == 2)
    }

    @Test func failedPageKeepsItemsAndCanBeRetried() async {
        let stub = StubTransport()
        let calls = FixtureCounter()
        stub.on(.get, "/articles") { request in
            let page = request.queryValue("page")
            if page == "1" { return articlePage(1...3, hasMore: true) }
            // Page 2: offline once, then the server refuses once, then it works.
            switch calls.next() {
            case 0: throw URLError(.notConnectedToInternet)
            case 1: return .envelope(code: "4001", message: "请稍后再试")
            default: return articlePage(4...6, hasMore: false)
            }
        }
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()

        await model.next()
        #expect(model.articles.items.map(\.blogId) == [1, 2, 3])
        #expect(model.articles.failure?.isNetworkFailure == true)
        guard case .failed(.network(let transport), .next) = model.articles.phase else {
            Issue.record("expected a network failure of the next page, got \(model.articles.phase)")
            return
        }
        #expect(transport.reason == .offline)

        await model.articles.retry()
        #expect(model.articles.items.map(\.blogId) == [1, 2, 3])
        #expect(model.articles.failure == .server(code: "4001", message: "请稍后再试"))
        #expect(model.articles.failure?.description == "请稍后再试")

        await model.articles.retry()
        #expect(model.articles.items.map(\.blogId) == [1, 2, 3, 4, 5, 6])
        #expect(model.articles.failure == nil)
        #expect(model.articles.isAtEnd)
    }

    @Test func repeatedItemsAreDroppedWhenDeduplicating() async {
        let stub = StubTransport()
        // The server shifted by one between the pages: page 2 repeats article 3.
        stub.on(.get, "/articles") { request in
            request.queryValue("page") == "1" ? articlePage(1...3, hasMore: true) : articlePage(3...5, hasMore: false)
        }
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        await model.next()
        #expect(model.articles.items.map(\.blogId) == [1, 2, 3, 4, 5])
    }

    @Test func secondLoadNextJoinsTheOneInFlight() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.on(.get, "/articles") { request in
            if request.queryValue("page") == "1" { return articlePage(1...3, hasMore: true) }
            await gate.wait()
            return articlePage(4...6, hasMore: true)
        }
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        let first = Task { await model.next() }
        #expect(await eventually { model.articles.phase == .loading(.next) })
        let second = Task { await model.next() }
        let third = Task { await model.next() }
        gate.open()
        await first.value
        await second.value
        await third.value
        #expect(model.articles.items.map(\.blogId) == Array(1...6))
        #expect(stub.requests.map { $0.queryValue("page") } == ["1", "2"])
    }

    @Test func cursorPagingPassesTheCursorAlong() async {
        let stub = StubTransport()
        stub.on(.get, "/feed") { request in
            switch request.queryValue("after") {
            case nil: .envelope(data: ["list": [articleJSON(1, "a"), articleJSON(2, "b")], "next": "c2"])
            case "c2": .envelope(data: ["list": [articleJSON(3, "c")], "next": "c3"])
            default: .envelope(data: ["list": [articleJSON(4, "d")]])
            }
        }
        let list = PagedList<Article>(client: stubClient(stub), pageSize: 2, endOfList: .missingCursor) { request in
            Endpoint<ArticlePage>.get("/feed", query: request.cursor.map { [URLQueryItem(name: "after", value: $0)] } ?? [])
        } page: { response in
            Page(items: response.list, nextCursor: response.next)
        }
        await list.loadFirst()
        await list.loadNext()
        await list.loadNext()
        #expect(list.items.map(\.title) == ["a", "b", "c", "d"])
        #expect(list.isAtEnd)
        #expect(stub.requests.map { $0.queryValue("after") } == [nil, "c2", "c3"])
    }

    @Test func aPageLandsInOneRedraw() async {
        let stub = StubTransport()
        let gate = Gate()
        stub.on(.get, "/articles") { request in
            if request.queryValue("page") == "1" { return articlePage(1...3, hasMore: true) }
            await gate.wait()
            return articlePage(4...6, hasMore: false)
        }
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        var redraws: [String] = []
        let token = observeChanges {
            let list = model.articles
            let phase = list.phase == .loading(.next) ? "loading" : list.phase == .loaded ? "loaded" : "other"
            redraws.append("\(list.items.count) \(phase) \(list.hasMore ? "more" : "end")")
        }
        let next = Task { await model.next() }
        #expect(await eventually { redraws.count == 2 })
        gate.open()
        await next.value
        await settle()
        // One redraw for "loading", one for the page with its items, phase and end flag together.
        #expect(redraws == ["3 loaded more", "3 loading more", "6 loaded end"])
        token.cancel()
    }

    @Test func scrollingNearTheEndLoadsTheNextPage() async {
        let stub = threePages()
        let model = BlogListViewModel(client: stubClient(stub), category: "swift")
        await model.first()
        await model.articles.loadMore(ifShowing: model.articles.items[0], threshold: 1)
        #expect(model.articles.items.count == 3, "the first row is not near the end")
        await model.articles.loadMore(ifShowing: model.articles.items[2], threshold: 1)
        #expect(model.articles.items.count == 6)
    }

    @Test func itemViewModelFollowsItsModel() async {
        let item = BlogListItemViewModel(article: makeArticle(7, "MVVM", desc: "入门"))
        #expect(item.intro == "标题:MVVM 内容:入门")
        var redraws: [String] = []
        let token = observeChanges { redraws.append(item.intro) }
        item.article.title = "ReactiveCocoa"
        #expect(item.intro == "标题:ReactiveCocoa 内容:入门")
        #expect(await eventually { redraws.count == 2 })
        #expect(redraws == ["标题:MVVM 内容:入门", "标题:ReactiveCocoa 内容:入门"])
        token.cancel()
    }
}

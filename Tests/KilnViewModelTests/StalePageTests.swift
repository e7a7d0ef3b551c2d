import Foundation
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing
import KilnSupport

/// A page requested before a reset must never show up in the list after it.
@MainActor
@Suite("Stale pages")
struct StalePageTests {
    /// Shared server-side state: which list the server serves, and what it has answered.
    final class ServerState: Sendable {
        private struct State {
            var prefix = "old"
            var events: [String] = []
        }
        private let state = LockedValue(State())
        var prefix: String {
            get { state.withLock { $0.prefix } }
            set { state.withLock { $0.prefix = newValue } }
        }
        func record(_ event: String) { state.withLock { $0.events.append(event) } }
        var events: [String] { state.withLock { $0.events } }
    }

    @Test func pageTwoOfTheOldListNeverLandsAfterAReset() async throws {
        try await withFixtureServer { server in
            let state = ServerState()
            let newListShown = Gate()
            server.route(.get, "/articles") { request in
                let prefix = state.prefix
                let page = Int(request.queryValue("page") ?? "") ?? 0
                if page == 2 && prefix == "old" {
                    // Answer page 2 of the old list only once the new list is on screen: the
                    // order is forced, not hoped for.
                    await newListShown.wait()
                    state.record("old page 2 answered")
                    return articlePage(4...6, prefix: prefix, hasMore: true)
                }
                defer { state.record("\(prefix) page \(page) answered") }
                return articlePage(1...3, prefix: prefix, hasMore: true)
            }
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let model = BlogListViewModel(client: client, category: "swift")

            await model.first()
            #expect(model.articles.items.map(\.article.title) == ["old1", "old2", "old3"])

            let next = Task { await model.next() }
            #expect(await eventually { server.requests(to: "/articles").count == 2 })

            state.prefix = "new"
            await model.first()
            #expect(model.articles.items.map(\.article.title) == ["new1", "new2", "new3"])
            newListShown.open()

            #expect(await eventually { state.events.contains("old page 2 answered") })
            await next.value
            await settle()
            #expect(model.articles.items.map(\.article.title) == ["new1", "new2", "new3"])
            #expect(model.articles.phase == .loaded)
            #expect(model.articles.pagesLoaded == 1)
            let newFirst = state.events.firstIndex(of: "new page 1 answered") ?? .max
            let oldSecond = state.events.firstIndex(of: "old page 2 answered") ?? .min
            #expect(newFirst < oldSecond)
        }
    }

    @Test func aLoaderThatIgnoresCancellationStillCannotLandAnOldPage() async {
        let gate = Gate()
        let generation = FixtureCounter() // counts first-page loads
        let list = PagedList<String>(pageSize: 2) { request in
            if request.number == 1 {
                let run = generation.next()
                return Page(items: ["gen\(run)-a", "gen\(run)-b"])
            }
            // Page 2 of generation 0: waits for the gate, whatever cancellation says.
            await gate.wait()
            return Page(items: ["gen0-c", "gen0-d"])
        }
        await list.loadFirst()
        let next = Task { await list.loadNext() }
        #expect(await eventually { list.phase == .loading(.next) })

        await list.loadFirst()
        #expect(list.items == ["gen1-a", "gen1-b"])

        gate.open()
        await next.value
        await settle()
        #expect(list.items == ["gen1-a", "gen1-b"])
        #expect(list.phase == .loaded)

        // The list carries on from the new generation (the gate is open now: page 2 answers at once).
        await list.loadNext()
        #expect(list.items == ["gen1-a", "gen1-b", "gen0-c", "gen0-d"])
        #expect(list.pagesLoaded == 2)
    }

    @Test func refreshDuringNextPageDropsTheNextPage() async {
        let gate = Gate()
        let firstLoads = FixtureCounter()
        let list = PagedList<Int>(pageSize: 2) { request in
            if request.number == 1 { return Page(items: firstLoads.next() == 0 ? [1, 2] : [10, 20]) }
            await gate.wait()
            return Page(items: [3, 4])
        }
        await list.loadFirst()
        let next = Task { await list.loadNext() }
        #expect(await eventually { list.phase == .loading(.next) })
        await list.refresh()
        gate.open()
        await next.value
        await settle()
        #expect(list.items == [10, 20])
    }
}

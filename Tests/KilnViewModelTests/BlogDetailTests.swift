import Foundation
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing

/// A blog's detail page: the content follows the id.
@MainActor
@Suite("Blog detail (Resource)")
struct BlogDetailTests {
    func articles() -> StubTransport {
        let stub = StubTransport()
        stub.on(.get, "/articles/*") { request in
            let id = Int(request.path.split(separator: "/").last ?? "") ?? 0
            return .envelope(data: articleJSON(id, "T\(id)", body: "<p>body \(id)</p>"))
        }
        return stub
    }

    @Test func loadsTheArticleBody() async {
        let model = BlogDetailViewModel(client: stubClient(articles()), blogId: 1)
        #expect(model.content == "")
        await model.load()
        #expect(model.content == "<p>body 1</p>")
        #expect(model.article.origin == .network)
    }

    @Test func reloadsWhenTheIdChanges() async {
        let stub = articles()
        let model = BlogDetailViewModel(client: stubClient(stub), blogId: 1)
        await model.load()
        var redraws: [String] = []
        let token = observeChanges { redraws.append(model.content) }

        model.blogId = 2
        await model.reloading?.value
        #expect(model.content == "<p>body 2</p>")
        #expect(stub.requests.map(\.path) == ["/articles/1", "/articles/2"])

        model.blogId = 2 // same id: nothing to do
        #expect(await eventually { redraws.last == "<p>body 2</p>" })
        #expect(stub.requests.count == 2)
        token.cancel()
    }

    @Test func anOldArticleNeverReplacesTheNewOne() async {
        let stub = StubTransport()
        let gate = Gate()
        let log = Recorder<String>()
        stub.on(.get, "/articles/1") { _ in
            log.append("asked for 1")
            await gate.wait()
            log.append("answered 1")
            return .envelope(data: articleJSON(1, "T1", body: "one"))
        }
        stub.on(.get, "/articles/2", .envelope(data: articleJSON(2, "T2", body: "two")))
        let model = BlogDetailViewModel(client: stubClient(stub), blogId: 0)
        model.blogId = 1
        #expect(await eventually { log.entries == ["asked for 1"] })
        model.blogId = 2
        await model.reloading?.value
        #expect(model.content == "two")
        gate.open()
        await settle()
        #expect(model.content == "two")
        #expect(model.article.state == .loaded(makeArticle(2, "T2", body: "two")))
    }
}

import Foundation
import Kiln
import KilnTesting
import Testing

/// Kiln used from a target whose default isolation is `MainActor`, as a new Xcode 26 app target
/// compiles: models declared with `@DataModel` and models written by `kiln generate` still decode
/// off the main actor, go through `APIClient`, and drive `PagedList` and `Resource`.
@Suite("Default MainActor isolation")
struct MainActorAppTests {
    static let articles: JSONValue = [
        "list": [
            ["id": 1, "title": "One", "author_name": "Ann", "tags": ["a"], "status": "published"],
            ["id": 2, "title": "Two", "author_name": "Bo", "status": "archived"],
        ], "has_more": true,
    ]

    @Test func aDataModelDecodesInADetachedTask() async throws {
        let data = Data(#"{"id": 7, "title": null, "author_name": "Ann", "status": "gone"}"#.utf8)
        let (article, repairs) = try await Task.detached {
            try KilnDecoder().decodeWithRepairs(Story.self, from: data)
        }.value
        #expect(article.id == 7 && article.title == "--" && article.status == .unknown)
        #expect(!repairs.isEmpty)
    }

    @Test func generatedCodeDecodesInADetachedTask() async throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/Samples/articles/page1.json")
        let data = try Data(contentsOf: url)
        let (articles, repairs) = try await Task.detached {
            try KilnDecoder().decodeWithRepairs([Article].self, from: data, at: "data.list")
        }.value
        #expect(!articles.isEmpty && repairs.isEmpty)
        #expect(articles == (try JSONDecoder().decode([Article].self, from: data, at: "data.list")))
    }

    @Test func modelsGoThroughTheClientAndDriveTheViewModels() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/articles", .envelope(data: Self.articles))
            server.route(.get, "/articles/1", .envelope(data: ["id": 1, "title": "One"]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)

            let page = try await client.send(Endpoint<StoryPage>.get("/articles"))
            #expect(page.list.map(\.authorName) == ["Ann", "Bo"])

            let model = StoryListModel(client: client)
            await model.articles.loadFirst()
            #expect(model.articles.items.map(\.id) == [1, 2])
            await model.detail.load()
            #expect(model.detail.value?.title == "One")
        }
    }
}

import Foundation
import Kiln
import Observation

// Declared as in an app target built with default isolation `MainActor` (Xcode 26's default for
// new app targets): no `nonisolated` here; what the macros expand to must supply it.

@DataModel(keyStyle: .snakeCase)
struct Story: Equatable {
    var id = 0
    var title = "--"
    var authorName = ""
    var tags: [String] = []
    var status: Status = .draft

    // A hand-written enum decoded off the main actor says so, as any type in such a target must.
    nonisolated enum Status: String, FallbackEnum {
        case draft, published, unknown
        static let fallback = Status.unknown
    }
}

@DataModel(keyStyle: .snakeCase)
struct StoryPage {
    var list: [Story] = []
    var hasMore = false
}

/// A view model as an app writes it: main-actor by default, no annotation.
@Observable
final class StoryListModel {
    let articles: PagedList<Story>
    let detail: Resource<Story>

    init(client: APIClient) {
        articles = PagedList(client: client, pageSize: 2) { request in
            Endpoint<StoryPage>.get("/articles", query: [URLQueryItem(name: "page", value: String(request.number))])
        } page: { response in
            Page(items: response.list, hasMore: response.hasMore)
        }
        detail = Resource(client: client, endpoint: Endpoint<Story>.get("/articles/1"))
    }
}

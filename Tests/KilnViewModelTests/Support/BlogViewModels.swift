// A blog's view models, written the way an app would write them with Kiln: view models
// built from models, derived values as computed properties, the controller reduced to
// "observe and redraw".
// The models they are built from are in BlogModels.swift.

import Foundation
import KilnNetwork
import KilnViewModel
import Observation

/// One cell of the blog list.
@MainActor
@Observable
final class BlogListItemViewModel: ViewDescribing {
    var article: Article

    init(article: Article) {
        self.article = article
    }

    /// Derived, so it follows the model (no `combineLatest(title, desc)` to keep in step).
    var intro: String { "标题:\(article.title) 内容:\(article.desc)" }
    var blogId: Int { article.id }

    /// Names the cell; `nonisolated` because it depends on the type, not on state.
    nonisolated var viewDescriptor: ViewDescriptor { ViewDescriptor(template: "BlogCell", estimatedHeight: 64) }
}

/// The blog list: first page resets, next page appends.
@MainActor
@Observable
final class BlogListViewModel {
    let category: String
    let articles: PagedList<BlogListItemViewModel>

    init(client: APIClient, category: String, pageSize: Int = 3, endOfList: EndOfList = .hasMoreFlag) {
        self.category = category
        articles = PagedList(
            client: client, pageSize: pageSize, endOfList: endOfList, deduplication: .by { $0.blogId }
        ) { request in
            .articles(category: category, page: request.number, size: request.size)
        } page: { response in
            Page(items: response.list, hasMore: response.hasMore)
        } makeItem: { article in
            BlogListItemViewModel(article: article)
        }
    }

    func first() async { await articles.loadFirst() }
    func next() async { await articles.loadNext() }

    var intros: [String] { articles.items.map(\.intro) }
}

/// The detail page: reloads when its id changes.
@MainActor
@Observable
final class BlogDetailViewModel {
    var blogId: Int {
        didSet {
            guard blogId != oldValue else { return }
            // Stop waiting for the old article: that cancels its load, whose result never lands.
            reloading?.cancel()
            article = Self.resource(client: client, id: blogId)
            reloading = Task { await article.load() }
        }
    }

    private(set) var article: Resource<Article>
    /// The reload started by the last id change; tests await it.
    @ObservationIgnored private(set) var reloading: Task<Void, Never>?
    @ObservationIgnored private let client: APIClient

    init(client: APIClient, blogId: Int) {
        self.client = client
        self.blogId = blogId
        self.article = Self.resource(client: client, id: blogId)
    }

    var content: String { article.value?.body ?? "" }

    func load() async { await article.load() }

    private static func resource(client: APIClient, id: Int) -> Resource<Article> {
        Resource(client: client, endpoint: .article(id: id))
    }
}

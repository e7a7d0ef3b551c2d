import Foundation
import KilnNetwork

extension PagedList where Item: Sendable {
    /// A list whose pages come from `client`: `endpoint` builds the request for each page and
    /// `page` reads the response into a ``Page``.
    ///
    /// **Link headers.** Every page's ``Page/nextLink`` is the response's `Link: <…>; rel="next"`
    /// (unless `page` sets one), and a page asked for with a ``PageRequest/link`` is sent there:
    /// `endpoint(request).following(link)`, through `client`, so its interceptors,
    /// authentication and default headers apply. For an API that pages only by `Link` header
    /// the endpoint is the first page's and `endOfList` is ``EndOfList/missingNextLink``:
    ///
    /// ```swift
    /// let issues = PagedList(client: github, pageSize: 30, endOfList: .missingNextLink) { request in
    ///     Endpoint<[Issue]>.get("/repos/apple/swift/issues", query: [URLQueryItem(name: "per_page", value: "30")])
    /// } page: { issues in
    ///     Page(items: issues)
    /// }
    /// ```
    ///
    /// **Page numbers, offsets, cursors:**
    ///
    /// ```swift
    /// let messages = PagedList(client: client, pageSize: 20) { request in
    ///     Endpoint<MessagePage>.get("/messages", query: [
    ///         URLQueryItem(name: "page", value: String(request.number)),
    ///         URLQueryItem(name: "size", value: String(request.size)),
    ///     ])
    /// } page: { response in
    ///     Page(items: response.list, hasMore: response.hasMore)
    /// }
    /// ```
    public convenience init<Response: Decodable & Sendable>(
        client: APIClient,
        pageSize: Int = 20,
        firstPageNumber: Int = 1,
        endOfList: EndOfList = .automatic,
        deduplication: Deduplication<Item> = .none,
        endpoint: @escaping @Sendable (PageRequest) -> Endpoint<Response>,
        page: @escaping @Sendable (Response) -> Page<Item>
    ) {
        self.init(pageSize: pageSize, firstPageNumber: firstPageNumber, endOfList: endOfList, deduplication: deduplication) { request in
            try await client.page(request, endpoint: endpoint, page: page)
        }
    }
}

extension PagedList {
    /// A list of item view models whose pages come from `client`: `endpoint` builds the request
    /// for each page, `page` reads the response into a ``Page`` of models, and `makeItem` turns
    /// each model into an item on the main actor.
    ///
    /// Pages linked by a `Link` header are followed as in
    /// ``init(client:pageSize:firstPageNumber:endOfList:deduplication:endpoint:page:)``.
    ///
    /// ```swift
    /// let articles = PagedList(client: client) { request in
    ///     Endpoint<ArticlePage>.get("/articles", query: [URLQueryItem(name: "page", value: String(request.number))])
    /// } page: { response in
    ///     Page(items: response.list, totalPages: response.pageCount)
    /// } makeItem: { article in
    ///     BlogListItemViewModel(article: article)
    /// }
    /// ```
    public convenience init<Response: Decodable & Sendable, Model: Sendable>(
        client: APIClient,
        pageSize: Int = 20,
        firstPageNumber: Int = 1,
        endOfList: EndOfList = .automatic,
        deduplication: Deduplication<Item> = .none,
        endpoint: @escaping @Sendable (PageRequest) -> Endpoint<Response>,
        page: @escaping @Sendable (Response) -> Page<Model>,
        makeItem: @escaping @MainActor (Model) -> Item
    ) {
        self.init(
            pageSize: pageSize, firstPageNumber: firstPageNumber, endOfList: endOfList, deduplication: deduplication,
            load: { request in try await client.page(request, endpoint: endpoint, page: page) },
            makeItem: makeItem
        )
    }
}

extension APIClient {
    /// One page for a ``PagedList``: sent to the request's link when it has one, with the next
    /// link read from the response's `Link` header unless `page` set one.
    func page<Response: Decodable & Sendable, Model>(
        _ request: PageRequest,
        endpoint: (PageRequest) -> Endpoint<Response>,
        page: (Response) -> Page<Model>
    ) async throws(APIError) -> Page<Model> {
        let call = request.link.map { endpoint(request).following($0) } ?? endpoint(request)
        let response = try await self.response(for: call)
        var result = page(response.value)
        if result.nextLink == nil { result.nextLink = response.head.link("next") }
        return result
    }
}

import Foundation
import KilnNetwork

extension PagedList where Item: Sendable {
    /// A list whose pages come from `client`: `endpoint` builds the request for each page and
    /// `page` reads the response into a ``Page``.
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
            page(try await client.send(endpoint(request)))
        }
    }
}

extension PagedList {
    /// A list of item view models whose pages come from `client`: `endpoint` builds the request
    /// for each page, `page` reads the response into a ``Page`` of models, and `makeItem` turns
    /// each model into an item on the main actor.
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
            load: { request in page(try await client.send(endpoint(request))) },
            makeItem: makeItem
        )
    }
}

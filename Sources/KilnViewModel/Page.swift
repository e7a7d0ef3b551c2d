import Foundation

/// One page of a ``PagedList``: its items and whatever the server said about what follows.
///
/// Fill in what your API sends; ``EndOfList`` decides which of it ends the list.
///
/// ```swift
/// Page(items: response.list, hasMore: response.hasMore)           // a flag
/// Page(items: response.list, totalPages: response.pageCount)       // a page count
/// Page(items: response.items, nextCursor: response.next)           // a cursor
/// Page(items: response.data, hasMore: response.hasMore,
///      nextCursor: response.data.last?.id)                         // has_more + last id (Stripe)
/// Page(items: response.list)                                       // a short page ends it
/// ```
///
/// The `PagedList(client:…)` initializers fill ``nextLink`` from the response's
/// `Link: <…>; rel="next"` header.
public struct Page<Item> {
    /// The items, in order.
    public var items: [Item]
    /// The server's "more after this" flag, if it sends one.
    public var hasMore: Bool?
    /// The server's total page count, if it sends one.
    public var totalPages: Int?
    /// The cursor to ask for the next page with, if the API pages by cursor.
    public var nextCursor: String?
    /// The URL of the next page, if the API links to it (a `Link` header's `rel="next"`).
    public var nextLink: URL?

    /// Creates a page.
    ///
    /// ```swift
    /// Page(items: response.items, nextLink: response.links?.next)   // a next link in the body
    /// ```
    public init(items: [Item], hasMore: Bool? = nil, totalPages: Int? = nil, nextCursor: String? = nil, nextLink: URL? = nil) {
        self.items = items
        self.hasMore = hasMore
        self.totalPages = totalPages
        self.nextCursor = nextCursor
        self.nextLink = nextLink
    }

    /// The same page with each item transformed.
    public func map<Other>(_ transform: (Item) throws -> Other) rethrows -> Page<Other> {
        Page<Other>(items: try items.map(transform), hasMore: hasMore, totalPages: totalPages, nextCursor: nextCursor, nextLink: nextLink)
    }
}

extension Page: Sendable where Item: Sendable {}
extension Page: Equatable where Item: Equatable {}

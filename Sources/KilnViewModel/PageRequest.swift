import Foundation

/// What a ``PagedList`` asks its loader for: a page number, the cursor or link the previous page
/// handed out, how many items came before, and the page size. A loader uses whichever its API
/// understands.
///
/// ```swift
/// // Page numbers
/// .get("/articles", query: [.init(name: "page", value: "\(request.number)"),
///                           .init(name: "size", value: "\(request.size)")])
/// // Offset and limit
/// .get("/articles", query: [.init(name: "offset", value: "\(request.offset)"),
///                           .init(name: "limit", value: "\(request.size)")])
/// // Cursors
/// .get("/feed", query: request.cursor.map { [.init(name: "after", value: $0)] } ?? [])
/// // Link headers: the client helpers follow `request.link` themselves
/// ```
public struct PageRequest: Sendable, Hashable {
    /// The page number: the list's first page number (1 by default) for the first page, then one
    /// more for each page after it.
    public var number: Int
    /// The cursor the previous page returned (``Page/nextCursor``), or `nil` for the first page.
    public var cursor: String?
    /// The number of items per page the list expects.
    public var size: Int
    /// How many items the server has sent for this list so far, counted before repeated items
    /// are dropped: 0 for the first page. What an `offset`/`limit` API takes as its offset.
    public var offset: Int
    /// The link to the next page the previous page returned (``Page/nextLink``, from its
    /// `Link: <…>; rel="next"` header), or `nil` for the first page.
    ///
    /// The `PagedList(client:…)` initializers send the endpoint to this URL themselves
    /// (`Endpoint.following(_:)`); a loader of its own does the same.
    public var link: URL?

    /// Creates a request.
    ///
    /// ```swift
    /// PageRequest(number: 3, size: 20, offset: 40)
    /// ```
    public init(number: Int, cursor: String? = nil, size: Int, offset: Int = 0, link: URL? = nil) {
        self.number = number
        self.cursor = cursor
        self.size = size
        self.offset = offset
        self.link = link
    }

    /// Whether this asks for the first page (no cursor, link or items yet).
    public var isFirst: Bool { cursor == nil && link == nil && offset == 0 && number <= 1 }
}

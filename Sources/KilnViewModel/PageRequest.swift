/// What a ``PagedList`` asks its loader for: a page number, the cursor the previous page handed
/// out, and the page size. A loader uses whichever its API understands.
///
/// ```swift
/// // Page numbers
/// .get("/articles", query: [.init(name: "page", value: "\(request.number)"),
///                           .init(name: "size", value: "\(request.size)")])
/// // Cursors
/// .get("/feed", query: request.cursor.map { [.init(name: "after", value: $0)] } ?? [])
/// ```
public struct PageRequest: Sendable, Hashable {
    /// The page number: the list's first page number (1 by default) for the first page, then one
    /// more for each page after it.
    public var number: Int
    /// The cursor the previous page returned (``Page/nextCursor``), or `nil` for the first page.
    public var cursor: String?
    /// The number of items per page the list expects.
    public var size: Int

    /// Creates a request.
    public init(number: Int, cursor: String? = nil, size: Int) {
        self.number = number
        self.cursor = cursor
        self.size = size
    }

    /// Whether this asks for the first page (no cursor yet).
    public var isFirst: Bool { cursor == nil && number <= 1 }
}

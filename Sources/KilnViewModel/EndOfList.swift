/// How a ``PagedList`` knows there is nothing after the last page it loaded.
///
/// An empty page always ends the list, whatever the rule.
///
/// ```swift
/// PagedList(pageSize: 20, endOfList: .shortPage) { request in … }
/// ```
public enum EndOfList: Sendable, Hashable {
    /// Use what the page says: its ``Page/hasMore`` flag if set, else its ``Page/totalPages``,
    /// else its ``Page/nextCursor`` when the list pages by cursor, else a short page.
    case automatic
    /// The page's ``Page/hasMore`` flag (a page without one ends the list).
    case hasMoreFlag
    /// The page's ``Page/totalPages`` (a page without one ends the list).
    case pageCount
    /// A page with fewer items than the page size.
    case shortPage
    /// A page without a ``Page/nextCursor``.
    case missingCursor

    /// Whether more pages follow `page`, the `pagesLoaded`-th page (counting from 1) of a list
    /// asking for `size` items per page.
    func hasMore<Item>(after page: Page<Item>, pagesLoaded: Int, size: Int) -> Bool {
        guard !page.items.isEmpty else { return false }
        let shortPage = page.items.count < size
        switch self {
        case .hasMoreFlag: return page.hasMore ?? false
        case .pageCount: return page.totalPages.map { pagesLoaded < $0 } ?? false
        case .shortPage: return !shortPage
        case .missingCursor: return page.nextCursor != nil
        case .automatic:
            if let flag = page.hasMore { return flag }
            if let total = page.totalPages { return pagesLoaded < total }
            if page.nextCursor != nil { return true }
            return !shortPage
        }
    }
}

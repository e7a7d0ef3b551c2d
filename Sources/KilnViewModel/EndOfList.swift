/// How a ``PagedList`` knows there is nothing after the last page it loaded.
///
/// An empty page always ends the list, whatever the rule.
///
/// ```swift
/// PagedList(pageSize: 20, endOfList: .shortPage) { request in … }
/// PagedList(client: github, endOfList: .missingNextLink) { _ in .get("/repos/apple/swift/issues") } page: { Page(items: $0) }
/// ```
public enum EndOfList: Sendable, Hashable {
    /// Use what the page says: its ``Page/hasMore`` flag if set, else its ``Page/totalPages``,
    /// else its ``Page/nextLink`` (a page with one has more; a page without one, when the list
    /// follows links, is the last), else its ``Page/nextCursor``, else a short page ends it.
    ///
    /// A list paged only by `Link` header should say ``missingNextLink``: a single full page
    /// carries no link, and under `.automatic` its fullness would ask for a next page.
    case automatic
    /// The page's ``Page/hasMore`` flag (a page without one ends the list).
    case hasMoreFlag
    /// The page's ``Page/totalPages`` (a page without one ends the list).
    case pageCount
    /// A page with fewer items than the page size.
    case shortPage
    /// A page without a ``Page/nextCursor``.
    case missingCursor
    /// A page without a ``Page/nextLink``: the rule for APIs that page by `Link` header
    /// (GitHub, GitLab, Mastodon), where the last page is the one without `rel="next"`.
    case missingNextLink

    /// Whether more pages follow `page`, the answer to `request` and the `pagesLoaded`-th page
    /// (counting from 1) of a list asking for `size` items per page.
    func hasMore<Item>(after page: Page<Item>, request: PageRequest, pagesLoaded: Int, size: Int) -> Bool {
        guard !page.items.isEmpty else { return false }
        let shortPage = page.items.count < size
        switch self {
        case .hasMoreFlag: return page.hasMore ?? false
        case .pageCount: return page.totalPages.map { pagesLoaded < $0 } ?? false
        case .shortPage: return !shortPage
        case .missingCursor: return page.nextCursor != nil
        case .missingNextLink: return page.nextLink != nil
        case .automatic:
            if let flag = page.hasMore { return flag }
            if let total = page.totalPages { return pagesLoaded < total }
            if page.nextLink != nil { return true }
            // The list follows links and this page gave none: it is the last.
            if request.link != nil { return false }
            if page.nextCursor != nil { return true }
            return !shortPage
        }
    }
}

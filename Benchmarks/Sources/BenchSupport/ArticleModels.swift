import KilnModel

// The article payload (ArticlePayload) as a Kiln user writes it: `@DataModel` types whose
// properties read the Swift name, then the snake_case key, and fall back to their initial values.

/// The response: `{"code", "msg", "data"}`.
@DataModel
public struct ArticlePage: Equatable, Sendable {
    public var code = "--"
    public var msg = ""
    public var data = ArticleData()
}

/// One page of articles; an article that is not an object is dropped.
@DataModel
public struct ArticleData: Equatable, Sendable {
    public var page = 0
    public var totalPages = 0
    public var list: [Article] = []
}

/// One article: `is_top` arrives as `0`/`1`, counts and dates as numbers or strings.
@DataModel
public struct Article: Equatable, Sendable {
    public var articleId = 0
    public var title = "--"
    public var desc = ""
    public var pubDate = 0
    public var viewCount = 0
    public var isTop = false
    @Key("cover_url") public var coverURL: String?
    public var tags: [String] = []
    public var author = Author()
}

/// An article's author: `followers` is sometimes `"12k"`, which is repaired to `0`.
@DataModel
public struct Author: Equatable, Sendable {
    public var userId = 0
    public var nickName = "--"
    public var avatarUrl: String?
    public var followers = 0
}

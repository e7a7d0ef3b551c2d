// The article payload (ArticlePayload) as a team writes it for Foundation's `JSONDecoder`: strict
// `Codable`, every member required unless it is sometimes null, `IntOrString` wherever the server
// sends either. The benchmark's baseline, and the strict shapes Kiln must decode like Foundation.

/// The response: `{"code", "msg", "data"}`.
public struct StrictArticlePage: Codable, Equatable, Sendable {
    public var code: String
    public var msg: String
    public var data: StrictArticleData
}

/// One page of articles.
public struct StrictArticleData: Codable, Equatable, Sendable {
    public var page: Int
    public var totalPages: Int
    public var list: [StrictArticle]

    enum CodingKeys: String, CodingKey {
        case page
        case totalPages = "total_pages"
        case list
    }
}

/// One article.
public struct StrictArticle: Codable, Equatable, Sendable {
    public var articleId: Int
    public var title: String
    public var desc: String
    public var pubDate: IntOrString
    public var viewCount: IntOrString
    public var isTop: Int
    public var coverUrl: String?
    public var tags: [String]?
    public var author: StrictAuthor

    enum CodingKeys: String, CodingKey {
        case articleId = "article_id"
        case title
        case desc
        case pubDate = "pub_date"
        case viewCount = "view_count"
        case isTop = "is_top"
        case coverUrl = "cover_url"
        case tags
        case author
    }
}

/// An article's author.
public struct StrictAuthor: Codable, Equatable, Sendable {
    public var userId: Int
    public var nickName: String
    public var avatarUrl: String
    public var followers: IntOrString

    enum CodingKeys: String, CodingKey {
        case userId = "user_id"
        case nickName = "nick_name"
        case avatarUrl = "avatar_url"
        case followers
    }
}

import KilnModel

// The tolerant article shapes written as a user writes them: with @DataModel, so the benchmark
// measures the macro's real output (its init(from:) and init(kiln:)) beside the generated
// hand-written twins in ArticleModels.swift.

@DataModel
public struct MacroArticlePage: Equatable, Sendable {
    public var code = "--"
    public var msg = ""
    public var data = MacroArticleData()
}

@DataModel
public struct MacroArticleData: Equatable, Sendable {
    public var page = 0
    public var totalPages = 0
    public var list: [MacroArticle] = []
}

@DataModel
public struct MacroArticle: Equatable, Sendable {
    public var articleId = 0
    public var title = "--"
    public var desc = ""
    public var pubDate = 0
    public var viewCount = 0
    public var isTop = false
    @Key("cover_url") public var coverURL: String?
    public var tags: [String] = []
    public var author = MacroAuthor()
}

@DataModel
public struct MacroAuthor: Equatable, Sendable {
    public var userId = 0
    public var nickName = "--"
    @Key("avatar_url") public var avatarUrl: String?
    public var followers = 0
}

import Foundation
import KilnModel

enum Status: String, FallbackEnum, Sendable {
    case draft, published, unknown
    static let fallback = Status.unknown
}

enum Level: Int, FallbackEnum, Sendable {
    case low = 1, high = 2, other = 0
    static let fallback = Level.other
}

@DataModel
struct Author: Equatable, Sendable {
    var userID = 0
    var nickName = "anonymous"
    var followers: Int
}

@DataModel
struct Article: Equatable, Sendable {
    var id: Int
    var title = "--"
    var desc: String
    @Key("pub_date", "publishDate") var published = ""
    @Key("author.name") var authorName: String
    var author: Author
    var tags: [String]
    var score: Double
    var isTop: Bool
    var coverURL: String?
    var status: Status = .draft
    @Ignored var isExpanded = false
}

@DataModel
struct Page: Equatable, Sendable {
    var page = 1
    var list: [Article]
}

func json(_ text: String) -> Data { Data(text.utf8) }

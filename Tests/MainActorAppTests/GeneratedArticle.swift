// `kiln generate` output for Tests/Fixtures/Samples/articles (the type renamed to GeneratedArticle),
// compiled here under default MainActor isolation.

import Foundation
import KilnModel

@DataModel(keyStyle: .snakeCase)
nonisolated struct GeneratedArticle: Sendable, Equatable {
    var id: Int
    var title: String
    var desc: String
    var author: Author
    @Transform(.yyyyMMdd) var pubDate: Date
    @Transform(.url) var coverURL: URL?
    var tags: [String]
    var status: Status
    var viewCount: Int
    var score: Double
    @Transform(.iso8601) var createdAt: Date
    var comments: [Comment]

    @DataModel(keyStyle: .snakeCase)
    nonisolated struct Author: Sendable, Equatable {
        var userID: Int
        var nickName: String
        @Transform(.url) var avatarURL: URL?
    }

    nonisolated enum Status: String, FallbackEnum, Sendable, Equatable {
        case published
        case draft
        case unknown
        static let fallback = Status.unknown
    }

    @DataModel(keyStyle: .snakeCase)
    nonisolated struct Comment: Sendable, Equatable {
        var id: Int
        var content: String
        @Transform(.iso8601) var createdAt: Date
        var likes: Int
        var replyTo: Int?
    }
}

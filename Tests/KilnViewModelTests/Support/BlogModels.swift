// A blog's models and endpoints: thin models, decoded tolerantly.

import Foundation
import KilnModel
import KilnNetwork
import KilnViewModel

@DataModel
struct Article: Equatable, Sendable {
    var id = 0
    var title = "--"
    var desc = "--"
    var body = ""
}

@DataModel
struct ArticlePage: Equatable, Sendable {
    var list: [Article] = []
    var hasMore = false
    var pageCount = 0
    var next: String?
}

extension Endpoint where Response == ArticlePage {
    static func articles(category: String, page: Int, size: Int) -> Self {
        .get(
            "/articles",
            query: [
                URLQueryItem(name: "category", value: category),
                URLQueryItem(name: "page", value: String(page)),
                URLQueryItem(name: "size", value: String(size)),
            ])
    }
}

extension Endpoint where Response == Article {
    static func article(id: Int) -> Self { .get("/articles/\(id)") }
}

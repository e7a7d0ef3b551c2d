import BenchSupport
import Foundation
import KilnModel

/// Issue 2's article payload: `{"code","msg","data":{"page","total_pages","list":[…]}}` with
/// 20,000 articles (~9 MB), snake_case keys, nulls, missing keys and nested authors, from a fixed
/// seed. Its messiness is the kind strict `Codable` can express (nulls and absences as
/// optionals), so both sides decode the same document into the same shapes — unlike
/// BenchSupport's payload, whose numbers-as-strings need `IntOrString` in the strict shape.
enum PlainArticlePayload {
    static func make(count: Int = 20_000, seed: UInt64 = 0x5EED) -> Data {
        var rng = SplitMix64(seed: seed)
        let words = [
            "swift", "kiln", "model", "view", "data", "factory", "cache", "network", "list", "page",
            "server", "json", "decode", "tolerant", "repair", "binding", "observe", "cell", "ticket", "coupon",
        ]
        func sentence(_ n: Int) -> String { (0..<n).map { _ in words[Int(rng.next() % UInt64(words.count))] }.joined(separator: " ") }
        var out = #"{"code":"0000","msg":"ok","data":{"page":1,"total_pages":400,"list":["#
        out.reserveCapacity(count * 480)
        for i in 0..<count {
            if i > 0 { out += "," }
            let roll = rng.next() % 100
            out += #"{"article_id":\#(100_000 + i),"title":"\#(sentence(6))","#
            out += roll < 10 ? #""desc":null,"# : #""desc":"\#(sentence(24))","#
            out += #""pub_date":\#(20_160_000 + Int(rng.next() % 1231)),"view_count":\#(rng.next() % 100_000),"#
            out += #""is_top":\#(roll < 5 ? "true" : "false"),"#
            out += roll < 30 ? #""cover_url":null,"# : #""cover_url":"https://img.example.com/\#(i).png","#
            if roll >= 90 { out += #""tags":null,"# } else if roll >= 20 { out += #""tags":["\#(words[i % 20])","\#(words[(i + 7) % 20])"],"# }
            out += #""author":{"user_id":\#(rng.next() % 10_000),"nick_name":"\#(sentence(2))","#
            out += roll < 50 ? #""avatar_url":null,"# : #""avatar_url":"https://img.example.com/u\#(i % 977).png","#
            out += #""followers":\#(rng.next() % 1_000_000)}}"#
        }
        out += "]}}"
        return Data(out.utf8)
    }
}

// MARK: - Strict Codable shapes (the baseline)

struct PlainStrictPage: Codable, Equatable {
    let code: String
    let msg: String
    let data: PlainStrictPageData
}
struct PlainStrictPageData: Codable, Equatable {
    let page: Int
    let total_pages: Int
    let list: [PlainStrictArticle]
}
struct PlainStrictArticle: Codable, Equatable {
    let article_id: Int
    let title: String
    let desc: String?
    let pub_date: Int
    let view_count: Int
    let is_top: Bool
    let cover_url: String?
    let tags: [String]?
    let author: PlainStrictAuthor
}
struct PlainStrictAuthor: Codable, Equatable {
    let user_id: Int
    let nick_name: String
    let avatar_url: String?
    let followers: Int
}

// MARK: - The same shapes as @DataModels

@DataModel struct PlainModelPage {
    var code = ""
    var msg = ""
    var data: PlainModelPageData
}
@DataModel struct PlainModelPageData {
    var page = 1
    var totalPages = 0
    var list: [PlainModelArticle]
}
@DataModel struct PlainModelArticle {
    var articleID = 0
    var title = "--"
    var desc = "--"
    var pubDate = 0
    var viewCount = 0
    var isTop = false
    var coverURL: String?
    var tags: [String] = []
    var author: PlainModelAuthor
}
@DataModel struct PlainModelAuthor {
    var userID = 0
    var nickName = ""
    var avatarURL: String?
    var followers = 0
}

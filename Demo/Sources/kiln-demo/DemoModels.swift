import Foundation
import Kiln

// The models the demo's screens show: @DataModels over deliberately messy server data.

/// One entry of the live activity feed (Server-Sent Events).
@DataModel
struct Activity: Sendable, Identifiable, Equatable {
    var id = 0
    var who = "someone"
    var what = "--"
}

@DataModel
struct Category: Sendable, Identifiable, Equatable {
    var id = 0
    var name = "--"
}

@DataModel
struct ArticlePage: Sendable {
    var page = 1
    var totalPages = 1
    var list: [Article]
}

@DataModel
struct Article: Sendable, Identifiable, Equatable {
    @Key("article_id", "id") var id = 0
    var title = "--"
    var desc = "--"
    @Key("pub_date") @Transform(.yyyyMMdd) var published: Date?
    var viewCount = 0
    @Key("author.nick_name") var authorName = "anonymous"
}

@DataModel
struct ArticleDetail: Sendable, Equatable {
    @Key("article_id", "id") var id = 0
    var title = "--"
    var content = "--"
    @Key("author.nick_name") var authorName = "anonymous"
    @Key("pub_date") @Transform(.yyyyMMdd) var published: Date?
}

@DataModel
struct MessagePage: Sendable {
    var list: [Message]
}

@DataModel
struct Message: Sendable, Identifiable, Equatable {
    var id = 0
    var sender = "--"
    var text = "--"
    @Transform(.unixSeconds) var sentAt: Date?
    var unread = false
}

// One view model, three requests, each with its own response model.

@DataModel
struct ProfileResponse: Sendable, Equatable {
    var responseCode = ""
    var responseMsg = ""
    var userName = "--"
    var taskNo = 0
}

@DataModel
struct OrderResponse: Sendable, Equatable {
    var orderNo = "--"
    var amount = 0.0
    var items: [String]
}

@DataModel
struct WalletResponse: Sendable, Equatable {
    var balance = 0.0
}

// Three ticket shapes, one display protocol.

protocol TicketDisplay: Sendable {
    var kind: String { get }
    var goodName: String { get }
    var condition: String { get }
    var deadline: String { get }
    var amount: Double { get }
}

/// A coupon, kept as the JSON the server sent ("de-model").
struct CouponTicket: JSONRecord, TicketDisplay {
    let json: JSONValue
    init(json: JSONValue) { self.json = json }
    var kind: String { "coupon" }
    var goodName: String { json["goodName"].string ?? "--" }
    var condition: String { "满\(json["minLimitMoney"].int ?? 0)元可用" }
    var deadline: String { json["deadline"].string ?? "--" }
    var amount: Double { json["ticketMoney"].double ?? 0 }
}

@DataModel
struct DiscountTicket: TicketDisplay {
    var kind: String { "discount" }
    @Key("productName") var goodName = "--"
    var discount = 10.0
    @Key("expireDate") var deadline = "--"
    var condition: String { "\(JSONValue.double(discount).jsonText)折" }
    var amount: Double { discount }
}

@DataModel
struct ExchangeTicket: TicketDisplay {
    var kind: String { "exchange" }
    @Key("giftName", "goodName") var goodName = "--"
    @Key("rule.text") var condition = "--"
    @Key("endTime") var deadline = "--"
    var points = 0
    var amount: Double { Double(points) }
}

/// What a ticket cell draws, built once per ticket off the main actor: the formatted money
/// (the seed's costly attributed string) is not recomputed on every redraw.
struct TicketRow: Sendable, Equatable {
    let kind: String
    let title: String
    let detail: String
    let money: String

    init(_ ticket: any TicketDisplay) {
        kind = ticket.kind
        title = ticket.goodName
        detail = "\(ticket.condition) · 截止 \(ticket.deadline)"
        money =
            ticket.kind == "discount"
            ? "\(JSONValue.double(ticket.amount).jsonText)折"
            : ticket.kind == "exchange" ? "\(Int(ticket.amount)) pts" : "￥" + String(format: "%.2f", ticket.amount)
    }
}

// A GitHub-style list: plain JSON arrays, the next page named by a `Link` header.

@DataModel
struct Issue: Sendable, Identifiable, Equatable {
    var id = 0
    var number = 0
    var title = "--"
    var state = "open"
    var comments = 0
    @Key("user.login") var author = "ghost"
}

// Uploads: what the server says it received.

@DataModel
struct UploadReceipt: Sendable {
    var parts: [ReceivedPart]
}

@DataModel
struct ReceivedPart: Sendable, Equatable {
    var name = ""
    var filename: String?
    var contentType: String?
    var size = 0
    var sha256 = ""
}

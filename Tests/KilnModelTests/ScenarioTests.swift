import Foundation
import KilnModel
import Testing

// Batch rules set once as a policy, not in every model.
@DataModel
struct Product: Equatable {
    var name: String
    var desc: String
    var price: String
    var images: [String]
    var stock = 0
}

// A response model with a nested object and an array of objects.
@DataModel
struct Type1Response: Equatable {
    var responseCode: String
    var responseMsg: String
    var remark: String
    var userName: String
    var taskNo: Int
    var owner: Owner?
    var tasks: [Task]

    @DataModel
    struct Owner: Equatable {
        var name = ""
        var level = 0
    }

    @DataModel
    struct Task: Equatable {
        var taskNo = 0
        var title = ""
    }
}

// Three ticket shapes behind one display protocol.
protocol TicketDisplay: Sendable {
    var goodName: String { get }
    var condition: String { get }
    var deadline: String { get }
}

struct CouponTicket: JSONRecord, TicketDisplay {
    let json: JSONValue
    init(json: JSONValue) { self.json = json }
    var goodName: String { json["goodName"].string ?? "--" }
    var condition: String { "满\(json["minLimitMoney"].int ?? 0)元可用" }
    var deadline: String { json["deadline"].string ?? "--" }
}

@DataModel
struct DiscountTicket: TicketDisplay, Sendable {
    @Key("productName") var goodName = "--"
    var discount = 10.0
    @Key("expireDate") var deadline = "--"
    var condition: String { "\(discount)折" }
}

@DataModel
struct ExchangeTicket: TicketDisplay, Sendable {
    @Key("giftName", "goodName") var goodName = "--"
    @Key("rule.text") var condition = "--"
    @Key("endTime") var deadline = "--"
}

/// The shapes real apps meet, end to end through the model layer.
@Suite struct ScenarioTests {
    @Test func batchRulesAreOnePolicy() throws {
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        policy.setDefault("价格面议", forKey: "price")
        let data = json(#"{"list": [{"name": "Tea", "desc": null, "images": null}, {"name": null, "price": "12.00", "images": ["a.png"]}]}"#)
        let (products, _) = try JSONDecoder().decodeWithRepairs([Product].self, from: data, at: "list", policy: policy)
        #expect(
            products == [
                Product(name: "Tea", desc: "--", price: "价格面议", images: [], stock: 0),
                Product(name: "--", desc: "--", price: "12.00", images: ["a.png"], stock: 0),
            ])
    }

    @Test func perKeyDefaultsCanBeScopedToOneModel() throws {
        var policy = DecodingPolicy()
        policy.setDefault("price on request", forKey: "price", in: Product.self)
        policy.setDefault("ignored", forKey: "price", in: Item.self)
        let product = try JSONDecoder().decode(Product.self, from: json("{}"), at: nil, policy: policy)
        #expect(product.price == "price on request")
    }

    @Test func responseWithNestedObjectArrayAndUnknownKeys() throws {
        let data = json(
            #"""
            {"responseCode": "0000", "responseMsg": "返回成功", "remark": "交流学习", "userName": "简书Haofree",
             "taskNo": "1", "unknownKey": {"deep": [1, 2]}, "owner": {"name": "Hao", "level": "3", "extra": true},
             "tasks": [{"taskNo": 1, "title": "a"}, null, {"taskNo": "2", "title": 5}]}
            """#)
        let (response, repairs) = try JSONDecoder().decodeWithRepairs(Type1Response.self, from: data)
        #expect(response.responseCode == "0000")
        #expect(response.userName == "简书Haofree")
        #expect(response.taskNo == 1)
        #expect(response.owner == Type1Response.Owner(name: "Hao", level: 3))
        #expect(response.tasks == [.init(taskNo: 1, title: "a"), .init(taskNo: 2, title: "5")])
        #expect(repairs.contains { $0.path == "tasks[1]" && $0.kind == .dropped })
        #expect(!repairs.contains { $0.path.contains("unknownKey") })
    }

    @Test func ticketsThroughTheRegistry() throws {
        var registry = ModelRegistry<any TicketDisplay>(discriminator: "modelType")
        registry.register("1", as: CouponTicket.self)
        registry.register("2", as: DiscountTicket.self)
        registry.register("3", as: ExchangeTicket.self)
        let data = json(
            #"""
            {"code": "0000", "data": [
              {"modelType": 1, "goodName": "Tea", "minLimitMoney": "100", "deadline": "2016-10-10"},
              {"modelType": "2", "productName": "Cake", "discount": "8.5", "expireDate": "2016-11-11"},
              {"modelType": 9, "whatever": true},
              {"modelType": 3, "giftName": "Cup", "rule": {"text": "one per person"}, "endTime": "2016-12-12"}
            ]}
            """#)
        let (tickets, repairs) = try registry.decodeList(from: data, at: "data")
        #expect(tickets.map(\.goodName) == ["Tea", "Cake", "Cup"])
        #expect(tickets.map(\.condition) == ["满100元可用", "8.5折", "one per person"])
        #expect(tickets[2].deadline == "2016-12-12")
        let unknown = repairs.filter { $0.kind == .unknownType }
        #expect(unknown.count == 1)
        #expect(unknown.first?.path == "data[2]")
    }

    @Test func documentLevelDiscriminator() throws {
        var registry = ModelRegistry<any TicketDisplay>(discriminator: "modelType", location: .document("modelType"))
        registry.register("1", as: CouponTicket.self)
        let data = json(#"{"modelType": 1, "data": [{"goodName": "A"}, {"goodName": "B"}]}"#)
        let (tickets, repairs) = try registry.decodeList(from: data, at: "data")
        #expect(tickets.map(\.goodName) == ["A", "B"])
        #expect(repairs.isEmpty)
        let unknown = try registry.decodeList(from: json(#"{"modelType": 4, "data": [{}, {}]}"#), at: "data")
        #expect(unknown.items.isEmpty)
        #expect(unknown.repairs.count == 2)
    }
}

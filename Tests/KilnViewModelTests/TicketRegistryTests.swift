import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import KilnViewModel
import Testing

// Three ticket kinds with very different JSON, shown by one cell.

protocol TicketRecord: Sendable {
    var goodName: String { get }
    var condition: String { get }
    var deadline: String { get }
    /// The money off, for the kinds that have one.
    var money: Double? { get }
    var template: String { get }
}

struct CouponTicket: JSONRecord, TicketRecord {
    let json: JSONValue
    init(json: JSONValue) { self.json = json }
    var goodName: String { json["goodName"].string ?? "--" }
    var condition: String { "· 满\(json["minLimitMoney"].int ?? 0)元可用" }
    var deadline: String { "· 兑换截止日期：\(json["deadline"].string ?? "--")" }
    var money: Double? { json["ticketMoney"].double }
    var template: String { "TicketCell" }
}

@DataModel
struct CashTicket: TicketRecord, Sendable {
    @Key("productName") var goodName = "--"
    @Key("cash") var money: Double?
    @Key("expireDate") var deadline = "--"
    var condition: String { "· 无门槛" }
    var template: String { "TicketCell" }
}

@DataModel
struct ExchangeTicket: TicketRecord, Sendable {
    @Key("giftName", "goodName") var goodName = "--"
    @Key("rule.text") var condition = "--"
    @Key("endTime") var deadline = "--"
    var money: Double? { nil }
    var template: String { "ExchangeCell" }
}

/// Bold text, in a form that exists on every platform (UIKit's font attributes do not on Linux).
enum Emphasis: AttributedStringKey {
    typealias Value = Bool
    static let name = "emphasis"
}

/// What the cell shows, with the costly parts built once.
struct TicketRow: Sendable, ViewDescribing {
    var goodName: String
    var condition: String
    var deadline: String
    /// "￥" + the amount: the attributed preferential price, built once per ticket.
    var preferential: AttributedString?
    var viewDescriptor: ViewDescriptor

    init(_ record: any TicketRecord, preparations: Recorder<Bool>) {
        preparations.append(Thread.isMainThread)
        goodName = record.goodName
        condition = record.condition
        deadline = record.deadline
        preferential = record.money.map { money in
            var amount = AttributedString(String(format: "%g", money))
            amount[Emphasis.self] = true
            return AttributedString("￥") + amount
        }
        viewDescriptor = ViewDescriptor(template: record.template, estimatedHeight: 120)
    }
}

@MainActor
@Suite("Ticket registry (DisplayList)")
struct TicketRegistryTests {
    nonisolated static let tickets: JSONValue = [
        "list": [
            ["modelType": 1, "goodName": "Tea", "minLimitMoney": "100", "deadline": "2016-10-10", "ticketMoney": 20],
            ["modelType": "2", "productName": "Cake", "cash": "8.5", "expireDate": "2016-11-11"],
            ["modelType": 9, "whatever": true],
            ["modelType": 3, "giftName": "Cup", "rule": ["text": "· 每人一个"], "endTime": "2016-12-12"],
        ]
    ]

    func registry() -> ModelRegistry<any TicketRecord> {
        var registry = ModelRegistry<any TicketRecord>(discriminator: "modelType")
        registry.register("1", as: CouponTicket.self)
        registry.register("2", as: CashTicket.self)
        registry.register("3", as: ExchangeTicket.self)
        return registry
    }

    @Test func threeKindsShownThroughOneRowAndTheUnknownOneReported() async {
        let stub = StubTransport()
        stub.on(.get, "/tickets", .envelope(data: Self.tickets))
        let preparations = Recorder<Bool>()
        let list = DisplayList(client: stubClient(stub), endpoint: .get("/tickets"), registry: registry(), at: "list") {
            TicketRow($0, preparations: preparations)
        }
        await list.load()

        #expect(list.rows.map(\.goodName) == ["Tea", "Cake", "Cup"])
        #expect(list.rows.map(\.condition) == ["· 满100元可用", "· 无门槛", "· 每人一个"])
        #expect(list.rows.map { $0.preferential.map { String($0.characters) } } == ["￥20", "￥8.5", nil])
        // The unknown kind is reported, not fatal; the coerced "8.5" is logged too.
        let unknown = list.repairs.filter { $0.kind == .unknownType }
        #expect(unknown.map(\.path) == ["data.list[2]"], "\(list.repairs)")
        #expect(list.repairs.contains { $0.kind == .coerced && $0.path == "data.list[1].cash" }, "\(list.repairs)")

        // Prepared once per ticket, off the main thread; reading rows again builds nothing.
        #expect(preparations.entries == [false, false, false])
        _ = list.rows.map(\.preferential)
        _ = list.rows.map(\.preferential)
        #expect(preparations.entries.count == 3)
        await list.load() // already loaded: nothing happens
        #expect(preparations.entries.count == 3)
    }

    @Test func theCellIsPickedByDescriptorNotByType() async {
        let document: JSONValue = ["data": Self.tickets]
        let data = (try? JSONEncoder().encode(document)) ?? Data()
        let preparations = Recorder<Bool>()
        let list = DisplayList(registry: registry(), at: "data.list", load: { data }) {
            TicketRow($0, preparations: preparations)
        }
        await list.load()

        var catalog = ViewCatalog<TicketRow, String>()
        catalog.register("TicketCell") { "[\($0.goodName)] \($0.condition)" }
        catalog.register("ExchangeCell") { "<\($0.goodName)> \($0.condition)" }
        #expect(list.rows.compactMap { catalog.view(for: $0) } == ["[Tea] · 满100元可用", "[Cake] · 无门槛", "<Cup> · 每人一个"])
        #expect(Set(list.rows.map(\.viewDescriptor.reuseIdentifier)) == ["TicketCell", "ExchangeCell"])
        #expect(catalog.templates == ["ExchangeCell", "TicketCell"])
    }

    @Test func aFailureKeepsTheRowsAndTellsServerFromNetwork() async {
        let stub = StubTransport()
        let calls = FixtureCounter()
        stub.on(.get, "/tickets") { _ in
            switch calls.next() {
            case 0: return .envelope(data: Self.tickets)
            case 1: return .envelope(code: "2001", message: "活动已结束")
            default: throw URLError(.timedOut)
            }
        }
        let list = DisplayList(client: stubClient(stub), endpoint: .get("/tickets"), registry: registry(), at: "list") {
            TicketRow($0, preparations: Recorder())
        }
        await list.load()
        await list.refresh()
        #expect(list.state.failure == .server(code: "2001", message: "活动已结束"))
        #expect(list.rows.count == 3)
        await list.refresh()
        #expect(list.state.failure?.isNetworkFailure == true)
        #expect(list.rows.count == 3)
    }
}

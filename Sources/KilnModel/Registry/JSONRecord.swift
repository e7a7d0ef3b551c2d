/// A record kept as the JSON the server sent, read through tolerant accessors: the
/// "de-model" style, for shapes that differ too much to share one model.
///
/// ```swift
/// struct CouponTicket: JSONRecord, TicketDisplay {
///     let json: JSONValue
///     init(json: JSONValue) { self.json = json }
///     var goodName: String { json["goodName"].string ?? "--" }
///     var condition: String { "满\(json["minLimitMoney"].int ?? 0)元可用" }
/// }
/// ```
public protocol JSONRecord: Decodable {
    /// The JSON the record was decoded from.
    var json: JSONValue { get }
    /// Wraps JSON.
    init(json: JSONValue)
}

extension JSONRecord {
    public init(from decoder: any Decoder) throws {
        self.init(json: try JSONValue(from: decoder))
    }
}

import Foundation
import KilnModel
import Testing

struct CentsTransform: ValueTransform {
    func decode(_ json: JSONValue) -> Int? { json.double.map { Int(($0 * 100).rounded()) } }
    func encode(_ value: Int) -> JSONValue { .double(Double(value) / 100) }
}

@DataModel
struct Dated: Equatable {
    @Key("pub_date") @Transform(.yyyyMMdd) var published: Date?
    @Transform(.iso8601) var createdAt: Date?
    @Transform(.unixSeconds) var seenAt: Date?
    @Transform(.unixMilliseconds) var updatedAt: Date?
    @Transform(.url) var avatar: URL?
    @Transform(.commaSeparated) var tags: [String] = []
    @Transform(CentsTransform()) var priceInCents = -1
}

@Suite struct TransformTests {
    let utc: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC") ?? .current
        return calendar
    }()

    @Test(arguments: ["20161010", #""20161010""#])
    func yyyyMMddFromNumberOrString(raw: String) throws {
        let value = try JSONDecoder().decode(Dated.self, from: json(#"{"pub_date": \#(raw)}"#))
        let date = try #require(value.published)
        #expect(utc.dateComponents([.year, .month, .day], from: date) == DateComponents(year: 2016, month: 10, day: 10))
    }

    @Test func invalidDateKeepsDefaultAndLogs() throws {
        let (value, repairs) = try JSONDecoder().decodeWithRepairs(Dated.self, from: json(#"{"pub_date": "20161340"}"#))
        #expect(value.published == nil)
        #expect(repairs.contains { $0.path == "pub_date" && $0.kind == .invalid && $0.found == #""20161340""# })
    }

    @Test func iso8601UnixSecondsAndMilliseconds() throws {
        let value = try JSONDecoder().decode(
            Dated.self, from: json(#"{"createdAt": "2016-10-10T08:30:00Z", "seenAt": 1476088200, "updatedAt": "1476088200500"}"#))
        #expect(value.createdAt == Date(timeIntervalSince1970: 1_476_088_200))
        #expect(value.seenAt == Date(timeIntervalSince1970: 1_476_088_200))
        #expect(value.updatedAt == Date(timeIntervalSince1970: 1_476_088_200.5))
        let fractional = try JSONDecoder().decode(Dated.self, from: json(#"{"createdAt": "2016-10-10T08:30:00.250Z"}"#))
        #expect(fractional.createdAt == Date(timeIntervalSince1970: 1_476_088_200.25))
    }

    @Test func urlsAndCommaSeparatedLists() throws {
        let value = try JSONDecoder().decode(Dated.self, from: json(#"{"avatar": " https://example.com/a b.png ", "tags": "swift, ios,,mvvm"}"#))
        #expect(value.avatar?.absoluteString == "https://example.com/a%20b.png")
        #expect(value.tags == ["swift", "ios", "mvvm"])
        #expect(try JSONDecoder().decode(Dated.self, from: json(#"{"avatar": ""}"#)).avatar == nil)
    }

    @Test func customTransformsRoundTrip() throws {
        let value = try JSONDecoder().decode(Dated.self, from: json(#"{"priceInCents": "12.34"}"#))
        #expect(value.priceInCents == 1234)
        let encoded = try JSONValueEncoder().encode(value)
        #expect(encoded["priceInCents"] == .double(12.34))
    }

    @Test func transformsEncodeBackInTheServersShape() throws {
        let value = try JSONDecoder().decode(Dated.self, from: json(#"{"pub_date": 20161010, "seenAt": 1476088200, "tags": "a,b"}"#))
        let encoded = try JSONValueEncoder().encode(value)
        #expect(encoded["pub_date"] == "20161010")
        #expect(encoded["seenAt"] == 1_476_088_200)
        #expect(encoded["tags"] == "a,b")
        #expect(encoded["createdAt"].isNull)
    }
}

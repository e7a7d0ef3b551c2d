import Foundation
import KilnModel
import Testing

/// `KilnDecoder` takes the strategies users set on `JSONDecoder` and gives the same results:
/// each case decodes the same bytes through both, configured alike, and compares the outcome.
@Suite("KilnDecoder strategies, equal to JSONDecoder's")
struct KilnDecoderStrategyTests {
    struct Strategies: @unchecked Sendable {
        var date: JSONDecoder.DateDecodingStrategy = .deferredToDate
        var data: JSONDecoder.DataDecodingStrategy = .base64
        var float: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
        var key: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys
        var userInfo: [CodingUserInfoKey: any Sendable] = [:]

        var foundation: JSONDecoder {
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = date
            decoder.dataDecodingStrategy = data
            decoder.nonConformingFloatDecodingStrategy = float
            decoder.keyDecodingStrategy = key
            for (name, value) in userInfo { decoder.userInfo[name] = value }
            return decoder
        }

        var kiln: KilnDecoder {
            var decoder = KilnDecoder()
            decoder.dateDecodingStrategy = date
            decoder.dataDecodingStrategy = data
            decoder.nonConformingFloatDecodingStrategy = float
            decoder.keyDecodingStrategy = key
            decoder.userInfo = userInfo
            return decoder
        }
    }

    /// The outcome as text: the value's description, or "error".
    static func outcome<T: Decodable>(_ type: T.Type, _ json: String, _ strategies: Strategies, fast: Bool = true) -> (foundation: String, kiln: String) {
        let data = Data(json.utf8)
        let foundation = (try? strategies.foundation.decode(T.self, from: data)).map { String(describing: $0) } ?? "error"
        let kiln = (try? strategies.kiln.decode(T.self, from: data)).map { String(describing: $0) } ?? "error"
        return (foundation, kiln)
    }

    static func expectSame<T: Decodable>(
        _ type: T.Type, _ json: String, _ strategies: Strategies, succeeds: Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let (foundation, kiln) = outcome(T.self, json, strategies)
        #expect(kiln == foundation, "\(json)", sourceLocation: sourceLocation)
        #expect((foundation != "error") == succeeds, "JSONDecoder on \(json): \(foundation)", sourceLocation: sourceLocation)
    }

    struct Stamp: Codable { var at: Date }
    struct Blob: Codable { var bytes: Data }
    struct Measure: Codable {
        var value: Double
        var ratio: Float
        var list: [Double]
    }

    static var utc: TimeZone { TimeZone(identifier: "UTC") ?? TimeZone.current }

    // MARK: Dates

    @Test(arguments: [
        (#"{"at": 1479025800.25}"#, true), (#"{"at": -12.5}"#, true), (#"{"at": 0}"#, true), (#"{"at": "1479025800"}"#, false),
    ])
    func secondsSince1970(json: String, succeeds: Bool) {
        Self.expectSame(Stamp.self, json, Strategies(date: .secondsSince1970), succeeds: succeeds)
    }

    @Test(arguments: [(#"{"at": 1479025800250}"#, true), (#"{"at": -1500.5}"#, true), (#"{"at": true}"#, false)])
    func millisecondsSince1970(json: String, succeeds: Bool) {
        Self.expectSame(Stamp.self, json, Strategies(date: .millisecondsSince1970), succeeds: succeeds)
    }

    @Test(arguments: [
        (#"{"at": "2016-11-13T08:30:00Z"}"#, true), (#"{"at": "2016-11-13T10:30:00+02:00"}"#, true),
        (#"{"at": "2016-11-13T08:30:00-07:00"}"#, true), (#"{"at": "2016-11-13"}"#, false), (#"{"at": 5}"#, false),
    ])
    func iso8601(json: String, succeeds: Bool) {
        Self.expectSame(Stamp.self, json, Strategies(date: .iso8601), succeeds: succeeds)
    }

    @Test func iso8601WithFractionsDecodesAsFoundationDoesHere() {
        // Foundation's `.iso8601` takes fractional seconds on some platforms and not on others:
        // the same bytes give the same outcome through both decoders on each.
        let (foundation, kiln) = Self.outcome(Stamp.self, #"{"at": "2016-11-13T08:30:00.250Z"}"#, Strategies(date: .iso8601))
        #expect(kiln == foundation)
    }

    @Test(arguments: [
        (#"{"at": "2016-11-13T08:30:00.250Z"}"#, true), (#"{"at": "2016-11-13T08:30:00Z"}"#, true),
        (#"{"at": "2016-11-13T10:30:00.5+02:00"}"#, true), (#"{"at": "yesterday"}"#, false),
    ])
    func iso8601WithFractionalSeconds(json: String, succeeds: Bool) {
        Self.expectSame(Stamp.self, json, Strategies(date: .iso8601WithFractionalSeconds), succeeds: succeeds)
    }

    @Test(arguments: [(#"{"at": "2016-11-13"}"#, true), (#"{"at": "13/11/2016"}"#, false)])
    func formatted(json: String, succeeds: Bool) {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = Self.utc
        formatter.dateFormat = "yyyy-MM-dd"
        Self.expectSame(Stamp.self, json, Strategies(date: .formatted(formatter)), succeeds: succeeds)
    }

    @Test(arguments: [(#"{"at": "@1479025800"}"#, true), (#"{"at": "1479025800"}"#, false)])
    func customDates(json: String, succeeds: Bool) {
        let strategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard text.hasPrefix("@"), let seconds = Double(text.dropFirst()) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not @seconds")
            }
            return Date(timeIntervalSince1970: seconds)
        }
        Self.expectSame(Stamp.self, json, Strategies(date: strategy), succeeds: succeeds)
    }

    @Test func deferredToDateReadsSecondsSince2001() {
        Self.expectSame(Stamp.self, #"{"at": 500000000.5}"#, Strategies(), succeeds: true)
        Self.expectSame([Date].self, #"[1, 2.5, -3]"#, Strategies(date: .secondsSince1970), succeeds: true)
    }

    // MARK: Data

    @Test(arguments: [(#"{"bytes": "AQID"}"#, true), (#"{"bytes": "not base64!"}"#, false), (#"{"bytes": ""}"#, true)])
    func base64(json: String, succeeds: Bool) {
        Self.expectSame(Blob.self, json, Strategies(), succeeds: succeeds)
    }

    @Test(arguments: [(#"{"bytes": [1, 2, 255]}"#, true), (#"{"bytes": [1, 256]}"#, false), (#"{"bytes": "AQID"}"#, false)])
    func deferredToData(json: String, succeeds: Bool) {
        Self.expectSame(Blob.self, json, Strategies(data: .deferredToData), succeeds: succeeds)
    }

    @Test(arguments: [(#"{"bytes": "0aff"}"#, true), (#"{"bytes": "0g"}"#, false)])
    func customData(json: String, succeeds: Bool) {
        let strategy = JSONDecoder.DataDecodingStrategy.custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            var bytes: [UInt8] = []
            var index = text.startIndex
            while index < text.endIndex {
                let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
                guard let byte = UInt8(text[index..<next], radix: 16) else {
                    throw DecodingError.dataCorruptedError(in: container, debugDescription: "not hex")
                }
                bytes.append(byte)
                index = next
            }
            return Data(bytes)
        }
        Self.expectSame(Blob.self, json, Strategies(data: strategy), succeeds: succeeds)
    }

    // MARK: Non-conforming floats

    @Test(arguments: [
        (#"{"value": "inf", "ratio": "-inf", "list": ["nan", 1, "inf"]}"#, true),
        (#"{"value": "nan", "ratio": 2.5, "list": []}"#, true),
        (#"{"value": "Infinity", "ratio": 1, "list": []}"#, false),
    ])
    func nonConformingFloatsFromStrings(json: String, succeeds: Bool) {
        let strategy = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        Self.expectSame(Measure.self, json, Strategies(float: strategy), succeeds: succeeds)
    }

    @Test func nonConformingFloatsAreRefusedByDefault() {
        Self.expectSame(Measure.self, #"{"value": "inf", "ratio": 1, "list": []}"#, Strategies(), succeeds: false)
    }

    // MARK: Keys

    struct SnakeKeys: Codable {
        var hasMore: Bool
        var userId: Int
        var _leadingKey: Int
        var trailingKey_: Int
        var alreadyCamelcase: Int
        var urlValue: String
        var plain: String
        var aB: Int
        var items: [Item]

        struct Item: Codable {
            var itemName: String
            var aURL: String?
        }
    }

    @Test func snakeCaseKeysAsFoundationConvertsThem() {
        let json = """
            {"has_more": true, "user_id": 7, "_leading_key": 1, "trailing_key_": 2, "already_camelCase": 3,
             "URL_value": "u", "plain": "p", "a__b": 4, "items": [{"item_name": "one", "a_url": "x"}, {"item_name": "two"}]}
            """
        Self.expectSame(SnakeKeys.self, json, Strategies(key: .convertFromSnakeCase), succeeds: true)
        // A key that is not there after conversion is missing through both.
        Self.expectSame(SnakeKeys.self, #"{"hasMore": true}"#, Strategies(key: .convertFromSnakeCase), succeeds: false)
    }

    struct Upper: Codable {
        var ID: Int
        var NAME: String
    }

    @Test func customKeysSeeTheCodingPath() {
        let strategy = JSONDecoder.KeyDecodingStrategy.custom { path in
            AnyCodingKey(path[path.count - 1].stringValue.uppercased())
        }
        Self.expectSame(Upper.self, #"{"id": 1, "name": "n"}"#, Strategies(key: strategy), succeeds: true)
        Self.expectSame([Upper].self, #"[{"Id": 1, "Name": "n"}]"#, Strategies(key: strategy), succeeds: true)
    }

    @Test func dataModelsUnderASnakeCaseStrategyDecodeAlikeWithTheSameRepairs() throws {
        let json = Data(#"{"has_more": "yes", "page_count": "3", "entries": [{"entry_name": "a", "view_count": 2}, {"entry_name": null}]}"#.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        var kiln = KilnDecoder()
        kiln.keyDecodingStrategy = .convertFromSnakeCase
        let (viaFoundation, foundationRepairs) = try foundation.decodeWithRepairs(Listing.self, from: json)
        let (viaKiln, kilnRepairs) = try kiln.decodeWithRepairs(Listing.self, from: json)
        #expect(viaKiln == viaFoundation)
        #expect(viaKiln.pageCount == 3 && viaKiln.entries.map(\.entryName) == ["a", "--"])
        #expect(kilnRepairs.map(\.description) == foundationRepairs.map(\.description))
    }

    @DataModel
    struct SnakeLists: Equatable {
        var theValues: [Int] = []
        var theCounts: [String: Int] = [:]
        var nestedLists: [[Int]] = []
    }

    /// A collection property's repairs are logged at the coding key (`theValues[1]`), as
    /// Foundation's decoder logs them, not at the key written in the document. (A lossy
    /// dictionary property reads its members through a keyed container, so both decoders convert
    /// its keys too: `aB`.)
    @Test func collectionRepairsUnderASnakeCaseStrategyNameTheCodingKey() throws {
        let json = #"{"the_values": [1, "x", 3], "the_counts": {"a_b": "x", "c": 2}, "nested_lists": [[1, "y"]]}"#
        let (value, repairs) = try ModelIntentTests.decodeAllWays(SnakeLists.self, json) { kiln, foundation in
            kiln.keyDecodingStrategy = .convertFromSnakeCase
            foundation.keyDecodingStrategy = .convertFromSnakeCase
        }
        #expect(value == SnakeLists(theValues: [1, 3], theCounts: ["c": 2], nestedLists: [[1]]))
        #expect(repairs.map(\.path) == ["theValues[1]", "theCounts.aB", "nestedLists[0][1]"])
    }

    // MARK: @DataModel models, values and repairs

    static let dateCases: [(String, JSONDecoder.DateDecodingStrategy, String)] = [
        ("deferredToDate", .deferredToDate, #"{"at": 500000000.5, "ratio": "inf", "items": [{"seen": 1.5}, {"seen": "soon"}]}"#),
        ("secondsSince1970", .secondsSince1970, #"{"at": 1479025800.25, "ratio": "nan", "items": [{"seen": -12}, {"seen": true}]}"#),
        ("millisecondsSince1970", .millisecondsSince1970, #"{"at": 1479025800250, "ratio": 2, "items": [{"seen": "x"}]}"#),
        ("iso8601", .iso8601, #"{"at": "2016-11-13T08:30:00Z", "ratio": "-inf", "items": [{"seen": "2016-11-13T10:30:00+02:00"}, {"seen": 5}]}"#),
        ("iso8601WithFractionalSeconds", .iso8601WithFractionalSeconds, #"{"at": "2016-11-13T08:30:00.250Z", "ratio": 1, "items": [{"seen": "bad"}]}"#),
        (
            "custom",
            .custom { decoder in
                Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) * 60)
            }, #"{"at": 3, "ratio": "inf", "items": [{"seen": 1}, {"seen": "one"}]}"#
        ),
    ]

    @Test(arguments: 0..<dateCases.count)
    func aModelDecodesEqualThroughBothDecodersWithEveryDateStrategy(index: Int) throws {
        let (name, strategy, json) = Self.dateCases[index]
        let floats = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        let data = Data(json.utf8)
        let foundation = JSONDecoder()
        foundation.dateDecodingStrategy = strategy
        foundation.nonConformingFloatDecodingStrategy = floats
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        var kiln = KilnDecoder()
        kiln.dateDecodingStrategy = strategy
        kiln.nonConformingFloatDecodingStrategy = floats
        kiln.keyDecodingStrategy = .convertFromSnakeCase
        let (viaFoundation, foundationRepairs) = try foundation.decodeWithRepairs(Timeline.self, from: data)
        let (viaKiln, kilnRepairs) = try kiln.decodeWithRepairs(Timeline.self, from: data)
        #expect(String(describing: viaKiln) == String(describing: viaFoundation), "\(name)")
        #expect(kilnRepairs.map(\.description) == foundationRepairs.map(\.description), "\(name)")
        #expect(!kilnRepairs.isEmpty, "\(name): each case has a value no strategy can read")
    }

    @DataModel
    struct Schedule: Equatable {
        var at = Date(timeIntervalSince1970: 0)
        var until: Date?
        var moments: [Date] = []
    }

    /// Dates in a model read on Kiln's fast path (no key strategy), by every date strategy, as
    /// Foundation's decoder and Kiln's `Decoder` path read them: numbers of each kind, strings
    /// with and without offsets or fractions, `null`, and values no strategy reads.
    @Test(arguments: 0..<dateCases.count)
    func datesInAModelReadOnTheFastPathAsThroughFoundation(index: Int) throws {
        let (name, strategy, _) = Self.dateCases[index]
        let documents = [
            #"{"at": 500000000.5, "until": -0.0, "moments": [0, 1e3, -12, 1479025800250]}"#,
            #"{"at": "2016-11-13T08:30:00Z", "until": "2016-11-13T10:30:00+02:00", "moments": ["2016-11-13T08:30:00.250Z", "2016-11-13T08:30:00"]}"#,
            #"{"at": null, "until": "soon", "moments": [true, "1999-12-31T23:59:60Z", "0000-01-01T00:00:00Z"]}"#,
            #"{"at": "2016-11-13T08:30:00+14:00", "until": 1e30, "moments": [[1], {"a": 1}]}"#,
        ]
        for document in documents {
            let (value, _) = try ModelIntentTests.decodeAllWays(Schedule.self, document) { kiln, foundation in
                kiln.dateDecodingStrategy = strategy
                foundation.dateDecodingStrategy = strategy
            }
            _ = (name, value)
        }
    }

    // MARK: userInfo

    static let greeting = CodingUserInfoKey(rawValue: "greeting")!

    struct Greeted: Decodable, CustomStringConvertible {
        var heard: String
        var at: Date
        init(from decoder: any Decoder) throws {
            heard = decoder.userInfo[KilnDecoderStrategyTests.greeting] as? String ?? "nothing"
            at = try decoder.container(keyedBy: AnyCodingKey.self).decode(Date.self, forKey: AnyCodingKey("at"))
        }
        var description: String { "\(heard) \(at.timeIntervalSince1970)" }
    }

    @Test func userInfoReachesInitializersAndStrategyClosures() {
        let strategy = JSONDecoder.DateDecodingStrategy.custom { decoder in
            let offset = decoder.userInfo[KilnDecoderStrategyTests.greeting] as? String == "hello" ? 1000.0 : 0
            return Date(timeIntervalSince1970: try decoder.singleValueContainer().decode(Double.self) + offset)
        }
        let strategies = Strategies(date: strategy, userInfo: [Self.greeting: "hello"])
        let (foundation, kiln) = Self.outcome(Greeted.self, #"{"at": 1}"#, strategies)
        #expect(kiln == "hello 1001.0")
        #expect(kiln == foundation)
    }
}

@DataModel
struct Listing: Equatable {
    var hasMore = false
    var pageCount = 0
    var entries: [Entry] = []

    @DataModel
    struct Entry: Equatable {
        var entryName = "--"
        var viewCount = 0
    }
}

@DataModel
struct Timeline {
    var at = Date(timeIntervalSince1970: 0)
    var ratio = 0.0
    var items: [Moment] = []

    @DataModel
    struct Moment {
        var seen = Date(timeIntervalSince1970: 0)
    }
}

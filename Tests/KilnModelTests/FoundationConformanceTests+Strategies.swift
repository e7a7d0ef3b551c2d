import Foundation
import Testing

@testable import KilnModel

/// Date, data and non-conforming float strategies, and `userInfo`.
extension FoundationConformanceTests {
    struct Stamp: Decodable { var at: Date }
    struct MaybeStamp: Decodable { var at: Date? }
    struct Blob: Decodable { var bytes: Data }
    struct MaybeBlob: Decodable { var bytes: Data? }

    static let epoch = JSONDecoder.DateDecodingStrategy.custom { _ in Date(timeIntervalSince1970: 0) }
    static let empty = JSONDecoder.DataDecodingStrategy.custom { _ in Data() }

    /// A custom strategy is not called for `null`: the decoder throws valueNotFound first.
    @Test func customStrategiesAreNotCalledForNull() {
        #expect(Self.expectSame(Stamp.self, #"{"at": null}"#, Strategies(date: Self.epoch)) == .error(.valueNotFound, path: "at"))
        #expect(Self.expectSame(Blob.self, #"{"bytes": null}"#, Strategies(data: Self.empty)) == .error(.valueNotFound, path: "bytes"))
        Self.expectSame([Date].self, "[1, null]", Strategies(date: Self.epoch))
        Self.expectSame(Date.self, "null", Strategies(date: Self.epoch))
        Self.expectSame(MaybeStamp.self, #"{"at": null}"#, Strategies(date: Self.epoch))
        Self.expectSame(MaybeBlob.self, #"{"bytes": null}"#, Strategies(data: Self.empty))
    }

    static let dateStrategies: [JSONDecoder.DateDecodingStrategy] = [.deferredToDate, .secondsSince1970, .millisecondsSince1970, .iso8601]
    static let dataStrategies: [JSONDecoder.DataDecodingStrategy] = [.deferredToData, .base64]

    @Test(arguments: 0..<dateStrategies.count)
    func builtInDateStrategiesRefuseNull(index: Int) {
        let strategy = Self.dateStrategies[index]
        Self.expectSame(Stamp.self, #"{"at": null}"#, Strategies(date: strategy))
        Self.expectSame(Stamp.self, #"{"at": []}"#, Strategies(date: strategy))
    }

    @Test(arguments: 0..<dataStrategies.count)
    func builtInDataStrategiesRefuseNullAndBadInput(index: Int) {
        let strategy = Self.dataStrategies[index]
        Self.expectSame(Blob.self, #"{"bytes": null}"#, Strategies(data: strategy))
        Self.expectSame(Blob.self, #"{"bytes": "not base64!"}"#, Strategies(data: strategy))
        Self.expectSame(Blob.self, #"{"bytes": [1, 2, "x"]}"#, Strategies(data: strategy))
        Self.expectSame(Blob.self, #"{"bytes": [1, 2, 3]}"#, Strategies(data: strategy))
        Self.expectSame(Blob.self, #"{"bytes": "aGVsbG8="}"#, Strategies(data: strategy))
    }

    /// A custom strategy that throws lets the caller try another type.
    @Test func aThrowingCustomStrategyLeavesTheDecoderUsable() {
        struct Refused: Error {}
        let refuseDates = JSONDecoder.DateDecodingStrategy.custom { _ in throw Refused() }
        let refuseData = JSONDecoder.DataDecodingStrategy.custom { _ in throw Refused() }
        Self.expectSame(Either<Date, Int>.self, "1", Strategies(date: refuseDates))
        Self.expectSame(Either<Data, Int>.self, "1", Strategies(data: refuseData))
        Self.expectSame(Stamp.self, #"{"at": 1}"#, Strategies(date: refuseDates))
    }

    /// A custom strategy reads through containers at the value's coding path.
    @Test func customStrategiesSeeTheValuesPath() {
        let keyed = JSONDecoder.DateDecodingStrategy.custom { decoder in
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            return Date(timeIntervalSince1970: try container.decode(Double.self, forKey: AnyCodingKey("seconds")))
        }
        Self.expectSame(Stamp.self, #"{"at": {"seconds": 5}}"#, Strategies(date: keyed))
        #expect(Self.expectSame(Stamp.self, #"{"at": {"seconds": "5"}}"#, Strategies(date: keyed)) == .error(.typeMismatch, path: "at.seconds"))
        Self.expectSame(Stamp.self, #"{"at": {}}"#, Strategies(date: keyed))
    }

    struct Floats: Decodable {
        var double: Double
        var float: Float
        var list: [Double]
    }

    static let named = JSONDecoder.NonConformingFloatDecodingStrategy.convertFromString(
        positiveInfinity: "+Infinity", negativeInfinity: "-Infinity", nan: "NaN")

    @Test(arguments: [
        #"{"double": "+Infinity", "float": "-Infinity", "list": ["NaN", 1]}"#,
        #"{"double": "Infinity", "float": 1, "list": []}"#, // not one of the names: typeMismatch
        #"{"double": 1, "float": "NaN", "list": ["nan"]}"#,
    ])
    func nonConformingFloatsFromNamedStrings(json: String) {
        Self.expectSame(Floats.self, json, Strategies(float: Self.named))
        Self.expectSame(Floats.self, json) // the default throws
    }

    /// `userInfo` reaches every `init(from:)` and strategy closure, with the caller's values.
    struct Told: Decodable {
        static let key = CodingUserInfoKey(rawValue: "told")
        var heard: [String]
        init(from decoder: any Decoder) throws {
            let mine = Self.key.flatMap { decoder.userInfo[$0] as? String } ?? "nothing"
            heard = [mine] + (try decoder.singleValueContainer().decode([Child].self)).map(\.heard)
        }
        struct Child: Decodable {
            var heard: String
            init(from decoder: any Decoder) throws {
                heard = Told.key.flatMap { decoder.userInfo[$0] as? String } ?? "nothing"
            }
        }
    }

    @Test func userInfoReachesEveryDecoder() throws {
        let key = try #require(Told.key)
        Self.expectSame(Told.self, "[{}, {}]", Strategies(userInfo: [key: "hello"]))
        Self.expectSame(Told.self, "[{}]")
    }
}

import Foundation
import Testing
@_spi(Testing) @testable import KilnModel

@Suite("KilnDecoder")
struct KilnDecoderTests {
    /// A page whose `page` is text and whose list has one article.
    static let sample = #"{"code":"0000","data":{"page":"2","list":[{"id":7}]}}"#

    @Test func errorsAreTyped() {
        #expect(throws: ModelDecodingError.pathNotFound(path: "data.missing")) {
            _ = try KilnDecoder().decode([Article].self, from: Self.sample, at: "data.missing")
        }
        #expect(throws: ModelDecodingError.pathNotFound(path: "data.list[9]")) {
            _ = try KilnDecoder().decode(Article.self, from: Self.sample, at: "data.list[9]")
        }
        do {
            struct StrictPage: Decodable {
                struct Contents: Decodable { var page: Int }
                var data: Contents
            }
            _ = try KilnDecoder().decode(StrictPage.self, from: Self.sample)
            Issue.record("strict decode accepted a string page")
        } catch {
            guard case .typeMismatch(let path, _, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(path.hasPrefix("data."))
        }
        #expect(throws: ModelDecodingError.invalidJSON(message: "unexpected '}'; expected a value", offset: 6, line: 1, column: 7)) {
            _ = try KilnDecoder().decode(JSONValue.self, from: #"{"a": }"#)
        }
    }

    @Test func foundationsSpecialTypesDecodeAlike() throws {
        struct Special: Codable, Equatable {
            var date: Date
            var data: Data
            var url: URL
            var price: Decimal
            var ratio: Float
            var small: Int8
            var big: UInt64
            var nested: [String: [Int]]
            var optional: String?
        }
        let json = Data(
            #"{"date": 1000.5, "data": "aGVsbG8=", "url": "https://example.com/a?b=1", "price": 3.14159, "ratio": 0.1, "small": -128, "big": 18446744073709551615, "nested": {"a": [1, 2]}, "optional": null}"#
                .utf8)
        #expect(try KilnDecoder().decode(Special.self, from: json) == JSONDecoder().decode(Special.self, from: json))
    }

    @Test func strictIntegersFollowFoundation() throws {
        let json = Data("[42.0, 1e2, -0]".utf8)
        #expect(try KilnDecoder().decode([Int].self, from: json) == [42, 100, 0])
        struct Small: Decodable { var value: Int8 }
        #expect(throws: ModelDecodingError.self) { _ = try KilnDecoder().decode(Small.self, from: Data(#"{"value": 300}"#.utf8)) }
        #expect(throws: (any Error).self) { _ = try JSONDecoder().decode(Small.self, from: Data(#"{"value": 300}"#.utf8)) }
        struct StrictAuthor: Decodable { var user_id: Int }
        #expect(throws: ModelDecodingError.self) { _ = try KilnDecoder().decode(StrictAuthor.self, from: Data(#"{"user_id": 4.5}"#.utf8)) }
    }

    @Test func userInfoAndSessionReachTheModel() throws {
        struct Probe: Decodable {
            var seen: String
            init(from decoder: any Decoder) throws {
                let marker = CodingUserInfoKey(rawValue: "marker").map { decoder.userInfo[$0] as? String } ?? nil
                seen = (marker ?? "none") + (DecodingSession.current(in: decoder) == nil ? "" : "+session")
            }
        }
        var decoder = KilnDecoder()
        if let key = CodingUserInfoKey(rawValue: "marker") { decoder.userInfo[key] = "hello" }
        #expect(try decoder.decode(Probe.self, from: "{}").seen == "hello+session")
    }

    @Test func nestingLimitAppliesToDecoding() {
        var decoder = KilnDecoder()
        decoder.readerOptions.maxDepth = 2
        #expect(throws: ModelDecodingError.self) { _ = try decoder.decode(JSONValue.self, from: "[[[0]]]") }
        #expect(throws: Never.self) { _ = try decoder.decode(JSONValue.self, from: "[[0]]") }
    }
}

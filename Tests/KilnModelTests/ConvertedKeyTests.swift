import Foundation
import KilnModel
import Testing

/// Under `.convertFromSnakeCase`, objects whose keys are written alike share one table of
/// converted keys for the whole decode. Whatever the order of the keys, the keys that convert
/// alike, the keys written with escapes, the number of different layouts and the order a type
/// reads its keys in, `KilnDecoder` answers as `JSONDecoder` does.
@Suite struct ConvertedKeyTests {
    /// Reads its members in its own order: backwards, one key twice, an absent one, `contains`
    /// and `allKeys`, so that the look-up's hint is passed, missed and found again.
    struct Row: Decodable, Equatable, CustomStringConvertible {
        var keys: [String]
        var contained: [Bool]
        var values: [String]

        static let names = ["userId", "displayName", "isAdmin", "tagList", "missingKey", "aB"]

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            keys = container.allKeys.map(\.stringValue).sorted()
            contained = Self.names.map { container.contains(AnyCodingKey($0)) }
            var values: [String] = []
            for name in Self.names.reversed() + ["userId", "displayName", "userId"] {
                let value = try container.decodeIfPresent(JSONValue.self, forKey: AnyCodingKey(name))
                values.append(value.map { "\(name)=\($0)" } ?? "\(name) absent")
            }
            self.values = values
        }

        var description: String { "\(keys) \(contained) \(values)" }
    }

    /// The same plain `Codable` shape, read by the synthesized `init(from:)`.
    struct Plain: Decodable, Equatable {
        var userId: Int?
        var displayName: String?
        var isAdmin: Bool?
        var tagList: [String]?
        var aB: Int?
    }

    /// Keys as documents write them: several that convert to one name (`user_id`, `userId`,
    /// `user__id`, `_user_id` is another), one with an escape, and some that convert to nothing
    /// a type reads.
    static let writtenKeys = [
        "user_id", "userId", "user__id", "_user_id", #"user\u005fid"#, "display_name", "DISPLAY_NAME", "is_admin", "tag_list",
        "a__b", "a_b", "other_key", "extra",
    ]

    static func value(for key: String, _ pick: Int) -> String {
        switch key {
        case "user_id", "userId", "user__id", "_user_id", #"user\u005fid"#, "a__b", "a_b": "\(pick)"
        case "is_admin": pick % 2 == 0 ? "true" : "false"
        case "tag_list": #"["t\#(pick)"]"#
        default: #""v\#(pick)""#
        }
    }

    /// A list of objects, each a random choice of keys in a random order: more different
    /// layouts than a decode keeps, so layouts are replaced and met again.
    static func document(seed: UInt64, count: Int) -> String {
        var state = seed
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        var objects: [String] = []
        // A few layouts come back often, as a list's elements do; the rest are new.
        var recurring: [[String]] = []
        for _ in 0..<count {
            let keys: [String]
            if !recurring.isEmpty, next(3) > 0 {
                keys = recurring[next(recurring.count)]
            } else {
                keys = writtenKeys.filter { _ in next(3) > 0 }.shuffled(using: &state)
                if recurring.count < 40 { recurring.append(keys) }
            }
            let members = keys.map { #""\#($0)": \#(value(for: $0, next(1_000)))"# }
            objects.append("{" + members.joined(separator: ", ") + "}")
        }
        return "[" + objects.joined(separator: ",\n") + "]"
    }

    static func decoders() -> (JSONDecoder, KilnDecoder) {
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = .convertFromSnakeCase
        var kiln = KilnDecoder()
        kiln.keyDecodingStrategy = .convertFromSnakeCase
        return (foundation, kiln)
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func objectsReadAsFoundationReadsThem(seed: UInt64) throws {
        let data = Data(Self.document(seed: seed, count: 400).utf8)
        let (foundation, kiln) = Self.decoders()
        let expected = try foundation.decode([Row].self, from: data)
        let rows = try kiln.decode([Row].self, from: data)
        #expect(rows.count == expected.count)
        for (index, (row, want)) in zip(rows, expected).enumerated() where row != want {
            Issue.record("object \(index): \(row) ≠ \(want)")
        }
        #expect(try kiln.decode([Plain].self, from: data) == foundation.decode([Plain].self, from: data))
    }

    /// Objects whose keys are the same words in another order, or one byte apart, do not share
    /// a layout: each reads its own members.
    @Test func keysInAnotherOrderOrWrittenOtherwiseAreTheirOwn() throws {
        let json = """
            [{"user_id": 1, "display_name": "a"}, {"display_name": "b", "user_id": 2},
             {"user_id": 3, "display_nam": "c"}, {"userid": 4, "display_name": "d"},
             {"user_id": 5, "user__id": 6}, {"user__id": 7, "user_id": 8}, {"user_id": 9, "display_name": "e"},
             {"is_admin": true, "user_id": 10}, {"tag_list": ["x"], "user_id": 11}, {"": 12}, {"": 13}, {}, {}]
            """
        let (foundation, kiln) = Self.decoders()
        let rows = try kiln.decode([Plain].self, from: Data(json.utf8))
        #expect(rows == (try foundation.decode([Plain].self, from: Data(json.utf8))))
        let none = [Int?](repeating: nil, count: 4)
        #expect(rows.map(\.userId) == [1, 2, 3, nil, 5, 7, 9, 10, 11] + none)
        #expect(rows.map(\.displayName) == ["a", "b", nil, "d", nil, nil, "e", nil, nil] + none.map { _ in nil })
        #expect(rows.map(\.isAdmin) == [nil, nil, nil, nil, nil, nil, nil, true, nil] + none.map { _ in nil })
        #expect(rows.map(\.tagList) == [nil, nil, nil, nil, nil, nil, nil, nil, ["x"]] + none.map { _ in nil })
    }

    /// A custom strategy may answer differently at each coding path: its keys are converted for
    /// each object, never shared. Here a key loses as many letters as it is deep, less one, so
    /// `xvalue` is `value` in `first` and `alue` in `wrap.inner`.
    @Test func aCustomStrategyConvertsEachObjectsKeys() throws {
        struct Inner: Decodable, Equatable {
            var value: Int?
            var alue: Int?
        }
        struct Wrapper: Decodable, Equatable { var nner: Inner }
        struct Outer: Decodable, Equatable {
            var first: Inner
            var wrap: Wrapper
        }
        let strategy = JSONDecoder.KeyDecodingStrategy.custom { path in
            AnyCodingKey(String(path[path.count - 1].stringValue.dropFirst(path.count - 1)))
        }
        let json = Data(#"{"first": {"xvalue": 1}, "wrap": {"inner": {"xvalue": 2}}}"#.utf8)
        let foundation = JSONDecoder()
        foundation.keyDecodingStrategy = strategy
        var kiln = KilnDecoder()
        kiln.keyDecodingStrategy = strategy
        let expected = Outer(first: Inner(value: 1, alue: nil), wrap: Wrapper(nner: Inner(value: nil, alue: 2)))
        #expect(try foundation.decode(Outer.self, from: json) == expected)
        #expect(try kiln.decode(Outer.self, from: json) == expected)
    }
}

extension Array {
    fileprivate func shuffled(using state: inout UInt64) -> [Element] {
        var items = self
        for i in items.indices.reversed() where i > 0 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            items.swapAt(i, Int((state >> 33) % UInt64(i + 1)))
        }
        return items
    }
}

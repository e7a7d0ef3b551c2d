import Foundation
import Testing

@testable import KilnModel

/// Keyed, unkeyed and single-value containers, nested containers and super decoders.
extension FoundationConformanceTests {
    struct Pair: Decodable {
        var name: String
        var count: Int
    }

    @Test(arguments: [
        #"{"name": "a", "count": 1}"#, // both present
        #"{"name": "a"}"#, // missing key: keyNotFound at 'count'
        #"{"name": null, "count": 1}"#, // null: valueNotFound at 'name'
        #"{"name": 5, "count": 1}"#, // typeMismatch at 'name'
        #"[]"#, // an array for a keyed container: typeMismatch at the root
        #"null"#, // valueNotFound at the root
    ])
    func keyedContainerValuesAndErrors(json: String) {
        Self.expectSame(Pair.self, json)
    }

    @Test func keyedDecodingOfNullForStringIsValueNotFoundOfString() {
        #expect(Self.expectSame(Pair.self, #"{"name": null, "count": 1}"#) == .error(.valueNotFound, path: "name"))
    }

    /// Every `decodeIfPresent` overload: absent, `null`, a value, and a value of the wrong kind.
    struct AllIfPresent: Decodable {
        var bool: Bool?
        var string: String?
        var double: Double?
        var float: Float?
        var int: Int?
        var int8: Int8?
        var int16: Int16?
        var int32: Int32?
        var int64: Int64?
        var uint: UInt?
        var uint8: UInt8?
        var uint16: UInt16?
        var uint32: UInt32?
        var uint64: UInt64?
        var nested: [String]?
    }

    @Test(arguments: [
        "{}",
        #"{"bool": null, "string": null, "double": null, "float": null, "int": null, "int8": null, "int16": null, "int32": null, "int64": null, "uint": null, "uint8": null, "uint16": null, "uint32": null, "uint64": null, "nested": null}"#,
        #"{"bool": true, "string": "s", "double": 1, "float": 1, "int": 1, "int8": 1, "int16": 1, "int32": 1, "int64": 1, "uint": 1, "uint8": 1, "uint16": 1, "uint32": 1, "uint64": 1, "nested": ["x"]}"#,
        #"{"bool": 1}"#, #"{"string": 1}"#, #"{"double": "1"}"#, #"{"int8": true}"#, #"{"uint64": []}"#, #"{"nested": {}}"#,
    ])
    func keyedDecodeIfPresentForEveryType(json: String) {
        Self.expectSame(AllIfPresent.self, json)
    }

    /// `decodeNil(forKey:)` on an absent key throws keyNotFound; `contains` says which keys exist.
    struct Presence: Decodable {
        var summary: String
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: AnyCodingKey.self)
            let keys = ["a", "b", "c"].map(AnyCodingKey.init)
            summary = keys.map { container.contains($0) ? "1" : "0" }.joined()
            summary += try container.decodeNil(forKey: AnyCodingKey("a")) ? " nil" : " value"
            summary += " " + container.allKeys.map(\.stringValue).sorted().joined(separator: ",")
        }
    }

    @Test(arguments: [#"{"a": null, "c": 1}"#, #"{"a": 0, "b": 1, "c": 2}"#, #"{"b": 1}"#])
    func containsDecodeNilAndAllKeys(json: String) {
        Self.expectSame(Presence.self, json)
    }

    /// Nested keyed and unkeyed containers, with the coding path of a failure inside them.
    struct Nest: Decodable {
        var inner: Int
        var list: [Bool]
        enum CodingKeys: String, CodingKey { case outer, items }
        enum InnerKeys: String, CodingKey { case inner }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let outer = try container.nestedContainer(keyedBy: InnerKeys.self, forKey: .outer)
            inner = try outer.decode(Int.self, forKey: .inner)
            var items = try container.nestedUnkeyedContainer(forKey: .items)
            var list: [Bool] = []
            while !items.isAtEnd {
                var pair = try items.nestedUnkeyedContainer()
                list.append(try pair.decode(Bool.self))
                list.append(contentsOf: try pair.nestedContainer(keyedBy: InnerKeys.self).decode([Bool].self, forKey: .inner))
            }
            self.list = list
        }
    }

    @Test(arguments: [
        #"{"outer": {"inner": 3}, "items": [[true, {"inner": [false]}]]}"#,
        #"{"outer": {"inner": "3"}, "items": []}"#, // typeMismatch at outer.inner
        #"{"outer": null, "items": []}"#, // valueNotFound for the nested keyed container
        #"{"outer": [], "items": []}"#, // typeMismatch for the nested keyed container
        #"{"outer": {"inner": 3}}"#, // keyNotFound for the nested unkeyed container
        #"{"outer": {"inner": 3}, "items": [[true, {"inner": [false, 0]}]]}"#, // typeMismatch at items[0][1].inner[1]
        #"{"outer": {"inner": 3}, "items": [[true]]}"#, // nested container past the end: valueNotFound at items[0][1]
        #"{"outer": {"inner": 3}, "items": [true]}"#, // typeMismatch for the nested unkeyed container at items[0]
    ])
    func nestedContainersAndTheirPaths(json: String) {
        Self.expectSame(Nest.self, json)
    }

    /// `superDecoder(forKey:)` on an absent key is a decoder for `null` at that key; reading a
    /// value there throws valueNotFound, which a type may catch.
    struct OptionalSuper: Decodable {
        var a: Bool
        var nope: String?
        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: AnyCodingKey.self)
            a = try keyed.decode(Bool.self, forKey: AnyCodingKey("a"))
            do {
                nope = try keyed.superDecoder(forKey: AnyCodingKey("nope")).singleValueContainer().decode(String.self)
            } catch DecodingError.valueNotFound {
                nope = nil
            }
        }
    }

    struct StrictSuper: Decodable {
        var value: String
        init(from decoder: any Decoder) throws {
            let keyed = try decoder.container(keyedBy: AnyCodingKey.self)
            value = try keyed.superDecoder(forKey: AnyCodingKey("nope")).singleValueContainer().decode(String.self)
        }
    }

    @Test func superDecoderForAnAbsentKeyReadsNull() {
        #expect(!Self.expectSame(OptionalSuper.self, #"{"a": true}"#).isError)
        Self.expectSame(OptionalSuper.self, #"{"a": true, "nope": "x"}"#)
        #expect(Self.expectSame(StrictSuper.self, #"{"a": true}"#) == .error(.valueNotFound, path: "nope"))
    }

    /// A class hierarchy through `superDecoder()` (the `"super"` key) and through the same decoder.
    class Person: Decodable {
        let name: String
        private enum CodingKeys: String, CodingKey { case name }
        required init(from decoder: any Decoder) throws {
            name = try decoder.container(keyedBy: CodingKeys.self).decode(String.self, forKey: .name)
        }
    }

    final class Employee: Person {
        let id: Int
        private enum CodingKeys: String, CodingKey { case id }
        required init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decode(Int.self, forKey: .id)
            try super.init(from: container.superDecoder())
        }
    }

    @Test(arguments: [
        #"{"id": 1, "super": {"name": "Kai"}}"#,
        #"{"id": 1}"#, // an absent "super" reads null: valueNotFound at 'super'
        #"{"id": 1, "super": {"name": 2}}"#, // typeMismatch at super.name
    ])
    func superDecoderReadsTheSuperKey(json: String) {
        Self.expectSame(Employee.self, json)
    }

    @Test func decodingThroughASubclassMetatypeBuildsTheSubclass() {
        let type: Person.Type = Employee.self
        let outcome = Self.expectSame(type, #"{"id": 1, "super": {"name": "Kai"}}"#)
        #expect(outcome.description.contains("Employee"))
    }

    /// Unkeyed containers: reading past the end, `decodeNil` that does not advance on a value,
    /// and `decodeIfPresent` at the end (Foundation counts it: `currentIndex` moves past `count`).
    struct Cursor: Decodable {
        var trace: [String] = []
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            trace.append("count \(container.count.map(String.init) ?? "-")")
            while !container.isAtEnd {
                if try container.decodeNil() {
                    trace.append("nil@\(container.currentIndex)")
                    continue
                }
                // Repeated failed nil checks do not move the cursor.
                _ = try container.decodeNil()
                trace.append("\(try container.decode(Int.self))@\(container.currentIndex)")
            }
            let past = try container.decodeIfPresent(Int.self)
            trace.append("past \(past.map(String.init) ?? "nil")@\(container.currentIndex) end \(container.isAtEnd)")
        }
    }

    @Test(arguments: ["[1, null, 2]", "[]", "[null]", #"[1, "x"]"#])
    func unkeyedCursorDecodeNilAndDecodeIfPresentAtTheEnd(json: String) {
        Self.expectSame(Cursor.self, json)
    }

    struct PastTheEnd: Decodable {
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            _ = try container.decode(Int.self)
            _ = try container.decode(Int.self)
        }
    }

    @Test func readingPastTheEndIsValueNotFoundAtTheNextIndex() {
        #expect(Self.expectSame(PastTheEnd.self, "[1]") == .error(.valueNotFound, path: "[1]"))
    }

    /// `decodeIfPresent` on an unkeyed container, each overload, over `null`, a value and a mismatch.
    struct UnkeyedIfPresent: Decodable {
        var values: [String] = []
        init(from decoder: any Decoder) throws {
            var container = try decoder.unkeyedContainer()
            values.append("\(try container.decodeIfPresent(Bool.self) as Any)")
            values.append("\(try container.decodeIfPresent(String.self) as Any)")
            values.append("\(try container.decodeIfPresent(Int.self) as Any)")
            values.append("\(try container.decodeIfPresent(UInt8.self) as Any)")
            values.append("\(try container.decodeIfPresent(Double.self) as Any)")
            values.append("\(try container.decodeIfPresent([Int].self) as Any)")
            values.append("@\(container.currentIndex)")
        }
    }

    @Test(arguments: [
        #"[true, "s", 1, 2, 3.5, [1]]"#, "[null, null, null, null, null, null]", #"[true, "s"]"#, #"[1]"#, #"[true, "s", "1"]"#,
    ])
    func unkeyedDecodeIfPresentForEachType(json: String) {
        Self.expectSame(UnkeyedIfPresent.self, json)
    }

    /// A container kept and read after `init(from:)` returned (swift-foundation's delayed decoding).
    struct Delayed: Decodable {
        var container: (any UnkeyedDecodingContainer)?
        init(from decoder: any Decoder) throws {
            container = try decoder.unkeyedContainer()
        }
        func first() throws -> Int {
            guard var copy = container else { return -1 }
            return try copy.decode(Int.self)
        }
    }

    @Test func aContainerKeptForLaterStillReads() throws {
        let data = Data("[42]".utf8)
        #expect(try JSONDecoder().decode(Delayed.self, from: data).first() == 42)
        #expect(try KilnDecoder().decode(Delayed.self, from: data).first() == 42)
    }

    /// One type tried as another after the first failed (swift-foundation's decoder-state tests).
    enum Either<A: Decodable, B: Decodable>: Decodable {
        case first(A), second(B)
        init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            do {
                self = .first(try container.decode(A.self))
            } catch {
                self = .second(try container.decode(B.self))
            }
        }
    }

    @Test func aFailedAttemptLeavesTheDecoderReadyForTheNext() {
        Self.expectSame(Either<[String], [Int]>.self, "[1, 2, 3]")
        Self.expectSame(Either<Pair, [Int]>.self, "[1]")
        Self.expectSame(Either<Int, String>.self, #""x""#)
    }

    /// A type's own error thrown from `init(from:)` fails the decode through both.
    struct Checked: Decodable {
        struct Refused: Error {}
        init(from decoder: any Decoder) throws {
            let value = try decoder.singleValueContainer().decode([String: String].self)
            guard value["checked"] == "foo" else { throw Refused() }
        }
    }

    @Test(arguments: [#"{"checked": "foo"}"#, #"{"checked": "baz"}"#])
    func aTypesOwnErrorFailsTheDecode(json: String) {
        Self.expectSame(Checked.self, json)
    }

    /// The same type-mismatch errors for primitive lists as swift-foundation's coercion tests.
    @Test func listsDoNotCoerceBetweenBoolsAndNumbers() {
        #expect(Self.expectSame([Int].self, "[false, true]") == .error(.typeMismatch, path: "[0]"))
        Self.expectSame([Int8].self, "[false, true]")
        Self.expectSame([UInt64].self, "[false, true]")
        Self.expectSame([Float].self, "[false, true]")
        Self.expectSame([Double].self, "[false, true]")
        Self.expectSame([Bool].self, "[0, 1]")
        Self.expectSame([Bool].self, "[0.0, 1.0]")
        Self.expectSame([String].self, #"["a", 1]"#)
        Self.expectSame([String].self, #"["a", null]"#)
    }
}

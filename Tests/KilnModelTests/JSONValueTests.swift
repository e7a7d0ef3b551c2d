import Foundation
import KilnModel
import Testing

@Suite struct JSONValueTests {
    let value: JSONValue = [
        "goodName": "Tea", "minLimitMoney": "100", "overdue": 1, "ratio": "0.5",
        "a": ["b": [10, 20, ["c": "deep"]]], "dotted.key": true, "none": nil,
    ]

    @Test func tolerantAccessorsFollowTheCoercionRules() {
        #expect(value["goodName"].string == "Tea")
        #expect(value["minLimitMoney"].int == 100)
        #expect(value["minLimitMoney"].string == "100")
        #expect(value["overdue"].bool == true)
        #expect(value["ratio"].double == 0.5)
        #expect(value["ratio"].int == nil)
        #expect(value["missing"].int ?? 0 == 0)
        #expect(value["none"].isNull)
    }

    @Test func pathSubscripts() {
        #expect(value["a.b[1]"].int == 20)
        #expect(value["a.b[2].c"].string == "deep")
        #expect(value["a.b[9]"].isNull)
        #expect(value["dotted.key"].bool == true, "a key that exists as written wins")
        #expect(value["a"]["b"][0] == 10)
    }

    @Test func codableRoundTripKeepsBigIntegers() throws {
        let data = json(#"{"id": 9223372036854775807, "x": 1.5, "s": "é", "n": null, "l": [true]}"#)
        let decoded = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(decoded["id"] == .int(Int64.max))
        #expect(try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(decoded)) == decoded)
    }

    @Test func textIsCompactAndStable() {
        let value: JSONValue = ["b": [1, 2.5, "x\n"], "a": nil]
        #expect(value.jsonText == #"{"a":null,"b":[1,2.5,"x\n"]}"#)
        #expect(JSONValue.string(String(repeating: "x", count: 100)).preview(limit: 10).count == 10)
    }

    @Test func keyPathsParseAndReject() throws {
        #expect(try JSONPath(parsing: "data.list[2].id").components == [.key("data"), .key("list"), .index(2), .key("id")])
        #expect(throws: JSONPathSyntaxError.self) { try JSONPath(parsing: "data..list") }
        #expect(throws: JSONPathSyntaxError.self) { try JSONPath(parsing: "list[x]") }
        #expect(JSONPath("data.list").description == "data.list")
    }

    @Test(arguments: ["a..b", ".a", "a.", "tags[x]", "a[-1]", "tags[0", "a[]", "."])
    func malformedKeyPathsThrow(_ text: String) {
        let error = #expect(throws: JSONPathSyntaxError.self) { try JSONPath(parsing: text) }
        #expect(error?.path == text)
        #expect(JSONPath(stringLiteral: text).components == [.key(text)])
    }

    @Test func keyPathEdgesParse() throws {
        #expect(try JSONPath(parsing: "").components == [])
        #expect(try JSONPath(parsing: "[0]").components == [.index(0)])
        #expect(try JSONPath(parsing: "a[1][2]").components == [.key("a"), .index(1), .index(2)])
        #expect(try JSONPath(parsing: "a.[0]").components == [.key("a"), .index(0)])
        #expect(try JSONPath(parsing: "a]").components == [.key("a]")])
    }

    /// One number-to-text rule for JSON, coerced strings, envelope codes and sample reports.
    @Test func numbersBecomeTextOneWay() {
        #expect(JSONValue.numberText(3.0) == "3")
        #expect(JSONValue.numberText(-0.0) == "0")
        #expect(JSONValue.numberText(3.5) == "3.5")
        #expect(JSONValue.numberText(1e15) == "1000000000000000.0")
        #expect(JSONValue.numberText(1e16) == "1e+16")
        #expect(JSONValue.numberText(.infinity) == "null")
        #expect(JSONValue.double(200).jsonText == JSONValue.numberText(200))
        #expect(String.coerce(from: .double(1e20), truncating: false) == JSONValue.numberText(1e20))
    }
}

import Foundation
import KilnModel
import Testing

/// `JSONDocument.rawJSON(at:)` gives a value's bytes exactly as they appear in the document.
struct RawJSONTests {
    func raw(_ text: String, at path: JSONPath) throws -> String? {
        try JSONDocument(parsing: text).rawJSON(at: path).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test(arguments: [
        // (document, path, expected bytes)
        (#"{"code":"0","data":{"a":1}}"#, "data", #"{"a":1}"#),
        (#"{ "data" :  [ 1 , 2 ]  , "code": 0 }"#, "data", "[ 1 , 2 ]"),
        (#"{"data":[{"a":[1,{"b":[]}]},{"c":{}}],"x":1}"#, "data", #"[{"a":[1,{"b":[]}]},{"c":{}}]"#),
        (#"{"data":[{"a":[1,{"b":[]}]},{"c":{}}],"x":1}"#, "data[0]", #"{"a":[1,{"b":[]}]}"#),
        (#"{"data":[{"a":[1,{"b":[]}]},{"c":{}}],"x":1}"#, "data[1].c", "{}"),
        (#"{"data":[{"a":[1,{"b":[]}]},{"c":{}}],"x":1}"#, "data[0].a[1].b", "[]"),
        (#"{"data":[[],[ ],{},[[]]],"x":1}"#, "data[1]", "[ ]"),
        (#"{"data":[[],[ ],{},[[]]],"x":1}"#, "data[3]", "[[]]"),
        (#"{"data":[[],[ ],{},[[]]]}"#, "data", "[[],[ ],{},[[]]]"),
        (#"{"data":"a \"quoted\" \u00e9 string","n":-12.5e+3}"#, "data", #""a \"quoted\" \u00e9 string""#),
        (#"{"data":"x","n":-12.5e+3}"#, "n", "-12.5e+3"),
        (#"{"data":null,"t":true,"f":false}"#, "f", "false"),
        (#"{"data":{"list":[{"id":1}]}}"#, "data.list", #"[{"id":1}]"#),
        ("  \n[1, {\"a\": \"b\"}]\n ", "", #"[1, {"a": "b"}]"#),
        (#"{"价格":{"元":[1]}}"#, "价格", #"{"元":[1]}"#),
    ])
    func valuesKeepTheirBytes(document: String, path: String, expected: String) throws {
        let jsonPath = path.isEmpty ? JSONPath([]) : try JSONPath(parsing: path)
        #expect(try raw(document, at: jsonPath) == expected)
    }

    @Test func pathsThatLeadNowhereGiveNil() throws {
        #expect(try raw(#"{"data":[1]}"#, at: "data[3]") == nil)
        #expect(try raw(#"{"data":[1]}"#, at: "missing") == nil)
        #expect(try raw(#"{"data":1}"#, at: "data.x") == nil)
    }

    /// Every value of a realistic document: its bytes read again give the same value.
    @Test func everyMemberOfARealDocumentRoundTrips() throws {
        let text = #"""
            {"code": "0000", "msg": "ok", "data": {"list": [
              {"id": 1, "title": "Hello", "tags": ["a", "b"], "author": {"name": "Kai", "links": {}}},
              {"id": "2", "title": null, "tags": [], "author": {"name": "Li", "links": {"home": "https://x"}}}
            ], "hasMore": false, "page": {"next": [ ]}}}
            """#
        let document = try JSONDocument(parsing: text)
        var checked = 0
        func walk(_ value: JSONValue, _ path: [JSONPath.Component]) throws {
            let bytes = try #require(document.rawJSON(at: JSONPath(path)))
            #expect(try JSONDocument(parsing: bytes).value == value, "\(JSONPath(path))")
            checked += 1
            switch value {
            case .object(let members): for (key, member) in members { try walk(member, path + [.key(key)]) }
            case .array(let items): for (index, item) in items.enumerated() { try walk(item, path + [.index(index)]) }
            default: break
            }
        }
        try walk(document.value, [])
        #expect(checked == 25)
    }
}

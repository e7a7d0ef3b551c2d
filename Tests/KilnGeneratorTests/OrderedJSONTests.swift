import KilnGenerator
import KilnModel
import Testing

@Suite struct OrderedJSONTests {
    @Test func membersKeepDocumentOrder() throws {
        let tree = try OrderedJSON(parsing: #"{"z": 1, "a": {"y": [], "b": null}, "m": "x"}"#)
        #expect(tree.members?.map(\.key) == ["z", "a", "m"])
        #expect(tree.members?[1].value.members?.map(\.key) == ["y", "b"])
    }

    @Test func numbersStayIntegersWhenTheyFit() throws {
        let tree = try OrderedJSON(parsing: "[0, -7, 9223372036854775807, 9223372036854775808, 1.5, 2e3, -0.0]")
        #expect(tree == .array([.int(0), .int(-7), .int(Int64.max), .double(9_223_372_036_854_775_808), .double(1.5), .double(2000), .double(-0.0)]))
    }

    @Test func stringsDecodeEscapesAndSurrogatePairs() throws {
        let tree = try OrderedJSON(parsing: #"["a\"b\\c\/d\n\t", "\u00e9\ud83d\ude00", "价格"]"#)
        #expect(tree == .array([.string("a\"b\\c/d\n\t"), .string("é😀"), .string("价格")]))
    }

    @Test func convertsToJSONValue() throws {
        let tree = try OrderedJSON(parsing: #"{"a": [1, 2.5, true, null, "s"], "b": {}}"#)
        #expect(tree.jsonValue == ["a": [1, 2.5, true, nil, "s"], "b": [:]])
    }

    @Test func byteOrderMarkIsSkipped() throws {
        #expect(try OrderedJSON(parsing: [0xEF, 0xBB, 0xBF] + Array("{}".utf8)) == .object([]))
    }

    @Test(arguments: [
        (#"{"a": 1,}"#, 1, 9, "expected a string key, found '}'"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "expected ',' or '}' after an object member, found '\"'"),
        ("[1, 2", 1, 6, "expected ',' or ']' after an array element, found end of input"),
        (#"{"a": tru}"#, 1, 7, "unexpected 't', expected a value"),
        (#"["abc"#, 1, 2, "unterminated string"),
        ("01", 1, 1, "a number cannot start with 0"),
        (#"{"价格": x}"#, 1, 8, "unexpected 'x', expected a value"),
        ("{} []", 1, 4, "unexpected '[' after the top-level value"),
        ("   ", 1, 4, "empty input"),
    ])
    func errorsSayWhere(text: String, line: Int, column: Int, message: String) {
        #expect(throws: JSONSyntaxError(message: message, line: line, column: column)) {
            try OrderedJSON(parsing: text)
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = String(repeating: "[", count: 100_000)
        #expect(throws: JSONSyntaxError.self) { try OrderedJSON(parsing: text) }
    }
}

import KilnModel
import Testing

/// A document's root walked as written (the `package` view `kiln generate` reads samples with).
@Suite struct JSONDocumentTraversalTests {
    private func members(_ node: JSONDocument.Node) -> [JSONDocument.Node.Member] {
        if case .object(let members) = node.content { return members }
        Issue.record("not an object: \(node.value)")
        return []
    }

    private func elements(_ node: JSONDocument.Node) -> [JSONDocument.Node] {
        if case .array(let elements) = node.content { return elements }
        Issue.record("not an array: \(node.value)")
        return []
    }

    /// A scalar's content as text, so kinds can be compared: `int 1`, `double 1.0`.
    private func scalar(_ node: JSONDocument.Node) -> String {
        switch node.content {
        case .scalar(.null): "null"
        case .scalar(.bool(let value)): "bool \(value)"
        case .scalar(.int(let value)): "int \(value)"
        case .scalar(.double(let value)): "double \(value)"
        case .scalar(.string(let value)): "string \(value)"
        case .scalar(.array), .scalar(.object): "scalar container?"
        case .array, .object: "container"
        }
    }

    @Test func membersKeepDocumentOrderAndRepeatedKeys() throws {
        let document = try JSONDocument(parsing: #"{"z": 1, "a": {"y": [], "b": null}, "m": "x", "z": 2}"#)
        let root = members(document.root)
        #expect(root.map(\.key) == ["z", "a", "m", "z"])
        #expect(members(root[1].value).map(\.key) == ["y", "b"])
        #expect(root.map { scalar($0.value) } == ["int 1", "container", "string x", "int 2"])
        // The unordered value keeps the last of repeated keys, as decoding does.
        #expect(document.root.value["z"] == 2)
    }

    @Test func numbersStayIntegersWhenTheyFit() throws {
        let document = try JSONDocument(parsing: "[0, -7, 9223372036854775807, 9223372036854775808, 1.5, 2e3, -0.0, -0]")
        #expect(
            elements(document.root).map(scalar) == [
                "int 0", "int -7", "int 9223372036854775807", "double 9.223372036854776e+18", "double 1.5", "double 2000.0", "double -0.0", "int 0",
            ])
    }

    @Test func stringsAndKeysAreUnescaped() throws {
        let document = try JSONDocument(parsing: #"{"k\u00e9y": ["a\"b\\c\/d\n\t", "\u00e9\ud83d\ude00", "价格", true, null]}"#)
        let root = members(document.root)
        #expect(root.map(\.key) == ["kéy"])
        #expect(elements(root[0].value).map(scalar) == ["string a\"b\\c/d\n\t", "string é😀", "string 价格", "bool true", "null"])
    }

    @Test func emptyContainersHaveNoChildren() throws {
        let document = try JSONDocument(parsing: #"[{}, [], {"a": []}]"#)
        let items = elements(document.root)
        #expect(members(items[0]).isEmpty && elements(items[1]).isEmpty)
        #expect(elements(members(items[2])[0].value).isEmpty)
    }
}

extension JSONDocument {
    /// The document's root value, to walk the document as it was written: object members in
    /// document order with repeated keys kept — what a ``JSONValue`` object forgets. Scalars are
    /// ``JSONValue``s, so integers stay apart from other numbers. For tools in this package, such
    /// as `kiln generate`.
    ///
    /// ```swift
    /// let document = try JSONDocument(parsing: #"{"b": 1, "a": [true]}"#)
    /// if case .object(let members) = document.root.content {
    ///     members.map(\.key)   // ["b", "a"]
    /// }
    /// ```
    package var root: Node { Node(tape: tape, index: 0) }

    /// The value a key path leads to, `null` included, by the walk every look-up by path takes
    /// (`JSONTape.locate`); `nil` when it leads nowhere. The empty path is the root.
    package func node(at path: JSONPath) -> Node? {
        tape.index(at: path.components, from: 0).map { Node(tape: tape, index: $0) }
    }

    /// One value of a document, read in place: nothing is copied until a string or a child list
    /// is asked for.
    package struct Node: Sendable {
        let tape: JSONTape
        let index: Int

        /// One member of an object.
        package struct Member: Sendable {
            /// The member's key, unescaped.
            package var key: String
            /// The member's value.
            package var value: Node
        }

        /// What a value is, with its scalar or its children.
        package enum Content {
            /// `null`, a boolean, a number or a string, never an array or an object: `.int` for a
            /// number written without fraction or exponent that fits in `Int64`, `.double` for
            /// any other.
            case scalar(JSONValue)
            /// An array's elements, in order.
            case array([Node])
            /// An object's members in document order, repeated keys kept as written.
            case object([Member])
        }

        /// The value's kind and contents.
        package var content: Content {
            let token = tape.tokens[index]
            switch token.kind {
            case .null, .false, .true, .int, .uint, .double, .string, .escapedString:
                return .scalar(tape.jsonValue(at: index))
            case .array:
                var elements: [Node] = []
                elements.reserveCapacity(Int(token.aux))
                var i = index + 1
                while i < Int(token.payload) {
                    elements.append(Node(tape: tape, index: i))
                    i = tape.next(after: i)
                }
                return .array(elements)
            case .object:
                var members: [Member] = []
                members.reserveCapacity(Int(token.aux))
                var i = index + 1
                while i < Int(token.payload) {
                    members.append(Member(key: tape.string(at: i), value: Node(tape: tape, index: i + 1)))
                    i = tape.next(after: i + 1)
                }
                return .object(members)
            }
        }

        /// The value as an unordered ``JSONValue`` (for a repeated key, the last one wins).
        package var value: JSONValue { tape.jsonValue(at: index) }
    }
}

/// Where a key path leads in a parsed document: a value, a `null`, or nowhere.
///
/// Every look-up by path over Kiln's reader takes the one walk that makes it,
/// `JSONTape.locate(_:from:member:)`: `JSONDocument.value(at:)` and `rawJSON(at:)`,
/// `@DataModel`'s key paths in `KilnDecoder`'s fast path, the `at:` of a `KilnDecoder` decode,
/// and `Envelope`'s code and message.
/// What a caller makes of `null` is its own (a model falls back, a decode `at:` reports the path
/// as not found); where a path leads is not.
@usableFromInline
enum JSONLocation: Equatable {
    /// The path ends at a value that is not `null`: its token.
    case value(Int)
    /// The path ends at `null`: its token.
    case null(Int)
    /// The path leads nowhere: step number `step` (from 0) could not be taken from the value at
    /// token `from` (a missing key, an index past the end, or a value of the wrong kind).
    case absent(step: Int, from: Int)
}

extension JSONTape {
    /// Walks `components` from the value at `start`, by the one rule every caller shares:
    ///
    /// - a key steps into a member of an object; from an array, a scalar or `null` it leads nowhere
    ///   (`list.0` is the key `"0"`, not an index: write `list[0]`);
    /// - an index steps into an element of an array that has that many; from anything else, or
    ///   past the end, it leads nowhere;
    /// - a `null` before the last step leads nowhere: nothing is inside it;
    /// - a path that ends at `null` is ``JSONLocation/null(_:)``, apart from absence; the empty
    ///   path is `start` itself.
    ///
    /// `member` finds the value token of a key in an object (decoders pass their look-up with its
    /// hint); inlined and specialized for it, so the walk costs what a hand-written loop costs.
    @inlinable
    func locate(_ components: [JSONPath.Component], from start: Int, member: (_ object: Int, _ key: String) -> Int?) -> JSONLocation {
        var current = start
        var step = 0
        for component in components {
            let token = tokens[current]
            switch component {
            case .key(let key):
                guard token.kind == .object, let found = member(current, key) else { return .absent(step: step, from: current) }
                current = found
            case .index(let position):
                guard token.kind == .array, position >= 0, position < Int(token.aux) else { return .absent(step: step, from: current) }
                var element = current + 1
                for _ in 0..<position { element = next(after: element) }
                current = element
            }
            step += 1
        }
        return tokens[current].kind == .null ? .null(current) : .value(current)
    }

    /// Walks `components` from the value at `start`, finding keys by a plain scan of each object.
    @usableFromInline
    func locate(_ components: [JSONPath.Component], from start: Int) -> JSONLocation {
        locate(components, from: start) { object, key in
            var key = key
            return key.withUTF8 { member(of: object, key: UnsafeRawBufferPointer($0)) }
        }
    }

    /// The token a path ends at, `null` included; `nil` when it leads nowhere.
    @usableFromInline
    func index(at components: [JSONPath.Component], from start: Int) -> Int? {
        switch locate(components, from: start) {
        case .value(let index), .null(let index): index
        case .absent: nil
        }
    }
}

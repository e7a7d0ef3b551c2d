import Foundation

/// Where each value of a document sits in its bytes: what lets a part of a response (an
/// envelope's `data`) be kept exactly as it arrived, without writing it out again.
///
/// The tape records where scalars and strings start; containers record only where they end on
/// the tape. A container's first byte is found from the token before it, and its last from its
/// last descendant, so finding a range costs a walk over one container's direct children per
/// level, never a scan of the bytes inside.
extension JSONTape {
    /// The bytes of the value at `index`: from its first byte to just after its last.
    func byteRange(of index: Int) -> Range<Int> {
        let start = startOffset(of: index)
        return start..<endOffset(of: index, start: start)
    }

    /// The offset of the first byte of the value at `index`.
    func startOffset(of index: Int) -> Int {
        // Walk back to a token whose position the tape records (a scalar, a string, or the root),
        // then forward again over the containers in between, each starting after the token before.
        var containers: [Int] = []
        var i = index
        var position: Int
        while true {
            if let known = recordedStart(of: i) {
                position = known
                break
            }
            if i == 0 {
                position = skipWhitespace(from: 0)
                break
            }
            containers.append(i)
            i -= 1
        }
        for container in containers.reversed() {
            let previous = container - 1
            let token = tokens[previous]
            if isContainer(token), Int(token.payload) > container {
                // The first element of the array that opens at `position`.
                position = skipWhitespace(from: position + 1)
            } else {
                // After a key, a scalar or an empty container come `:` or closing brackets and `,`.
                position = skipSeparators(from: endOffset(of: previous, start: position))
            }
        }
        return position
    }

    /// The offset just after the value at `index`, which starts at `start`.
    func endOffset(of index: Int, start: Int) -> Int {
        let token = tokens[index]
        guard isContainer(token) else { return scalarEnd(of: index, start: start) }
        guard Int(token.payload) > index + 1 else { return closingBracket(after: start + 1) + 1 }
        // Follow the last member down to a value whose end is known, counting the containers
        // that close after it.
        var levels = 0
        var container = index
        var last = index
        while true {
            levels += 1
            last = lastChild(of: container)
            let child = tokens[last]
            guard isContainer(child), Int(child.payload) > last + 1 else { break }
            container = last
        }
        var position = endOffset(ofLeaf: last)
        for _ in 0..<levels { position = closingBracket(after: position) + 1 }
        return position
    }

    // MARK: Helpers

    /// Where the tape itself records the value's first byte.
    private func recordedStart(of index: Int) -> Int? {
        let token = tokens[index]
        switch token.kind {
        case .null, .false, .true, .int, .uint, .double: return Int(token.aux)
        case .string, .escapedString: return Int(token.payload) - 1
        case .object, .array: return nil
        }
    }

    private func isContainer(_ token: JSONToken) -> Bool {
        token.kind == .object || token.kind == .array
    }

    /// The value token of the last member or element of the non-empty container at `index`.
    private func lastChild(of index: Int) -> Int {
        let token = tokens[index]
        let end = Int(token.payload)
        let isObject = token.kind == .object
        var i = index + 1
        var last = isObject ? i + 1 : i
        while i < end {
            last = isObject ? i + 1 : i
            i = next(after: last)
        }
        return last
    }

    /// The end of a scalar, a string or an empty container: values with nothing nested inside.
    private func endOffset(ofLeaf index: Int) -> Int {
        if isContainer(tokens[index]) { return closingBracket(after: startOffset(of: index) + 1) + 1 }
        return scalarEnd(of: index, start: recordedStart(of: index) ?? 0)
    }

    private func scalarEnd(of index: Int, start: Int) -> Int {
        let token = tokens[index]
        switch token.kind {
        case .null, .true: return start + 4
        case .false: return start + 5
        case .string, .escapedString: return Int(token.payload) + Int(token.aux) + 1
        case .int, .uint, .double: return start + numberBytes(at: index).count
        case .object, .array: return start
        }
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09
    }

    private func skipWhitespace(from offset: Int) -> Int {
        var i = offset
        while i < byteCount, Self.isWhitespace(base[i]) { i += 1 }
        return i
    }

    /// Skips whitespace, `:`, `,` and closing brackets: what may lie between the end of one token
    /// and the start of the next.
    private func skipSeparators(from offset: Int) -> Int {
        var i = offset
        while i < byteCount {
            let byte = base[i]
            guard
                Self.isWhitespace(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ",")
                    || byte == UInt8(ascii: "]") || byte == UInt8(ascii: "}")
            else { break }
            i += 1
        }
        return i
    }

    /// The offset of the next closing bracket at or after `offset`, past whitespace only.
    private func closingBracket(after offset: Int) -> Int {
        min(skipWhitespace(from: offset), byteCount - 1)
    }
}

extension JSONDocument {
    /// The bytes of the value at `path`, exactly as they appear in the document (whitespace and
    /// escapes included), or `nil` when the path leads nowhere.
    ///
    /// ```swift
    /// let document = try JSONDocument(parsing: body)
    /// let payload = document.rawJSON(at: "data")   // the bytes of `data`, not written out again
    /// ```
    public func rawJSON(at path: JSONPath) -> Data? {
        guard let index = tape.index(at: path.components, from: 0) else { return nil }
        let range = tape.byteRange(of: index)
        return Data(bytes: tape.base + range.lowerBound, count: range.count)
    }

    /// The whole document's bytes, as read.
    public var rawJSON: Data {
        Data(bytes: tape.base, count: tape.byteCount)
    }
}

/// The one grammar of key-path text, `data.list[0].name`: keys separated by dots, indices from 0
/// in brackets.
///
/// `JSONPath(parsing:)` reads paths with it at run time and `@DataModel` reads `@Key("…")` with it
/// at compile time, so a path the macro accepts is a path the library accepts.
///
/// ```swift
/// try KeyPathGrammar.segments(of: "data.list[0].name")
/// // [.key("data"), .key("list"), .index(0), .key("name")]
/// ```
package enum KeyPathGrammar {
    /// Whether `text` is one key, with no `.` or `[` to read as a path; such text needs no parsing.
    package static func isSingleKey(_ text: String) -> Bool {
        !text.utf8.contains { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "[") }
    }

    /// The steps `text` names, outermost first; none for the empty text.
    ///
    /// Throws for an empty key (`a..b`, `.a`, `a.`), a bracket that holds no index (`tags[x]`,
    /// `a[-1]`) and a bracket never closed (`tags[0`).
    package static func segments(of text: String) throws(KeyPathSyntaxError) -> [KeyPathSegment] {
        var segments: [KeyPathSegment] = []
        var current = ""
        var chars = text.makeIterator()
        // A key must come next: at the start and after a dot.
        var expectsKey = true
        func fail(_ problem: KeyPathSyntaxError.Problem) -> KeyPathSyntaxError {
            KeyPathSyntaxError(path: text, problem: problem, key: current.isEmpty ? lastKey(segments) : current)
        }
        while let c = chars.next() {
            switch c {
            case ".":
                if !current.isEmpty {
                    segments.append(.key(current))
                    current = ""
                } else if expectsKey {
                    throw fail(.emptyKey)
                }
                expectsKey = true
            case "[":
                var inside = ""
                var closed = false
                while let d = chars.next() {
                    if d == "]" {
                        closed = true
                        break
                    }
                    inside.append(d)
                }
                guard closed else { throw fail(.unclosedBracket) }
                guard let index = Int(inside) else { throw fail(.notAnIndex(inside)) }
                guard index >= 0 else { throw fail(.negativeIndex(index)) }
                if !current.isEmpty {
                    segments.append(.key(current))
                    current = ""
                }
                segments.append(.index(index))
                expectsKey = false
            default:
                current.append(c)
                expectsKey = false
            }
        }
        if !current.isEmpty {
            segments.append(.key(current))
        } else if expectsKey && !text.isEmpty {
            throw fail(.emptyKey)
        }
        return segments
    }

    private static func lastKey(_ segments: [KeyPathSegment]) -> String? {
        for case .key(let key) in segments.reversed() { return key }
        return nil
    }
}

/// Why a key path's text cannot be read; its description says what to write instead.
package struct KeyPathSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What is wrong with the text.
    package enum Problem: Hashable, Sendable {
        /// Two dots in a row, or a dot at the start or the end: `a..b`, `.a`, `a.`.
        case emptyKey
        /// A bracket whose content is not a number: `tags[x]` holds `x`.
        case notAnIndex(String)
        /// A bracket holding a number below 0: `a[-1]`.
        case negativeIndex(Int)
        /// A `[` with no `]` after it: `tags[0`.
        case unclosedBracket
    }

    /// The whole text that could not be read.
    package var path: String
    /// What is wrong with it.
    package var problem: Problem
    /// The key nearest before the problem, to show a corrected example (`tags` in `tags[x]`).
    package var key: String?

    package var description: String {
        let example = (key ?? "items") + "[0]"
        switch problem {
        case .emptyKey:
            return "'\(path)' has an empty key: write keys separated by single dots, such as author.name"
        case .notAnIndex(let text):
            return "'\(text)' is not an index: write \(example)"
        case .negativeIndex(let index):
            return "'\(index)' is not an index: indices count from 0, write \(example)"
        case .unclosedBracket:
            return "'\(path)' opens a '[' it never closes: write \(example)"
        }
    }
}

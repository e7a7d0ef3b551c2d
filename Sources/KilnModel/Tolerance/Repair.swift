import Foundation

/// One thing the tolerant decoder fixed: a value that was defaulted, coerced, dropped or replaced.
///
/// Its description reads like a line a backend team can act on:
///
/// ```text
/// data[3].author.followers: expected Int, found "12k" → 0
/// ```
///
/// ``KilnDecoder`` records repairs as compact values (where in the document, which token, which
/// type) and makes a repair's text when one of its fields is read, so keeping the log costs a
/// decode little. Until then such a repair holds on to the decoded document; to keep a log for
/// long (past the response it came from), keep the text: `repairs.map(\.description)`.
public struct Repair: Sendable, Hashable, CustomStringConvertible {
    /// What was done.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        /// The key was absent; the default was used.
        case missing
        /// The value was `null`; the default was used.
        case null
        /// The value had another JSON kind and was converted (`"42"` → `42`).
        case coerced
        /// The value could not be used; the default was used.
        case invalid
        /// A collection element could not be used and was left out.
        case dropped
        /// An enum raw value was unknown; the type's fallback case was used.
        case fallback
        /// A polymorphic list element named a type nobody registered; it was skipped.
        case unknownType
    }

    /// Where, as a coding path: `data[3].author.followers`.
    public var path: String {
        get {
            switch storage {
            case .text(let text): text.path
            case .pending(let log, let index): log.records.pathText(of: index)
            }
        }
        set { storage = .text(Text(path: newValue, expected: expected, found: found, result: result)) }
    }
    /// What was done.
    public var kind: Kind
    /// The type the model expected, e.g. `Int`.
    public var expected: String {
        get {
            switch storage {
            case .text(let text): return text.expected
            case .pending(let log, let index):
                let type = log.records[index].expected
                return Repair.typeName(type)
            }
        }
        set { storage = .text(Text(path: path, expected: newValue, found: found, result: result)) }
    }
    /// What the server sent, as short JSON (`"12k"`), or `missing`.
    public var found: String {
        get {
            switch storage {
            case .text(let text): text.found
            case .pending(let log, let index): log.records.foundText(of: index)
            }
        }
        set { storage = .text(Text(path: path, expected: expected, found: newValue, result: result)) }
    }
    /// What the model holds now, e.g. `0`, or `dropped`.
    public var result: String {
        get {
            switch storage {
            case .text(let text): text.result
            case .pending(let log, let index): log.records.resultText(of: index)
            }
        }
        set { storage = .text(Text(path: path, expected: expected, found: found, result: newValue)) }
    }

    /// The four texts, or what they are made from. Kiln's reader records repairs as compact
    /// values (where in the document, a token, a type) and the text is made when it is read:
    /// most logs are counted or skimmed, not read line by line. Such a repair keeps the decoded
    /// document alive while it exists; store `description` to keep a log for long.
    private var storage: Storage

    /// A class, so that a repair is a tag and one reference whichever way it was made.
    private final class Text: Sendable {
        let path: String
        let expected: String
        let found: String
        let result: String

        init(path: String, expected: String, found: String, result: String) {
            self.path = path
            self.expected = expected
            self.found = found
            self.result = result
        }
    }

    /// Immutable values only: the text, or a pending repair in a snapshot of its log.
    private enum Storage: Sendable {
        case text(Text)
        case pending(PendingRepairs, Int)
    }

    /// Makes a repair entry.
    public init(path: String, kind: Kind, expected: String, found: String, result: String) {
        self.kind = kind
        self.storage = .text(Text(path: path, expected: expected, found: found, result: result))
    }

    /// The repair at `index` of `log`, whose text is made when read.
    init(_ log: PendingRepairs, _ index: Int) {
        self.init(log, index, kind: log.records[index].kind)
    }

    /// The repair at `index` of `log`, of `kind` (its kind there).
    init(_ log: PendingRepairs, _ index: Int, kind: Kind) {
        self.kind = kind
        self.storage = .pending(log, index)
    }

    /// The bytes of the documents this repair's log keeps to make its texts: a log made from
    /// bytes read in place keeps only excerpts of them.
    var keptDocumentBytes: Int {
        guard case .pending(let log, _) = storage else { return 0 }
        return log.records.tapes.reduce(0) { $0 + $1.byteCount }
    }

    public static func == (lhs: Repair, rhs: Repair) -> Bool {
        lhs.kind == rhs.kind && lhs.path == rhs.path && lhs.expected == rhs.expected && lhs.found == rhs.found
            && lhs.result == rhs.result
    }

    /// Hashes the path and the kind: what tells most repairs apart, and cheap to hash.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(path)
        hasher.combine(kind)
    }

    public var description: String {
        "\(path.isEmpty ? "<root>" : path): expected \(expected), found \(found) → \(result)"
    }
}

extension Repair {
    /// Shows a value the model ended up with: strings quoted, others as Swift prints them.
    @usableFromInline
    static func show<T>(_ value: T) -> String {
        switch value {
        case let s as String: return JSONValue.string(s).preview()
        case let v as JSONValue: return v.preview()
        default:
            let text = String(describing: value)
            return text.count > 40 ? String(text.prefix(39)) + "…" : text
        }
    }

    /// The short name of a type, as written in Swift: `Int`, `[String]`, `Author?`.
    static func typeName<T>(_ type: T.Type) -> String {
        sugared(String(describing: type))
    }

    /// `Optional<Array<Int>>` → `[Int]?`, `Dictionary<String, Int>` → `[String: Int]`, at any depth.
    static func sugared(_ name: String) -> String {
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return name }
        let base = name[..<open]
        let inner = name[name.index(after: open)..<name.index(before: name.endIndex)]
        // The generic arguments, split at the commas outside nested brackets.
        var arguments: [String] = []
        var depth = 0
        var start = inner.startIndex
        for index in inner.indices {
            switch inner[index] {
            case "<", "[", "(": depth += 1
            case ">", "]", ")": depth -= 1
            case "," where depth == 0:
                arguments.append(sugared(String(inner[start..<index].trimmingHorizontalWhitespace)))
                start = inner.index(after: index)
            default: break
            }
        }
        arguments.append(sugared(String(inner[start...].trimmingHorizontalWhitespace)))
        switch (base, arguments.count) {
        case ("Optional", 1): return arguments[0] + "?"
        case ("Array", 1): return "[" + arguments[0] + "]"
        case ("Dictionary", 2): return "[" + arguments[0] + ": " + arguments[1] + "]"
        default: return base + "<" + arguments.joined(separator: ", ") + ">"
        }
    }
}

extension Repair {
    /// This repair from a decode of the value at `path` alone, named by its path in the whole
    /// document (`list[3].id` under `data` → `data.list[3].id`): how a response's repairs read
    /// the same whether its `data` was decoded in place or from its own bytes.
    @_spi(KilnInternal) public func under(_ path: JSONPath) -> Repair {
        var copy = self
        copy.path = path.locating(self.path)
        return copy
    }
}

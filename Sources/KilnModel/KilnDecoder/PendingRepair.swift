/// A repair as Kiln's reader records it while decoding: compact values that point into the
/// document (the path as a node of the tape and a tail, what was found as a token), the expected
/// type and the result. ``Repair`` makes its text when a field is read.
///
/// A class, immutable: a ``Repair`` holding one is a tag and a reference, so the log copies and
/// destroys one reference per entry rather than every field.
@usableFromInline
final class PendingRepair {
    /// What the server sent: a token of the tape, or a word (`missing`, `null`).
    @usableFromInline
    enum Found: Hashable {
        case token(Int)
        case text(String)
    }

    /// The path below the object's node: usually one key, the property's.
    @usableFromInline
    enum Tail: Hashable {
        case key(String)
        case components([JSONPath.Component])
    }

    let kind: Repair.Kind
    /// The document the node and the token belong to.
    let tape: JSONTape
    /// The object the repair was made in (its token), and its path.
    let object: Int
    let node: KilnPathNode?
    let tail: Tail
    let expected: Any.Type
    let found: Found
    let result: RepairValue

    init(kind: Repair.Kind, tape: JSONTape, object: Int, node: KilnPathNode?, tail: Tail, expected: Any.Type, found: Found, result: RepairValue) {
        self.kind = kind
        self.tape = tape
        self.object = object
        self.node = node
        self.tail = tail
        self.expected = expected
        self.found = found
        self.result = result
    }

    /// ``Repair/path``: as ``CodingPathFormatter`` writes it.
    var pathText: String {
        var components = node?.components(in: tape) ?? []
        switch tail {
        case .key(let key): components.append(.key(key))
        case .components(let more): components += more
        }
        return CodingPathFormatter.format(components)
    }

    /// ``Repair/found``: short JSON, or the word.
    var foundText: String {
        switch found {
        case .token(let index): tape.jsonValue(at: index).preview()
        case .text(let text): text
        }
    }
}

/// Equal when they are the same repair: the same object, tail, kind and type of the same
/// document (the text would be the same), so that a repair met again when a value is read again
/// is logged once.
extension PendingRepair: Hashable {
    @usableFromInline
    static func == (lhs: PendingRepair, rhs: PendingRepair) -> Bool {
        lhs.object == rhs.object && lhs.kind == rhs.kind && lhs.tape === rhs.tape && lhs.expected == rhs.expected
            && lhs.tail == rhs.tail
    }

    /// Hashes the integers only: repairs of one object with the same kind and type are rare,
    /// and `==` still compares every field.
    @usableFromInline
    func hash(into hasher: inout Hasher) {
        hasher.combine(object)
        hasher.combine(kind)
        hasher.combine(ObjectIdentifier(expected))
    }
}

/// A value a model ended up with, kept as it is until a repair's text shows it.
@usableFromInline
enum RepairValue: Sendable {
    case int(Int)
    case bool(Bool)
    case double(Double)
    case string(String)
    /// A list of strings (tags, names): common, and costly to show eagerly.
    case strings([String])
    /// Text already made, for every other type.
    case shown(String)

    /// The value, without boxing the common scalars; the checks fold away once specialized.
    @inlinable @inline(__always)
    static func of<T>(_ value: T) -> RepairValue {
        if T.self == Int.self { return .int(unsafeBitCast(value, to: Int.self)) }
        // Identifiers are often `Int64`: kept as `Int` where it fits (every 64-bit platform).
        if T.self == Int64.self, let narrow = Int(exactly: unsafeBitCast(value, to: Int64.self)) { return .int(narrow) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Double.self { return .double(unsafeBitCast(value, to: Double.self)) }
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == [String].self { return .strings(unsafeBitCast(value, to: [String].self)) }
        return .shown(Repair.show(value))
    }

    /// The text ``Repair/result`` holds, as `Repair.show` writes it.
    var text: String {
        switch self {
        case .int(let value): Repair.show(value)
        case .bool(let value): Repair.show(value)
        case .double(let value): Repair.show(value)
        case .string(let value): Repair.show(value)
        case .strings(let value): Repair.show(value)
        case .shown(let text): text
        }
    }
}

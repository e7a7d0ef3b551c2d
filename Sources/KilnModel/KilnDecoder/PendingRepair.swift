/// A repair as Kiln's reader records it while decoding: compact values that point into the
/// document (the path as a node of the tape and a tail, what was found as a token), the expected
/// type and the result. ``Repair`` makes its text when a field is read.
///
/// A value, stored inline in the session's log (no allocation per repair); a ``Repair`` refers to
/// it through an immutable snapshot of that log (``PendingRepairs``).
@usableFromInline
struct PendingRepair {
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
    /// The document the node and the token belong to: its place in the log's list of
    /// documents (``PendingRepairChunks/tapes``), so that a repair holds no reference to it.
    let document: Int
    /// The object the repair was made in (its token), and its path.
    let object: Int
    let node: KilnPathNode?
    let tail: Tail
    let expected: Any.Type
    let found: Found
    let result: RepairValue

    init(kind: Repair.Kind, document: Int, object: Int, node: KilnPathNode?, tail: Tail, expected: Any.Type, found: Found, result: RepairValue) {
        self.kind = kind
        self.document = document
        self.object = object
        self.node = node
        self.tail = tail
        self.expected = expected
        self.found = found
        self.result = result
    }

    /// ``Repair/path``: as ``CodingPathFormatter`` writes it. `tape` is the repair's document.
    func pathText(in tape: JSONTape) -> String {
        var components = node?.components(in: tape) ?? []
        switch tail {
        case .key(let key): components.append(.key(key))
        case .components(let more): components += more
        }
        return CodingPathFormatter.format(components)
    }

    /// ``Repair/found``: short JSON, or the word. `tape` is the repair's document.
    func foundText(in tape: JSONTape) -> String {
        switch found {
        case .token(let index): tape.decodedValue(at: index).preview()
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
        lhs.object == rhs.object && lhs.kind == rhs.kind && lhs.document == rhs.document && lhs.expected == rhs.expected
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

/// Pending repairs in order, stored in chunks of a fixed capacity: appending never moves the
/// ones before, and no chunk is large enough for the allocator to map fresh pages for it (a
/// single growing array of thousands of repairs cost more in copies and page faults than the
/// repairs themselves).
struct PendingRepairChunks {
    private var chunks: [ContiguousArray<PendingRepair>] = []
    private(set) var count = 0
    private static let chunkCapacity = 1024
    /// The documents the repairs were made in (``PendingRepair/document`` is a place here):
    /// one, unless a session served several decodes.
    private(set) var tapes: [JSONTape] = []

    init() {}

    /// A log of one repair of `tape` (its ``PendingRepair/document`` becomes this log's first).
    init(_ repair: PendingRepair, in tape: JSONTape) {
        tapes = [tape]
        append(
            PendingRepair(
                kind: repair.kind, document: 0, object: repair.object, node: repair.node, tail: repair.tail, expected: repair.expected,
                found: repair.found, result: repair.result))
    }

    /// The place of `tape` in ``tapes``, added if new.
    mutating func document(_ tape: JSONTape) -> Int {
        if let last = tapes.last, last === tape { return tapes.count - 1 }
        if let known = tapes.firstIndex(where: { $0 === tape }) { return known }
        tapes.append(tape)
        return tapes.count - 1
    }

    mutating func append(_ repair: consuming PendingRepair) {
        if count % Self.chunkCapacity == 0 {
            var chunk = ContiguousArray<PendingRepair>()
            chunk.reserveCapacity(Self.chunkCapacity)
            chunks.append(chunk)
        }
        chunks[chunks.count - 1].append(repair)
        count += 1
    }

    subscript(index: Int) -> PendingRepair {
        _read { yield chunks[index / Self.chunkCapacity][index % Self.chunkCapacity] }
    }
}

/// The reader's repairs of a log as they were when its ``Repair`` values were made: immutable,
/// shared by those values (each one a reference and an index), so that a log of thousands of
/// repairs costs one allocation, not one per repair.
final class PendingRepairs: @unchecked Sendable {
    // @unchecked: immutable; a pending repair's document, path nodes and types are never mutated.
    let records: PendingRepairChunks

    init(_ records: PendingRepairChunks) {
        self.records = records
    }

    /// The document of the repair at `index`.
    func tape(of index: Int) -> JSONTape {
        records.tapes[records[index].document]
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

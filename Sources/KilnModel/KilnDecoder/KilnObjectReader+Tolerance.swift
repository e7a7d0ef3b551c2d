/// The tolerant half of ``KilnObjectReader``: coercion, defaults and the repair log, applied
/// natively for the common cases (scalars, no custom defaults) and by ``ModelDecodingContainer``
/// for the rest, with the same results and the same repair entries either way.
extension KilnObjectReader {
    /// What one present, non-null value gave after the strict read failed.
    @usableFromInline
    enum Salvage<T> {
        case value(T)
        case failed
        case delegate
    }

    /// A non-optional property read from plain keys whose first present key did not hold a `T`:
    /// specialized for `T`, since a coercion on every object (`"is_top": 1`) is common. It follows a
    /// fast read that failed and left the look-up hint where it was, so the keys are found again
    /// at the hint. `nil` when ``ModelDecodingContainer`` must decide (``slow()``): the caller
    /// asks it, so that no closure carries the property's names here.
    @inlinable
    mutating func tolerant<T: Decodable>(_ type: T.Type, _ key: String, _ alternate: String?, initial: () -> T) -> T? {
        // What each key held, for the log when none gives a value (position 0 the key, 1 the alternate).
        var miss = Repair.Miss<(index: Int, position: Int)>()
        for position in 0..<2 {
            let name: String
            if position == 0 { name = key } else if let alternate { name = alternate } else { break }
            guard let index = findAllowingNull(name) else { continue }
            if tokens[index].kind == .null {
                miss.sawNull((index, position))
                continue
            }
            if let value = strict(T.self, at: index) { return value }
            switch salvageScalar(T.self, at: index) {
            case .value(let value):
                if withContext({ $0.isRecording }) { recordCoercion(.of(value), T.self, at: index, key: name) }
                return value
            case .failed:
                miss.sawUnusable((index, position))
                continue
            case .delegate: return nil
            }
        }
        guard !withContext({ $0.hasCustomDefaults }) else { return nil }
        let result = initial()
        if withContext({ $0.isRecording }) { recordMiss(miss, key, alternate, expected: T.self, result: .of(result)) }
        return result
    }

    /// Logs what `miss` says of the member `key` (or `alternate`) that gave no value, which got
    /// `result`. Out of line and not generic, as ``recordCoercion(_:_:at:key:alternate:)``: the
    /// read of each type that calls it stays small.
    @usableFromInline @inline(never)
    func recordMiss(_ miss: Repair.Miss<(index: Int, position: Int)>, _ key: String, _ alternate: String?, expected: Any.Type, result: RepairValue) {
        let (kind, place) = miss.verdict(absent: (-1, 0))
        let name = place.position == 0 ? key : alternate ?? key
        record(kind, .key(name), expected: expected, found: found(kind, at: place.index), result: result)
    }

    /// Logs, when the session records, that the value at `index`, the member `key`'s (or
    /// `alternate`'s, when given), was coerced to `result`. Out of line: the fast read that
    /// calls it keeps nothing live for it.
    @usableFromInline @inline(never)
    func recordCoercion(_ result: RepairValue, _ expected: Any.Type, at index: Int, key: String, alternate: String? = nil) {
        record(.coerced, .key(alternate ?? key), expected: expected, found: found(at: index), result: result)
    }

    /// A value that is not a `T` coerced by the rules of ``coerce(_:at:)``: the common cases
    /// inline (``plainCoercion(_:at:)``), the rest out of line.
    @inlinable @inline(__always)
    func salvageScalar<T>(_ type: T.Type, at index: Int) -> Salvage<T> {
        if let value = plainCoercion(T.self, at: index) { return .value(value) }
        return coerce(T.self, at: index)
    }

    /// The common coercions, which ``coerce(_:at:)`` makes too, cheaply: `0`/`1` as `Bool`, a
    /// string of plain digits as `Int` or `Int64`. `nil` for anything else, which may still be
    /// coerced by the general rules.
    @inlinable @inline(__always)
    func plainCoercion<T>(_ type: T.Type, at index: Int) -> T? {
        if T.self == Bool.self {
            let token = tokens[index]
            if token.kind == .int, token.payload == 0 || token.payload == 1 { return unsafeBitCast(token.payload == 1, to: T.self) }
        } else if T.self == Int.self, let digits = plainInteger(at: index), let exact = Int(exactly: digits) {
            return unsafeBitCast(exact, to: T.self)
        } else if T.self == Int64.self, let digits = plainInteger(at: index) {
            return unsafeBitCast(digits, to: T.self)
        }
        return nil
    }

    /// A non-optional property whose first present path did not hold a `T`.
    @usableFromInline
    func tolerant<T: Decodable>(_ type: T.Type, _ paths: [JSONPath], initial: () -> T, delegate: (ModelDecodingContainer) -> T) -> T {
        var miss = Repair.Miss<(index: Int, path: Int)>()
        switch firstUsable(T.self, paths, miss: &miss) {
        case .value(let value): return value
        case .delegate: return delegate(slow())
        case .failed: return settle(T.self, paths, miss, initial: initial, delegate: delegate)
        }
    }

    /// What a non-optional property read from `paths` gets when none holds a usable value, as
    /// `miss` tells: `initial()`, logged; or the tolerant container's answer where the policy
    /// sets defaults.
    @usableFromInline
    func settle<T: Decodable>(
        _ type: T.Type, _ paths: [JSONPath], _ miss: Repair.Miss<(index: Int, path: Int)>, initial: () -> T,
        delegate: (ModelDecodingContainer) -> T
    ) -> T {
        guard !withContext({ $0.hasCustomDefaults }) else { return delegate(slow()) }
        let result = initial()
        if withContext({ $0.isRecording }) { recordMiss(miss, paths, expected: T.self, result: .of(result)) }
        return result
    }

    /// Logs what `miss` says of `paths`, none of which gave a value, for a property that got
    /// `result`. Out of line and not generic: the read of each type that calls it stays small.
    @inline(never)
    func recordMiss(_ miss: Repair.Miss<(index: Int, path: Int)>, _ paths: [JSONPath], expected: Any.Type, result: RepairValue) {
        let (kind, place) = miss.verdict(absent: (-1, 0))
        let components = place.path < paths.count ? paths[place.path].components : []
        record(kind, .components(components), expected: expected, found: found(kind, at: place.index), result: result)
    }

    /// An optional property whose keys were unusable, or absent with a default that may apply.
    @usableFromInline
    func tolerantOptional<T: Decodable>(_ type: T.Type, _ paths: [JSONPath], delegate: (ModelDecodingContainer) -> T?) -> T? {
        var miss = Repair.Miss<(index: Int, path: Int)>()
        if case .value(let value) = firstUsable(T.self, paths, miss: &miss) { return value }
        return delegate(slow())
    }

    /// The value at the first of `paths` that holds one, read strictly or coerced (and logged);
    /// `.failed` when none does, `.delegate` when the tolerant container must decide. `miss`
    /// notes what each path held (its token, and the path's place in `paths`), for the repair
    /// when none gives a value.
    func firstUsable<T: Decodable>(_ type: T.Type, _ paths: [JSONPath], miss: inout Repair.Miss<(index: Int, path: Int)>) -> Salvage<T> {
        for (position, path) in paths.enumerated() {
            switch location(of: path) {
            case .absent: continue
            case .null(let index): miss.sawNull((index, position))
            case .value(let index):
                if let value = strict(T.self, at: index) { return .value(value) }
                switch salvage(T.self, at: index, path: path.components) {
                case .value(let value): return .value(value)
                case .failed: miss.sawUnusable((index, position))
                case .delegate: return .delegate
                }
            }
        }
        return .failed
    }

    /// Coerces a scalar that is present but of another kind by the rules of ``JSONCoercible``.
    /// Inlinable but out of line: specialized for each type read, it makes no generic metadata.
    @inlinable @inline(never)
    func coerce<T>(_ type: T.Type, at index: Int) -> Salvage<T> {
        let truncating = context.session.policy.allowsFractionalTruncation
        let value: T?
        if T.self == Bool.self {
            value = Bool.coerce(from: context.tape.decodedValue(at: index), truncating: truncating).map { unsafeBitCast($0, to: T.self) }
        } else if T.self == Int.self {
            let coerced: Int?
            if let digits = plainInteger(at: index) {
                coerced = Int(exactly: digits)
            } else if let decided = untrimmedInteger(at: index, truncating: truncating) {
                coerced = decided
            } else {
                coerced = Int.coerce(from: context.tape.decodedValue(at: index), truncating: truncating)
            }
            value = coerced.map { unsafeBitCast($0, to: T.self) }
        } else if T.self == String.self {
            value = String.coerce(from: context.tape.decodedValue(at: index), truncating: truncating).map { unsafeBitCast($0, to: T.self) }
        } else if T.self == Double.self {
            value = Double.coerce(from: context.tape.decodedValue(at: index), truncating: truncating).map { unsafeBitCast($0, to: T.self) }
        } else if T.self == Int64.self {
            let coerced = plainInteger(at: index) ?? Int64.coerce(from: context.tape.decodedValue(at: index), truncating: truncating)
            value = coerced.map { unsafeBitCast($0, to: T.self) }
        } else {
            guard let target = T.self as? any JSONCoercible.Type, !(T.self is any LossyDecodable.Type) else { return .delegate }
            value = target.coerce(from: context.tape.decodedValue(at: index), truncating: truncating) as? T
        }
        guard let value else { return .failed }
        return .value(value)
    }

    /// Coerces and logs, for the path-based readers.
    func salvage<T>(_ type: T.Type, at index: Int, path: [JSONPath.Component]) -> Salvage<T> {
        let outcome = coerce(T.self, at: index)
        if case .value(let value) = outcome, withContext({ $0.isRecording }) {
            record(.coerced, .components(path), expected: T.self, found: found(at: index), result: .of(value))
        }
        return outcome
    }

    /// A string of plain ASCII digits (optionally signed, at most 18 bytes, so it always fits)
    /// read as an `Int64`: the common numeric string, without the trimming and parsing of the
    /// general rule, which reads it as `Int64(text)` too. 64-bit even where `Int` is 32 bits
    /// (watchOS), where the caller checks that the value fits.
    @usableFromInline
    func plainInteger(at index: Int) -> Int64? {
        let token = tokens[index]
        guard token.kind == .string, token.aux > 0, token.aux <= 18 else { return nil }
        let raw = context.tape.rawBytes(at: index)
        var negative = false
        var value: Int64 = 0
        for (position, byte) in raw.enumerated() {
            if position == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int64(byte &- UInt8(ascii: "0"))
        }
        guard raw.count > 1 || raw.first.map({ $0 &- UInt8(ascii: "0") < 10 }) == true else { return nil }
        return negative ? -value : value
    }

    /// The integer rule for a string that trimming would not change (no space or tab at either
    /// end): `Int(s)`, else through `Double(s)`. `nil` when the general rule must decide.
    @usableFromInline
    func untrimmedInteger(at index: Int, truncating: Bool) -> Int?? {
        let token = tokens[index]
        guard token.kind == .string else { return nil }
        let raw = context.tape.rawBytes(at: index)
        guard let first = raw.first, let last = raw.last, first > 0x20, first < 0x80, last > 0x20, last < 0x80 else { return nil }
        if Self.isNeverNumber(raw) { return .some(nil) }
        let text = context.tape.string(at: index)
        if let exact = Int(text) { return .some(exact) }
        guard let double = Double(text) else { return .some(nil) }
        return .some(Int.coerce(from: .double(double), truncating: truncating))
    }

    /// Whether neither `Int(_:)` nor `Double(_:)` can read `text`, known from its bytes without
    /// making a string: after an optional sign it starts with a digit or a point, so it can only be
    /// a decimal or hexadecimal number (not `inf` or `nan`), and it holds a byte that no such number
    /// has (`"12k"`, `"1,5"`). `false` when a parse must decide.
    static func isNeverNumber(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        var rest = text[...]
        if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { rest = rest.dropFirst() }
        guard let lead = rest.first, lead &- UInt8(ascii: "0") < 10 || lead == UInt8(ascii: ".") else { return false }
        return rest.contains { byte in
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"), UInt8(ascii: "A")...UInt8(ascii: "F"),
                UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "x"), UInt8(ascii: "X"), UInt8(ascii: "p"),
                UInt8(ascii: "P"):
                false
            default:
                true
            }
        }
    }

    /// What a miss's repair says was found: the unusable value (``found(at:)``), `null`, or
    /// `missing`.
    @usableFromInline
    func found(_ kind: Repair.Kind, at index: Int) -> PendingRepair.Found {
        switch kind {
        case .invalid: found(at: index)
        case .null: .null
        default: .missing
        }
    }

    /// What a repair says was found at `index`: an integer or a Boolean as its value, anything
    /// else as its token.
    @usableFromInline
    func found(at index: Int) -> PendingRepair.Found {
        .value(tokens[index], at: index)
    }

    /// Logs a repair at `tail` below this object, as compact values whose text is made when it
    /// is read. Not generic: one body serves every type.
    @usableFromInline
    func record(_ kind: Repair.Kind, _ tail: PendingRepair.Tail, expected: Any.Type, found: PendingRepair.Found, result: RepairValue) {
        let repair = PendingRepair(kind: kind, object: object, expected: expected, found: found)
        withContext { $0.session.record(repair, in: $0.tape, tail: tail, result: result, by: self) }
    }

    /// The path node the decode started from, which a repair's place starts from: `nil` at the
    /// root of the document.
    var anchor: Unmanaged<KilnPathNode>? {
        var up = parent
        while case .reader(let reader) = up { up = reader.pointee.parent }
        guard case .node(let node) = up else { return nil }
        return node
    }
}

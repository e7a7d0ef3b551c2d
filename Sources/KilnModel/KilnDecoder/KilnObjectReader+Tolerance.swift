/// The tolerant half of ``KilnObjectReader``: coercion, defaults and the repair log, applied
/// natively for the common cases (scalars, no custom defaults) and by ``ModelDecodingContainer``
/// for the rest, with the same results and the same repair entries either way.
extension KilnObjectReader {
    /// What one present, non-null value gave after the strict read failed.
    enum Salvage<T> {
        case value(T)
        case failed
        case delegate
    }

    /// A non-optional property whose first present key did not hold a `T`.
    @usableFromInline
    func tolerant<T: Decodable>(_ type: T.Type, _ paths: [KeyPath], initial: () -> T, delegate: (ModelDecodingContainer) -> T) -> T {
        for path in paths {
            guard let index = locate(path) else { continue }
            if let value = strict(T.self, at: index) { return value }
            switch salvage(T.self, at: index, path: path.components) {
            case .value(let value): return value
            case .failed: continue
            case .delegate: return delegate(slow())
            }
        }
        guard !context.hasCustomDefaults else { return delegate(slow()) }
        let result = initial()
        if context.session.isRecording {
            let (kind, found, components) = describeMiss(paths)
            record(kind, components, expected: T.self, found: found, result: result)
        }
        return result
    }

    /// An optional property whose keys were unusable, or absent with a default that may apply.
    @usableFromInline
    func tolerantOptional<T: Decodable>(_ type: T.Type, _ paths: [KeyPath], delegate: (ModelDecodingContainer) -> T?) -> T? {
        for path in paths {
            guard let index = locate(path) else { continue }
            if let value = strict(T.self, at: index) { return value }
            switch salvage(T.self, at: index, path: path.components) {
            case .value(let value): return value
            case .failed: continue
            case .delegate: return delegate(slow())
            }
        }
        return delegate(slow())
    }

    /// Coerces a scalar that is present but of another kind, logging the coercion.
    func salvage<T>(_ type: T.Type, at index: Int, path: [KeyPath.Component]) -> Salvage<T> {
        guard T.self is any JSONCoercible.Type, !(T.self is any LossyDecodable.Type) else { return .delegate }
        let truncating = context.session.policy.allowsFractionalTruncation
        let value: T?
        if T.self == Int.self, let digits = plainInteger(at: index) {
            value = unsafeBitCast(digits, to: T.self)
        } else {
            let raw = context.tape.jsonValue(at: index)
            value = (T.self as? any JSONCoercible.Type)?.coerce(from: raw, truncating: truncating) as? T
        }
        guard let value else { return .failed }
        if context.session.isRecording {
            record(.coerced, path, expected: T.self, found: context.tape.jsonValue(at: index).preview(), result: value)
        }
        return .value(value)
    }

    /// A string of plain ASCII digits (optionally signed) read as an `Int`: the common numeric
    /// string, without the trimming and parsing of the general rule (which gives the same result).
    func plainInteger(at index: Int) -> Int? {
        let token = context.tape.tokens[index]
        guard token.kind == .string, token.aux > 0, token.aux <= 18 else { return nil }
        let raw = context.tape.rawBytes(at: index)
        var negative = false
        var value = 0
        for (position, byte) in raw.enumerated() {
            if position == 0, byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+") {
                negative = byte == UInt8(ascii: "-")
                continue
            }
            guard byte &- UInt8(ascii: "0") < 10 else { return nil }
            value = value * 10 + Int(byte &- UInt8(ascii: "0"))
        }
        guard raw.count > 1 || raw.first.map({ $0 &- UInt8(ascii: "0") < 10 }) == true else { return nil }
        return negative ? -value : value
    }

    /// Why nothing usable was found, as ``ModelDecodingContainer`` says it.
    func describeMiss(_ paths: [KeyPath]) -> (Repair.Kind, String, [KeyPath.Component]) {
        var sawNull: [KeyPath.Component]? = nil
        for path in paths {
            guard let index = locateAllowingNull(path) else { continue }
            if context.tape.tokens[index].kind == .null {
                if sawNull == nil { sawNull = path.components }
                continue
            }
            return (.invalid, context.tape.jsonValue(at: index).preview(), path.components)
        }
        if let sawNull { return (.null, "null", sawNull) }
        return (.missing, "missing", paths.first?.components ?? [])
    }

    func locateAllowingNull(_ path: KeyPath) -> Int? {
        var current = object
        let components = path.components
        for (position, component) in components.enumerated() {
            guard case .key(let key) = component, let index = context.member(of: current, key: key) else { return nil }
            if position == components.count - 1 { return index }
            guard context.tape.tokens[index].kind == .object else { return nil }
            current = index
        }
        return nil
    }

    func record<T, V>(_ kind: Repair.Kind, _ components: [KeyPath.Component], expected: T.Type, found: String, result: V) {
        let full = (node?.components(in: context.tape) ?? []) + components
        context.session.record(Repair(path: CodingPathFormatter.format(full), kind: kind, expected: Repair.typeName(expected), found: found, result: Repair.show(result)))
    }
}

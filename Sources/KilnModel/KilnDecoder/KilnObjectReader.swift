/// The object a ``KilnFastDecodable`` model reads itself from, inside ``KilnDecoder``.
///
/// Its methods mirror ``ModelDecodingContainer``'s one for one, with the same arguments and the
/// same results; generated code calls them, you rarely do. A member that is present and has the
/// expected type is read straight from the document; anything else (a coercion, a default, a
/// lossy collection) is handed to ``ModelDecodingContainer``, so the repair log is identical.
public struct KilnObjectReader {
    @usableFromInline let context: KilnDecodingContext
    @usableFromInline let object: Int
    @usableFromInline let node: KilnPathNode?
    @usableFromInline let model: Any.Type

    @usableFromInline
    init(context: KilnDecodingContext, object: Int, node: KilnPathNode?, model: Any.Type) {
        self.context = context
        self.object = object
        self.node = node
        self.model = model
    }

    // MARK: Plain keys

    /// Reads the property `property` from `key` (or `alternate`), falling back to `initial()`.
    @inlinable
    public mutating func value<T: Decodable>(_ key: String, _ alternate: String? = nil, property: String, default initial: @autoclosure () -> T) -> T {
        if let value = fast(T.self, key, alternate) { return value }
        return tolerant(T.self, Self.keys(key, alternate), initial: { initial() }) { $0.value(key, alternate, property: property, default: initial()) }
    }

    /// Reads a property with no initial value: the policy's or the type's default fills gaps.
    @inlinable
    public mutating func value<T: Decodable & DefaultValueProviding>(_ key: String, _ alternate: String? = nil, property: String) -> T {
        if let value = fast(T.self, key, alternate) { return value }
        return tolerant(T.self, Self.keys(key, alternate), initial: { T.defaultValue }) { $0.value(key, alternate, property: property) }
    }

    /// Reads an optional property: absent or `null` is `nil` (or `initial()`).
    @inlinable
    public mutating func optional<T: Decodable>(_ key: String, _ alternate: String? = nil, property: String, default initial: @autoclosure () -> T? = nil) -> T? {
        switch read(T.self, key) {
        case .value(let value): return value
        case .unusable: break
        case .absent:
            if let alternate {
                switch read(T.self, alternate) {
                case .value(let value): return value
                case .unusable: break
                case .absent: if let shortcut = absentOptional(initial) { return shortcut }
                }
            } else if let shortcut = absentOptional(initial) {
                return shortcut
            }
        }
        return tolerantOptional(T.self, Self.keys(key, alternate)) { $0.optional(key, alternate, property: property, default: initial()) }
    }

    // MARK: Aliases and key paths

    /// Reads from the first of `paths` that is present and not null.
    @inlinable
    public mutating func value<T: Decodable>(paths: [KeyPath], property: String, default initial: @autoclosure () -> T) -> T {
        if let value = fast(T.self, paths) { return value }
        return tolerant(T.self, paths, initial: { initial() }) { $0.value(paths: paths, property: property, default: initial()) }
    }

    /// Reads a property with no initial value from the first usable path.
    @inlinable
    public mutating func value<T: Decodable & DefaultValueProviding>(paths: [KeyPath], property: String) -> T {
        if let value = fast(T.self, paths) { return value }
        return tolerant(T.self, paths, initial: { T.defaultValue }) { $0.value(paths: paths, property: property) }
    }

    /// Reads an optional property from the first usable path.
    @inlinable
    public mutating func optional<T: Decodable>(paths: [KeyPath], property: String, default initial: @autoclosure () -> T? = nil) -> T? {
        var sawValue = false
        for path in paths {
            switch read(T.self, path: path) {
            case .value(let value): return value
            case .unusable: sawValue = true
            case .absent: continue
            }
            break
        }
        if !sawValue, let shortcut = absentOptional(initial) { return shortcut }
        return tolerantOptional(T.self, paths) { $0.optional(paths: paths, property: property, default: initial()) }
    }

    // MARK: Transforms

    /// Reads through a ``ValueTransform`` (`@Transform(.yyyyMMdd)`).
    @inlinable
    public mutating func value<X: ValueTransform>(paths: [KeyPath], transform: X, property: String, default initial: @autoclosure () -> X.Value) -> X.Value {
        if let value = transformed(paths, transform) { return value }
        return slow().value(paths: paths, transform: transform, property: property, default: initial())
    }

    /// Reads a property with no initial value through a ``ValueTransform``.
    @inlinable
    public mutating func value<X: ValueTransform>(paths: [KeyPath], transform: X, property: String) -> X.Value where X.Value: DefaultValueProviding {
        if let value = transformed(paths, transform) { return value }
        return slow().value(paths: paths, transform: transform, property: property)
    }

    /// Reads an optional property through a ``ValueTransform``.
    @inlinable
    public mutating func optional<X: ValueTransform>(paths: [KeyPath], transform: X, property: String, default initial: @autoclosure () -> X.Value? = nil) -> X.Value? {
        var sawValue = false
        for path in paths {
            guard let index = locate(path) else { continue }
            sawValue = true
            if let value = transform.decode(context.tape.jsonValue(at: index)) { return value }
            break
        }
        if !sawValue, let shortcut = absentOptional(initial) { return shortcut }
        return slow().optional(paths: paths, transform: transform, property: property, default: initial())
    }
}

// MARK: - Machinery

extension KilnObjectReader {
    /// What one key gave: a value of the expected type, nothing (absent or `null`), or something
    /// that needs the tolerant rules.
    @usableFromInline
    enum Outcome<T> {
        case value(T)
        case absent
        case unusable
    }

    /// The member's value token when present and not null.
    @inlinable @inline(__always)
    func locate(_ key: String) -> Int? {
        guard let index = context.member(of: object, key: key), context.tape.tokens[index].kind != .null else { return nil }
        return index
    }

    /// The value token at a path of keys, when present and not null (paths with indices are
    /// not followed, as in ``ModelDecodingContainer``).
    @inlinable
    func locate(_ path: KeyPath) -> Int? {
        var current = object
        let components = path.components
        for (position, component) in components.enumerated() {
            guard case .key(let key) = component else { return nil }
            guard let index = context.member(of: current, key: key) else { return nil }
            if position == components.count - 1 { return context.tape.tokens[index].kind == .null ? nil : index }
            guard context.tape.tokens[index].kind == .object else { return nil }
            current = index
        }
        return nil
    }

    @inlinable @inline(__always)
    func read<T: Decodable>(_ type: T.Type, _ key: String) -> Outcome<T> {
        guard let index = locate(key) else { return .absent }
        guard let value = strict(T.self, at: index) else { return .unusable }
        return .value(value)
    }

    @inlinable @inline(__always)
    func read<T: Decodable>(_ type: T.Type, path: KeyPath) -> Outcome<T> {
        guard let index = locate(path) else { return .absent }
        guard let value = strict(T.self, at: index) else { return .unusable }
        return .value(value)
    }

    /// The value when the first present key has it as `T`; `nil` when the tolerant rules must decide.
    @inlinable @inline(__always)
    func fast<T: Decodable>(_ type: T.Type, _ key: String, _ alternate: String?) -> T? {
        switch read(T.self, key) {
        case .value(let value): return value
        case .unusable: return nil
        case .absent: break
        }
        guard let alternate, case .value(let value) = read(T.self, alternate) else { return nil }
        return value
    }

    @inlinable
    func fast<T: Decodable>(_ type: T.Type, _ paths: [KeyPath]) -> T? {
        for path in paths {
            switch read(T.self, path: path) {
            case .value(let value): return value
            case .unusable: return nil
            case .absent: continue
            }
        }
        return nil
    }

    @inlinable
    func transformed<X: ValueTransform>(_ paths: [KeyPath], _ transform: X) -> X.Value? {
        for path in paths {
            guard let index = locate(path) else { continue }
            return transform.decode(context.tape.jsonValue(at: index))
        }
        return nil
    }

    /// What an optional gets when no key is present: `nil` with nothing to log, unless a default
    /// could apply (then `nil` here, and the tolerant rules decide).
    @inlinable
    func absentOptional<T>(_ initial: () -> T?) -> T?? {
        guard !context.hasCustomDefaults, case .none = initial() else { return nil }
        return .some(nil)
    }

    /// Reads `T` at `index` as Foundation would, without throwing on the common types.
    @inlinable @inline(__always)
    func strict<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
        if T.self == String.self {
            guard let value = context.string(at: index) else { return nil }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Int.self {
            guard case .some(.some(let value)) = context.integer(Int.self, at: index) else { return nil }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Bool.self {
            guard let value = context.bool(at: index) else { return nil }
            return unsafeBitCast(value, to: T.self)
        }
        if T.self == Double.self {
            guard let value = context.double(at: index) else { return nil }
            return unsafeBitCast(value, to: T.self)
        }
        return strictOther(T.self, at: index)
    }

    @usableFromInline
    func strictOther<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
        try? context.decodeValue(T.self, at: index, node, .keyToken(index - 1))
    }

    @inlinable
    static func keys(_ key: String, _ alternate: String?) -> [KeyPath] {
        guard let alternate else { return [KeyPath([.key(key)])] }
        return [KeyPath([.key(key)]), KeyPath([.key(alternate)])]
    }

    /// The tolerant container for this object: where every repair is made and logged.
    @usableFromInline
    func slow() -> ModelDecodingContainer {
        ModelDecodingContainer(kilnObject: KilnKeyedContainer(context: context, object: object, node: node), session: context.session, model: model)
    }
}

extension ModelDecodingContainer {
    /// The tolerant container over an object of Kiln's tape, made without a `Decoder` round trip.
    init(kilnObject object: KilnKeyedContainer<AnyCodingKey>, session: DecodingSession, model: Any.Type) {
        self.container = KeyedDecodingContainer(object)
        self.session = session
        self.model = model
    }
}

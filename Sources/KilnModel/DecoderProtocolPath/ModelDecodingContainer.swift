/// The tolerant reader that `@DataModel`'s generated `init(from:)` uses for each property.
///
/// You rarely call it yourself: it is public because the macro's expansion, which lives in your
/// module, calls it. Every method returns a value and never throws: what the server sent either
/// fits, is coerced (and logged), or is replaced by the property's default (and logged).
public struct ModelDecodingContainer {
    @usableFromInline let container: KeyedDecodingContainer<AnyCodingKey>
    @usableFromInline let session: DecodingSession?
    @usableFromInline let model: Any.Type

    /// Opens the object a model decodes from. Throws when the value is not an object at all
    /// (the one failure a model cannot repair by itself; a parent model repairs it with a default).
    public init(decoder: any Decoder, model: Any.Type) throws {
        self.container = try decoder.container(keyedBy: AnyCodingKey.self)
        self.session = DecodingSession.current(in: decoder)
        self.model = model
    }

    @usableFromInline var policy: DecodingPolicy { session?.policy ?? DecodingPolicy() }

    // MARK: Plain keys (one name, or a name and its snake_case twin)

    /// Decodes the property `property` from `key` (or `alternate`, when the first is absent or
    /// null), falling back to `initial()`.
    @inlinable
    public func value<T: Decodable>(_ key: String, _ alternate: String? = nil, property: String, default initial: @autoclosure () -> T) -> T {
        if let value = attempt(T.self, AnyCodingKey(key), property: property) { return value }
        if let alternate, let value = attempt(T.self, AnyCodingKey(alternate), property: property) { return value }
        return fallback(T.self, keys: Self.paths(key, alternate), property: property, initial: { initial() })
    }

    /// Decodes a property with no initial value: the policy's or the type's default fills gaps.
    @inlinable
    public func value<T: Decodable & DefaultValueProviding>(_ key: String, _ alternate: String? = nil, property: String) -> T {
        if let value = attempt(T.self, AnyCodingKey(key), property: property) { return value }
        if let alternate, let value = attempt(T.self, AnyCodingKey(alternate), property: property) { return value }
        return fallback(T.self, keys: Self.paths(key, alternate), property: property, initial: { nil })
    }

    /// Decodes an optional property: absent or `null` is `nil` (or `initial()`), with no repair
    /// logged for a plain absence.
    @inlinable
    public func optional<T: Decodable>(_ key: String, _ alternate: String? = nil, property: String, default initial: @autoclosure () -> T? = nil) -> T? {
        if session?.unknownEnumIsNil == true, let found = unknownEnumValue(T.self, Self.paths(key, alternate)) {
            return optionalFallback(T.self, keys: Self.paths(key, alternate), property: property, initial: { initial() }, found: found)
        }
        if let value = attempt(T.self, AnyCodingKey(key), property: property) { return value }
        if let alternate, let value = attempt(T.self, AnyCodingKey(alternate), property: property) { return value }
        return optionalFallback(T.self, keys: Self.paths(key, alternate), property: property, initial: { initial() })
    }

    // MARK: Aliases and key paths

    /// Decodes from the first of `paths` that is present and not null (`@Key("pub_date", "author.name")`);
    /// with `emptyIsMissing` (`@DefaultIfEmpty`), an empty string, array or object counts as absent.
    public func value<T: Decodable>(paths: [JSONPath], emptyIsMissing: Bool = false, property: String, default initial: @autoclosure () -> T) -> T {
        for path in paths {
            if let value = attempt(T.self, path: path, property: property), !(emptyIsMissing && Self.isEmptyValue(value)) { return value }
        }
        return fallback(T.self, keys: paths.map(\.components), property: property, initial: { initial() })
    }

    /// Decodes a property with no initial value from the first usable path.
    public func value<T: Decodable & DefaultValueProviding>(paths: [JSONPath], emptyIsMissing: Bool = false, property: String) -> T {
        for path in paths {
            if let value = attempt(T.self, path: path, property: property), !(emptyIsMissing && Self.isEmptyValue(value)) { return value }
        }
        return fallback(T.self, keys: paths.map(\.components), property: property, initial: { nil })
    }

    /// Whether a value is an empty collection (`""`, `[]`, `[:]`): what `@DefaultIfEmpty` treats as absent.
    @usableFromInline
    static func isEmptyValue<T>(_ value: T) -> Bool {
        (value as? any Collection)?.isEmpty == true
    }

    /// Decodes an optional property from the first usable path.
    public func optional<T: Decodable>(paths: [JSONPath], emptyIsMissing: Bool = false, property: String, default initial: @autoclosure () -> T? = nil) -> T? {
        if session?.unknownEnumIsNil == true, let found = unknownEnumValue(T.self, paths.map(\.components)) {
            return optionalFallback(T.self, keys: paths.map(\.components), property: property, initial: { initial() }, found: found)
        }
        for path in paths {
            if let value = attempt(T.self, path: path, property: property), !(emptyIsMissing && Self.isEmptyValue(value)) { return value }
        }
        return optionalFallback(T.self, keys: paths.map(\.components), property: property, initial: { initial() })
    }

    // MARK: Transforms

    /// Decodes `key` (or `alternate`) through a ``ValueTransform`` (`@Transform(.iso8601)`).
    public func value<X: ValueTransform>(
        _ key: String, _ alternate: String? = nil, transform: X, property: String, default initial: @autoclosure () -> X.Value
    ) -> X.Value {
        value(paths: Self.keyPaths(key, alternate), transform: transform, property: property, default: initial())
    }

    /// Decodes a property with no initial value from `key` (or `alternate`) through a
    /// ``ValueTransform``.
    public func value<X: ValueTransform>(_ key: String, _ alternate: String? = nil, transform: X, property: String) -> X.Value
    where X.Value: DefaultValueProviding {
        value(paths: Self.keyPaths(key, alternate), transform: transform, property: property)
    }

    /// Decodes an optional property from `key` (or `alternate`) through a ``ValueTransform``.
    public func optional<X: ValueTransform>(
        _ key: String, _ alternate: String? = nil, transform: X, property: String, default initial: @autoclosure () -> X.Value? = nil
    ) -> X.Value? {
        optional(paths: Self.keyPaths(key, alternate), transform: transform, property: property, default: initial())
    }

    /// `key` and `alternate` as the paths of one key each.
    static func keyPaths(_ key: String, _ alternate: String?) -> [JSONPath] {
        paths(key, alternate).map { JSONPath($0) }
    }

    /// Decodes through a ``ValueTransform`` (`@Transform(.yyyyMMdd)`).
    public func value<X: ValueTransform>(paths: [JSONPath], transform: X, property: String, default initial: @autoclosure () -> X.Value) -> X.Value {
        if let value = transformed(paths: paths, transform: transform) { return value }
        return fallback(X.Value.self, keys: paths.map(\.components), property: property, initial: { initial() }, found: transformFound(paths))
    }

    /// Decodes a property with no initial value through a ``ValueTransform``.
    public func value<X: ValueTransform>(paths: [JSONPath], transform: X, property: String) -> X.Value where X.Value: DefaultValueProviding {
        if let value = transformed(paths: paths, transform: transform) { return value }
        return fallback(X.Value.self, keys: paths.map(\.components), property: property, initial: { nil }, found: transformFound(paths))
    }

    /// Decodes an optional property through a ``ValueTransform``.
    public func optional<X: ValueTransform>(paths: [JSONPath], transform: X, property: String, default initial: @autoclosure () -> X.Value? = nil) -> X.Value? {
        if let value = transformed(paths: paths, transform: transform) { return value }
        return optionalFallback(X.Value.self, keys: paths.map(\.components), property: property, initial: { initial() }, found: transformFound(paths))
    }

    @usableFromInline
    static func paths(_ key: String, _ alternate: String?) -> [[JSONPath.Component]] {
        guard let alternate else { return [[.key(key)]] }
        return [[.key(key)], [.key(alternate)]]
    }
}

// MARK: - Machinery

extension ModelDecodingContainer {
    /// Tries one key: the value when it decodes as `T` or can be coerced; `nil` when absent,
    /// null or unusable (the caller then tries the next key or falls back).
    @inlinable
    func attempt<T: Decodable>(_ type: T.Type, _ key: AnyCodingKey, property: String) -> T? {
        do {
            return try Self.decodeIfPresent(T.self, in: container, forKey: key)
        } catch {
            return salvage(T.self, in: container, key: key, path: [.key(key.stringValue)])
        }
    }

    func attempt<T: Decodable>(_ type: T.Type, path: JSONPath, property: String) -> T? {
        guard let (holder, last) = open(path) else { return nil }
        do {
            return try Self.decodeIfPresent(T.self, in: holder, forKey: last)
        } catch {
            return salvage(T.self, in: holder, key: last, path: path.components)
        }
    }

    /// Routes scalars to the container's concrete-type methods, which decoders implement without
    /// the generic path's extra work; specialized code keeps only the branch for `T`.
    @inlinable
    static func decodeIfPresent<T: Decodable>(_ type: T.Type, in container: KeyedDecodingContainer<AnyCodingKey>, forKey key: AnyCodingKey) throws -> T? {
        if T.self == String.self { return try container.decodeIfPresent(String.self, forKey: key) as? T }
        if T.self == Int.self { return try container.decodeIfPresent(Int.self, forKey: key) as? T }
        if T.self == Bool.self { return try container.decodeIfPresent(Bool.self, forKey: key) as? T }
        if T.self == Double.self { return try container.decodeIfPresent(Double.self, forKey: key) as? T }
        if T.self == Int64.self { return try container.decodeIfPresent(Int64.self, forKey: key) as? T }
        if T.self == Float.self { return try container.decodeIfPresent(Float.self, forKey: key) as? T }
        if T.self == Int32.self { return try container.decodeIfPresent(Int32.self, forKey: key) as? T }
        if T.self == UInt64.self { return try container.decodeIfPresent(UInt64.self, forKey: key) as? T }
        return try container.decodeIfPresent(T.self, forKey: key)
    }

    /// The raw value at `key`, trying the scalar kinds a coercion usually meets first: each failed
    /// attempt costs a thrown error in Foundation's decoders, and decoding a `JSONValue` tries
    /// object and array before any scalar.
    static func rawValue(in holder: KeyedDecodingContainer<AnyCodingKey>, forKey key: AnyCodingKey, stringFirst: Bool) -> JSONValue? {
        if stringFirst, let text = try? holder.decode(String.self, forKey: key) { return .string(text) }
        if let integer = try? holder.decode(Int64.self, forKey: key) { return .int(integer) }
        if let number = try? holder.decode(Double.self, forKey: key) { return .double(number) }
        if let flag = try? holder.decode(Bool.self, forKey: key) { return .bool(flag) }
        if !stringFirst, let text = try? holder.decode(String.self, forKey: key) { return .string(text) }
        return try? holder.decode(JSONValue.self, forKey: key)
    }

    /// Walks to the container holding a path's last step, by the rule of `JSONTape.locate` (the
    /// fast path's walk): a key steps into an object's member, an index into an element of an
    /// array that has it, and anything else, a `null` on the way included, leads nowhere. A path
    /// that ends at an element (`tags[0]`) is read through a container holding that element alone.
    func open(_ path: JSONPath) -> (KeyedDecodingContainer<AnyCodingKey>, AnyCodingKey)? {
        // Where the walk stands: at a member of an object, or at an element of an array; `nil` at
        // the model's own object.
        enum Place {
            case member(KeyedDecodingContainer<AnyCodingKey>, AnyCodingKey)
            case element(any UnkeyedDecodingContainer, Int)
        }
        var place: Place?
        for component in path.components {
            switch component {
            case .key(let key):
                let object: KeyedDecodingContainer<AnyCodingKey>
                switch place {
                case nil: object = container
                case .member(let holder, let last)?:
                    guard let nested = try? holder.nestedContainer(keyedBy: AnyCodingKey.self, forKey: last) else { return nil }
                    object = nested
                case .element(var list, _)?:
                    guard let nested = try? list.nestedContainer(keyedBy: AnyCodingKey.self) else { return nil }
                    object = nested
                }
                place = .member(object, AnyCodingKey(key))
            case .index(let position):
                var list: any UnkeyedDecodingContainer
                switch place {
                case nil: return nil
                case .member(let holder, let last)?:
                    guard let nested = try? holder.nestedUnkeyedContainer(forKey: last) else { return nil }
                    list = nested
                case .element(var outer, _)?:
                    guard let nested = try? outer.nestedUnkeyedContainer() else { return nil }
                    list = nested
                }
                guard position >= 0, let count = list.count, position < count else { return nil }
                for _ in 0..<position { _ = try? list.decode(Skip.self) }
                place = .element(list, position)
            }
        }
        switch place {
        case nil: return nil
        case .member(let holder, let last)?: return (holder, last)
        case .element(var list, let position)?:
            guard let element = try? list.superDecoder() else { return nil }
            let key = AnyCodingKey(index: position)
            return (KeyedDecodingContainer(ElementContainer(decoder: element, key: key)), key)
        }
    }

    /// The slow path after `T` failed to decode strictly: a collection is decoded again keeping
    /// what can be kept; a scalar is read as raw JSON and coerced.
    @usableFromInline
    func salvage<T: Decodable>(_ type: T.Type, in holder: KeyedDecodingContainer<AnyCodingKey>, key: AnyCodingKey, path: [JSONPath.Component]) -> T? {
        if let lossy = T.self as? any LossyDecodable.Type, let nested = try? holder.superDecoder(forKey: key),
            let decoded = try? lossy.decodeLossy(from: nested), let value = decoded as? T
        {
            return value
        }
        return coerce(T.self, in: holder, key: key, path: path)
    }

    /// Reads the raw JSON at `key` and applies the coercion rules.
    func coerce<T: Decodable>(_ type: T.Type, in holder: KeyedDecodingContainer<AnyCodingKey>, key: AnyCodingKey, path: [JSONPath.Component]) -> T? {
        let target: any JSONCoercible.Type
        if let direct = T.self as? any JSONCoercible.Type {
            target = direct
        } else if let wrapped = (T.self as? any OptionalProtocol.Type)?.wrappedType as? any JSONCoercible.Type {
            target = wrapped
        } else {
            return nil
        }
        guard let raw = Self.rawValue(in: holder, forKey: key, stringFirst: target != String.self) else { return nil }
        guard let coerced = target.coerce(from: raw, truncating: policy.allowsFractionalTruncation),
            let value = (coerced as? T) ?? (T.self as? any OptionalProtocol.Type)?.wrapping(coerced) as? T
        else { return nil }
        record(.coerced, path: path, expected: T.self, found: raw.preview(), result: Repair.show(value))
        return value
    }

    @usableFromInline
    func fallback<T>(_ type: T.Type, keys: [[JSONPath.Component]], property: String, initial: () -> T?, found: String? = nil) -> T {
        let policy = self.policy
        var value: T? = nil
        if policy.hasCustomDefaults {
            value = policy.defaultValue(forKey: property, in: model, as: T.self)
        }
        if value == nil { value = initial() }
        if value == nil, policy.hasCustomDefaults { value = policy.defaultValue(for: T.self) }
        if value == nil { value = (T.self as? any DefaultValueProviding.Type)?.defaultValue as? T }
        guard let result = value else {
            preconditionFailure("generated code passes an initial value unless T provides a default")
        }
        if session?.isRecording == true {
            let (kind, foundText, path) = describeMiss(keys, found: found)
            record(kind, path: path, expected: T.self, found: foundText, result: Repair.show(result))
        }
        return result
    }

    @usableFromInline
    func optionalFallback<T>(_ type: T.Type, keys: [[JSONPath.Component]], property: String, initial: () -> T?, found: String? = nil) -> T? {
        let policy = self.policy
        var value: T?? = nil
        if policy.hasCustomDefaults, let keyed = policy.defaultValue(forKey: property, in: model, as: T.self) {
            value = .some(keyed)
        }
        if value == nil, let start = initial() { value = .some(start) }
        let result: T? = value ?? nil
        if session?.isRecording == true {
            let (kind, foundText, path) = describeMiss(keys, found: found)
            // A plain absence (or null) leaving an optional at nil is what optional means.
            if kind == .invalid || result != nil {
                record(kind, path: path, expected: T?.self, found: foundText, result: result.map { Repair.show($0) } ?? "nil")
            }
        }
        return result
    }

    /// The first present value at `keys`, shown, when `T` is a ``FallbackEnum`` that does not
    /// know it; `nil` otherwise.
    @usableFromInline
    func unknownEnumValue<T>(_ type: T.Type, _ keys: [[JSONPath.Component]]) -> String? {
        guard let enumType = T.self as? any FallbackEnum.Type else { return nil }
        for components in keys {
            guard let (holder, last) = open(JSONPath(components)),
                let raw = try? holder.decodeIfPresent(JSONValue.self, forKey: last), !raw.isNull
            else { continue }
            return enumType.recognizes(raw, truncating: policy.allowsFractionalTruncation) ? nil : raw.preview()
        }
        return nil
    }

    /// Why nothing usable was found: absent, null, or present but unusable (``Repair/Miss``
    /// decides which is reported). `found`, when given, is an unusable value at the first key.
    func describeMiss(_ keys: [[JSONPath.Component]], found: String?) -> (Repair.Kind, String, [JSONPath.Component]) {
        let first = keys.first ?? []
        var miss = Repair.Miss<(found: String, path: [JSONPath.Component])>()
        if let found { miss.sawUnusable((found, first)) }
        for components in keys where !miss.isSettled {
            guard let (holder, last) = open(JSONPath(components)), holder.contains(last) else { continue }
            if (try? holder.decodeNil(forKey: last)) == true {
                miss.sawNull(("null", components))
            } else {
                miss.sawUnusable(((try? holder.decode(JSONValue.self, forKey: last))?.preview() ?? "an unreadable value", components))
            }
        }
        let (kind, place) = miss.verdict(absent: ("missing", first))
        return (kind, place.found, place.path)
    }

    /// The transformed value at the first present path; the repairs the transform made inside
    /// it are logged under that path.
    func transformed<X: ValueTransform>(paths: [JSONPath], transform: X) -> X.Value? {
        for path in paths {
            guard let (holder, last) = open(path),
                let raw = try? holder.decodeIfPresent(JSONValue.self, forKey: last), !raw.isNull
            else { continue }
            var context = TransformContext(policy: policy)
            let value = transform.decode(raw, context: &context)
            if value != nil, let session, session.isRecording {
                let place = CodingPathFormatter.format(CodingPathFormatter.components(container.codingPath) + path.components)
                for repair in context.repairs {
                    var placed = repair
                    placed.path = JSONPath.join(place, repair.path)
                    session.record(placed)
                }
            }
            return value
        }
        return nil
    }

    func transformFound(_ paths: [JSONPath]) -> String? {
        for path in paths {
            guard let (holder, last) = open(path),
                let raw = try? holder.decodeIfPresent(JSONValue.self, forKey: last), !raw.isNull
            else { continue }
            return raw.preview()
        }
        return nil
    }

    func record<T>(_ kind: Repair.Kind, path: [JSONPath.Component], expected: T.Type, found: String, result: String) {
        guard let session, session.isRecording else { return }
        let full = CodingPathFormatter.components(container.codingPath) + path
        session.record(Repair(path: CodingPathFormatter.format(full), kind: kind, expected: session.typeName(expected), found: found, result: result))
    }
}

/// Lets generic code see through `Optional`.
@usableFromInline
protocol OptionalProtocol {
    static var wrappedType: Any.Type { get }
    static func wrapping(_ value: Any) -> Any?
}

extension Optional: OptionalProtocol {
    @usableFromInline static var wrappedType: Any.Type { Wrapped.self }
    @usableFromInline static func wrapping(_ value: Any) -> Any? {
        guard let wrapped = value as? Wrapped else { return nil }
        return Optional(wrapped) as Any
    }
}

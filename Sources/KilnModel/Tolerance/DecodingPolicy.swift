/// How tolerant decoding fills the gaps: defaults per type and per key, whether fractions may be
/// truncated into integers, and where repairs are reported.
///
/// Set it once per decode, not in every model. Rules for a whole API read:
///
/// ```swift
/// var policy = DecodingPolicy()
/// policy.setDefault("--", for: String.self)          // every missing String becomes "--"
/// policy.setDefault("价格面议", forKey: "price")       // a missing price reads "price on request"
/// let (page, repairs) = try JSONDecoder().decodeWithRepairs(Page.self, from: data, policy: policy)
/// ```
///
/// Precedence for a property that gets nothing usable: a per-key default, then the property's
/// own initial value, then the per-type default, then the type's ``DefaultValueProviding`` value.
public struct DecodingPolicy: Sendable {
    /// Whether a fractional number may fill an integer property by truncating toward zero
    /// (`4.7` → `4`). When `false` (the default) the property keeps its default and the repair
    /// log says why.
    public var allowsFractionalTruncation = false

    /// Whether an optional ``FallbackEnum`` property reads a value the enum does not know as `nil`
    /// (or the property's initial value), with an `invalid` repair. When `false` (the default)
    /// it holds the enum's fallback case, like a non-optional property, so that `nil` keeps
    /// meaning the server sent nothing. Elements of arrays always take the fallback case.
    public var unknownEnumValueInOptionalIsNil = false

    /// Called with every repair as it happens, on the decoding thread. `nil` by default.
    public var onRepair: (@Sendable (Repair) -> Void)?

    private var typeDefaults: [ObjectIdentifier: any Sendable] = [:]
    private var keyDefaults: [String: any Sendable] = [:]

    /// The default policy: Kiln's built-in defaults, no truncation, no repair callback.
    public init() {}

    /// Sets what every non-optional property of type `T` with no initial value gets when the
    /// server sends nothing usable. Optional properties are `nil` when the server sends nothing
    /// usable; give one a per-key default (``setDefault(_:forKey:in:)``) or an initial value to
    /// change that.
    public mutating func setDefault<T: Sendable>(_ value: T, for type: T.Type) {
        typeDefaults[ObjectIdentifier(type)] = value
    }

    /// Sets what the property named `key` (its Swift name) gets when the server sends nothing
    /// usable, in every model, or only in `model` when given. Wins over the property's initial value.
    public mutating func setDefault<T: Sendable>(_ value: T, forKey key: String, in model: Any.Type? = nil) {
        keyDefaults[Self.scopedKey(key, model)] = value
    }

    /// Whether any default has been set: lets decoding skip look-ups entirely when none has.
    var hasCustomDefaults: Bool { !typeDefaults.isEmpty || !keyDefaults.isEmpty }

    /// The per-type default for `T`, if one was set.
    public func defaultValue<T>(for type: T.Type) -> T? {
        typeDefaults[ObjectIdentifier(type)] as? T
    }

    /// The per-key default for the property `key` of `model`, if one was set.
    public func defaultValue<T>(forKey key: String, in model: Any.Type, as type: T.Type) -> T? {
        if let scoped = keyDefaults[Self.scopedKey(key, model)] as? T { return scoped }
        return keyDefaults[Self.scopedKey(key, nil)] as? T
    }

    private static func scopedKey(_ key: String, _ model: Any.Type?) -> String {
        guard let model else { return key }
        return String(reflecting: model) + "\u{0}" + key
    }
}

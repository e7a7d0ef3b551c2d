import Foundation

/// The object a ``KilnFastDecodable`` model reads itself from, inside ``KilnDecoder``.
///
/// Its methods mirror ``ModelDecodingContainer``'s one for one, with the same arguments and the
/// same results; generated code calls them, you rarely do. A member that is present and has the
/// expected type is read straight from the document; a coercion or a default is applied here by
/// the same rules, and anything rarer (custom defaults, lossy collections) is handed to
/// ``ModelDecodingContainer`` itself, so values and repair logs are identical.
public struct KilnObjectReader {
    // Every field is plain data: calling a method on an `inout` reader copies it, and a copy then
    // costs no retain or release. What the fields point to lives as long as the decode, which a
    // reader never outlives.

    /// The decode's shared state, not reference counted. The hot paths borrow it with
    /// ``withContext(_:)``; ``context`` is for the rarer ones.
    @usableFromInline let unmanagedContext: Unmanaged<KilnDecodingContext>
    /// The tape's tokens and the document's bytes.
    @usableFromInline let tokens: UnsafeMutablePointer<JSONToken>
    @usableFromInline let bytes: UnsafeMutablePointer<UInt8>
    @usableFromInline let object: Int
    /// The model read, whose generated key slots (``KilnFastDecodable/kilnMemberKeySlot(_:)``)
    /// find members away from the hint.
    @usableFromInline let model: any KilnFastDecodable.Type
    /// Where the object sits: its parent and its own step, made into a path node only when a
    /// repair or an error needs one. A node made here is kept by the context (``sharedNode()``).
    @usableFromInline let parent: Parent
    @usableFromInline let place: Place
    @usableFromInline var cachedNode: Unmanaged<KilnPathNode>?
    /// The node of the list of models read last (``sharedListNode(_:)``) and its key token.
    @usableFromInline var listNode: Unmanaged<KilnPathNode>?
    @usableFromInline var listKey = -1
    /// The key token after the member found last: members read in document order are found at once.
    @usableFromInline var hint: Int
    /// How keys are found away from the hint, made on the first look-up that misses it: the
    /// members filed under the model's key slots when the model has them and the object's keys
    /// are plain ASCII; otherwise a 64-bit filter of the keys for objects of a few members (a key
    /// the object lacks, such as the Swift name tried before its snake_case twin, is then known
    /// absent without a scan), and a hashed table of the keys for larger ones.
    @usableFromInline var table = MemberTable.none
    @usableFromInline var keyFilter: UInt64 = 0

    /// What the object sits in.
    @usableFromInline
    enum Parent {
        /// A path node (or the root), which the decode that made the reader keeps alive.
        case node(Unmanaged<KilnPathNode>?)
        /// The reader of the enclosing model, which outlives this one: its path node is made
        /// only when this reader needs its own.
        case reader(UnsafeMutablePointer<KilnObjectReader>)
    }

    /// The step from the parent to the object, in the forms a reader is made with. Token
    /// indices and positions are 32-bit (a document is under 4 GB), so that the reader stays
    /// small enough to be copied without a call to `memcpy`.
    @usableFromInline
    enum Place {
        /// The object is the parent node's own value.
        case parent
        /// The member whose key is the string token at this index.
        case keyToken(Int32)
        /// An array element.
        case index(Int32)
        /// An element of the parent reader's list whose key is the string token at `list`.
        case element(list: Int32, position: Int32)
        /// A member, whose key is the string token at `key`, of the parent reader's
        /// `[String: Model]` whose own key is the string token at `dictionary`. Readers run under
        /// the default key strategy only, where a key that reads as an integer is named as one
        /// (``KilnPathNode/Step/dictionaryMember(_:at:convertsKeys:)``).
        case member(dictionary: Int32, key: Int32)

        /// The step from the parent's node (a list's or a dictionary's node for their elements
        /// and members), with `tape` to read a dictionary's keys.
        func step(in tape: JSONTape) -> KilnPathNode.Step? {
            switch self {
            case .parent: nil
            case .keyToken(let token): .keyToken(Int(token))
            case .index(let position), .element(_, let position): .index(Int(position))
            case .member(_, let key): .dictionaryMember(at: Int(key), in: tape)
            }
        }
    }

    /// Inlinable: built in place by the caller rather than copied out of a call.
    @inlinable
    init<Model: KilnFastDecodable>(context: Unmanaged<KilnDecodingContext>, object: Int, parent: Parent, place: Place, model: Model.Type) {
        self.unmanagedContext = context
        self.object = object
        self.model = model
        if Model.kilnMemberKeyCount > 0 { self.table = .unfiled }
        self.parent = parent
        self.place = place
        if case .parent = place, case .node(let node) = parent { self.cachedNode = node } else { self.cachedNode = nil }
        self.hint = object + 1
        (self.tokens, self.bytes) = context._withUnsafeGuaranteedRef { ($0.tape.tokens, $0.tape.base) }
    }

    /// A reader for the object at `object`, below `parent` by `step`; `context` keeps the nodes it
    /// needs for as long as the decode runs.
    init(context: KilnDecodingContext, object: Int, parent: KilnPathNode?, step: KilnPathNode.Step?, model: any KilnFastDecodable.Type) {
        let place: Place
        var parent = parent
        switch step {
        case nil: place = .parent
        case .keyToken(let token)?: place = .keyToken(Int32(truncatingIfNeeded: token))
        case .index(let position)?: place = .index(Int32(truncatingIfNeeded: position))
        case let step?:
            parent = KilnPathNode(parent: parent, step: step)
            place = .parent
        }
        self.init(context: .passUnretained(context), object: object, parent: .node(parent.map { context.keep($0) }), place: place, model: model)
    }

    /// The decode's context, for the rarer paths (each use may retain it).
    @inlinable
    var context: KilnDecodingContext { unmanagedContext.takeUnretainedValue() }

    /// Runs `body` with the decode's context, without retaining it.
    @inlinable @inline(__always)
    func withContext<R>(_ body: (KilnDecodingContext) -> R) -> R {
        unmanagedContext._withUnsafeGuaranteedRef(body)
    }

    // MARK: Plain keys

    /// Reads the property `property` from `key` (or `alternate`), falling back to `initial()`.
    @inlinable @inline(__always)
    public mutating func value<T: Decodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> T
    ) -> T {
        // Two calls rather than one: this method's eight argument words would put two on the
        // stack, and a specialization merged with another (`Int` with `Int64`) reloads them with
        // one wide load, which stalls on the caller's two narrow stores (8% of the time of a
        // catalog decode). The fast read takes its five words in registers.
        if let value = fastValue(T.self, key, alternate, slots) { return value }
        return tolerantValue(key, alternate, property: property, default: initial)
    }

    /// ``fast(_:_:_:_:)`` out of line, so that its arguments fit in registers.
    @inlinable @inline(never)
    mutating func fastValue<T: Decodable>(_ type: T.Type, _ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> T? {
        fast(T.self, key, alternate, slots)
    }

    /// The tolerant read of `value(_:_:slots:property:default:)`, out of line.
    @inlinable @inline(never)
    mutating func tolerantValue<T: Decodable>(_ key: String, _ alternate: String?, property: String, default initial: () -> T) -> T {
        tolerant(T.self, key, alternate, initial: initial) ?? slow().value(key, alternate, property: property, default: initial())
    }

    /// Reads a property with no initial value: the policy's or the type's default fills gaps.
    @inlinable
    public mutating func value<T: Decodable & DefaultValueProviding>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String
    ) -> T {
        // A nested model takes its own fast path; the check folds away once specialized.
        if let model = T.self as? any KilnFastDecodable.Type {
            if let value = fastModel(model, key, alternate, slots) as? T { return value }
        } else if let value = fast(T.self, key, alternate, slots) {
            return value
        }
        return tolerantDefaultValue(key, alternate, property: property)
    }

    /// The tolerant read of ``value(_:_:slots:property:)``, out of line, as
    /// ``tolerantValue(_:_:property:default:)`` is for properties with initial values.
    @inlinable @inline(never)
    mutating func tolerantDefaultValue<T: Decodable & DefaultValueProviding>(_ key: String, _ alternate: String?, property: String) -> T {
        tolerant(T.self, key, alternate, initial: { T.defaultValue }) ?? slow().value(key, alternate, property: property)
    }

    /// Reads an optional property: absent or `null` is `nil` (or `initial()`).
    @inlinable
    public mutating func optional<T: Decodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> T? = nil
    ) -> T? {
        optionalValue(key, alternate, slots: slots, property: property, default: initial)
    }

    /// ``optional(_:_:slots:property:default:)`` for any `Decodable`, which the overloads for
    /// particular types fall back on.
    @inlinable @inline(__always)
    mutating func optionalValue<T: Decodable>(_ key: String, _ alternate: String?, slots: KilnKeySlots, property: String, default initial: () -> T?) -> T? {
        // An unknown case of a `FallbackEnum` read as `nil` is the tolerant container's rule.
        if !withContext({ $0.unknownEnumIsNil }) || !(T.self is any FallbackEnum.Type) {
            switch read(T.self, key, slot: slots.key) {
            case .value(let value): return value
            case .unusable: break
            case .absent:
                if let alternate {
                    switch read(T.self, alternate, slot: slots.alternate) {
                    case .value(let value): return value
                    case .unusable: break
                    case .absent: if let shortcut = absentOptional(initial) { return shortcut }
                    }
                } else if let shortcut = absentOptional(initial) {
                    return shortcut
                }
            }
        }
        return tolerantOptionalValue(key, alternate, property: property, default: initial)
    }

    /// The tolerant read of ``optional(_:_:slots:property:default:)``, out of line: the method that
    /// reads the property then needs nothing of the tolerant container, whose layout is known
    /// only at run time.
    @inlinable @inline(never)
    mutating func tolerantOptionalValue<T: Decodable>(_ key: String, _ alternate: String?, property: String, default initial: () -> T?) -> T? {
        if withContext({ $0.unknownEnumIsNil }), T.self is any FallbackEnum.Type {
            return slow().optional(key, alternate, property: property, default: initial())
        }
        return tolerantOptional(T.self, Self.keys(key, alternate)) { $0.optional(key, alternate, property: property, default: initial()) }
    }

    // MARK: Nested models and lists of them, without a Decoder

    /// Reads a nested model through its own fast path.
    @inlinable
    public mutating func value<T: KilnFastDecodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> T
    ) -> T {
        if let value = fastModel(T.self, key, alternate, slots) { return value }
        return tolerantModel(key, alternate, property: property, default: initial)
    }

    /// The tolerant read of a nested model, out of line, as ``tolerantValue(_:_:property:default:)``
    /// is for other values: the initializer that reads the property stays small.
    @inlinable @inline(never)
    mutating func tolerantModel<T: KilnFastDecodable>(_ key: String, _ alternate: String?, property: String, default initial: () -> T) -> T {
        tolerant(T.self, key, alternate, initial: initial) ?? slow().value(key, alternate, property: property, default: initial())
    }

    /// Reads an optional nested model through its own fast path.
    @inlinable
    public mutating func optional<T: KilnFastDecodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> T? = nil
    ) -> T? {
        if let value = fastModel(T.self, key, alternate, slots) { return value }
        if find(key, slot: slots.key) == nil, alternate.map({ find($0, slot: slots.alternate) == nil }) ?? true, let shortcut = absentOptional(initial) {
            return shortcut
        }
        return tolerantOptional(T.self, Self.keys(key, alternate)) { $0.optional(key, alternate, property: property, default: initial()) }
    }

    /// Reads a list of models, each through its own fast path.
    @inlinable
    public mutating func value<E: KilnFastDecodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> [E]
    ) -> [E] {
        if let value = fastModels(E.self, key, alternate, slots) { return value }
        return tolerant([E].self, Self.keys(key, alternate), initial: { initial() }) { $0.value(key, alternate, property: property, default: initial()) }
    }

    /// Reads a list of models with no initial value, each through its own fast path.
    @inlinable
    public mutating func value<E: KilnFastDecodable>(_ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String) -> [E] {
        if let value = fastModels(E.self, key, alternate, slots) { return value }
        return tolerant([E].self, Self.keys(key, alternate), initial: { [] }) { $0.value(key, alternate, property: property) }
    }

    /// Reads a dictionary of models (`[String: Model]`, keyed by ids), each through its own
    /// fast path.
    @inlinable
    public mutating func value<V: KilnFastDecodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> [String: V]
    ) -> [String: V] {
        if let value = fastModelDictionary(V.self, key, alternate, slots) ?? fastValue([String: V].self, key, alternate, slots) { return value }
        return tolerantValue(key, alternate, property: property, default: initial)
    }

    /// Reads a dictionary of models with no initial value, each through its own fast path.
    @inlinable
    public mutating func value<V: KilnFastDecodable>(_ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String) -> [String: V] {
        if let value = fastModelDictionary(V.self, key, alternate, slots) ?? fastValue([String: V].self, key, alternate, slots) { return value }
        return tolerantDefaultValue(key, alternate, property: property)
    }

    /// Reads an optional dictionary of models, each through its own fast path: absent or `null`
    /// is `nil` (or `initial()`).
    @inlinable
    public mutating func optional<V: KilnFastDecodable>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, property: String, default initial: @autoclosure () -> [String: V]? = nil
    ) -> [String: V]? {
        if let value = fastModelDictionary(V.self, key, alternate, slots) { return value }
        return optionalValue(key, alternate, slots: slots, property: property, default: initial)
    }

    // MARK: Aliases and key paths

    /// Reads from the first of `paths` that is present and not null.
    @inlinable
    public mutating func value<T: Decodable>(paths: [JSONPath], emptyIsMissing: Bool = false, property: String, default initial: @autoclosure () -> T) -> T {
        value(T.self, paths, emptyIsMissing: emptyIsMissing, initial: { initial() }) {
            $0.value(paths: paths, emptyIsMissing: $1, property: property, default: initial())
        }
    }

    /// Reads a property with no initial value from the first usable path.
    @inlinable
    public mutating func value<T: Decodable & DefaultValueProviding>(paths: [JSONPath], emptyIsMissing: Bool = false, property: String) -> T {
        value(T.self, paths, emptyIsMissing: emptyIsMissing, initial: { T.defaultValue }) {
            $0.value(paths: paths, emptyIsMissing: $1, property: property)
        }
    }

    /// The two reads above: the value at the first usable path, else what `initial()` or the
    /// tolerant container (`delegate`, told whether an empty value counts as missing) gives.
    @inlinable
    mutating func value<T: Decodable>(
        _ type: T.Type, _ paths: [JSONPath], emptyIsMissing: Bool, initial: () -> T, delegate: (ModelDecodingContainer, Bool) -> T
    ) -> T {
        var miss = Repair.Miss<(index: Int, path: Int)>()
        switch fast(T.self, paths, miss: &miss) {
        case .value(let value): if !(emptyIsMissing && ModelDecodingContainer.isEmptyValue(value)) { return value }
        case .failed: if !emptyIsMissing { return settle(T.self, paths, miss, initial: initial) { delegate($0, false) } }
        case .delegate: break
        }
        if emptyIsMissing { return delegate(slow(), true) }
        return tolerant(T.self, paths, initial: initial) { delegate($0, false) }
    }

    /// Reads an optional property from the first usable path.
    @inlinable
    public mutating func optional<T: Decodable>(
        paths: [JSONPath], emptyIsMissing: Bool = false, property: String, default initial: @autoclosure () -> T? = nil
    ) -> T? {
        if emptyIsMissing || (withContext { $0.unknownEnumIsNil } && T.self is any FallbackEnum.Type) {
            return slow().optional(paths: paths, emptyIsMissing: emptyIsMissing, property: property, default: initial())
        }
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

    /// Reads the property `property` from `key` (or `alternate`) through a ``ValueTransform``
    /// (`@Transform(.iso8601)`), falling back to `initial()`.
    @inlinable
    public mutating func value<X: ValueTransform>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, transform: X, property: String, default initial: @autoclosure () -> X.Value
    ) -> X.Value {
        if let value = transformed(key, alternate, slots, transform) { return value }
        return slow().value(key, alternate, transform: transform, property: property, default: initial())
    }

    /// Reads a property with no initial value from `key` (or `alternate`) through a
    /// ``ValueTransform``.
    @inlinable
    public mutating func value<X: ValueTransform>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, transform: X, property: String
    ) -> X.Value where X.Value: DefaultValueProviding {
        if let value = transformed(key, alternate, slots, transform) { return value }
        return slow().value(key, alternate, transform: transform, property: property)
    }

    /// Reads an optional property from `key` (or `alternate`) through a ``ValueTransform``:
    /// absent or `null` is `nil` (or `initial()`).
    @inlinable
    public mutating func optional<X: ValueTransform>(
        _ key: String, _ alternate: String? = nil, slots: KilnKeySlots = .none, transform: X, property: String,
        default initial: @autoclosure () -> X.Value? = nil
    ) -> X.Value? {
        let start = hint
        if let index = find(key, alternate, slots) {
            if let value = transformed(at: index, transform) { return value }
        } else if let shortcut = absentOptional(initial) {
            return shortcut
        }
        hint = start
        return slow().optional(key, alternate, transform: transform, property: property, default: initial())
    }

    /// The transformed value at the first of `key` and `alternate` that is present and not
    /// null, found by their slots, when the transform read it without a repair; otherwise
    /// `nil`, with the look-up hint where it was, and the tolerant container reads and logs it.
    @inlinable
    mutating func transformed<X: ValueTransform>(_ key: String, _ alternate: String?, _ slots: KilnKeySlots, _ transform: X) -> X.Value? {
        let start = hint
        if let index = find(key, alternate, slots),
            let value = transformed(at: index, transform)
        {
            return value
        }
        hint = start
        return nil
    }

    /// Reads through a ``ValueTransform`` (`@Transform(.yyyyMMdd)`).
    @inlinable
    public mutating func value<X: ValueTransform>(paths: [JSONPath], transform: X, property: String, default initial: @autoclosure () -> X.Value) -> X.Value {
        if let value = transformed(paths, transform) { return value }
        return slow().value(paths: paths, transform: transform, property: property, default: initial())
    }

    /// Reads a property with no initial value through a ``ValueTransform``.
    @inlinable
    public mutating func value<X: ValueTransform>(paths: [JSONPath], transform: X, property: String) -> X.Value where X.Value: DefaultValueProviding {
        if let value = transformed(paths, transform) { return value }
        return slow().value(paths: paths, transform: transform, property: property)
    }

    /// Reads an optional property through a ``ValueTransform``.
    @inlinable
    public mutating func optional<X: ValueTransform>(
        paths: [JSONPath], transform: X, property: String, default initial: @autoclosure () -> X.Value? = nil
    ) -> X.Value? {
        var sawValue = false
        for path in paths {
            guard let index = locate(path) else { continue }
            sawValue = true
            if let value = transformed(at: index, transform) { return value }
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

    /// The member's value token when present and not null (``findAllowingNull(_:)``).
    @inlinable @inline(__always)
    mutating func find(_ key: String) -> Int? {
        guard let found = findAllowingNull(key), tokens[found].kind != .null else { return nil }
        return found
    }

    /// ``find(_:)``, by the key's slot (``KilnKeySlots``) once the members are filed: one load,
    /// no key compared, the look-up hint left where it is. Until then the key is tried at the
    /// hint, and the first miss files the members.
    @inlinable @inline(__always)
    mutating func find(_ key: String, slot: Int32) -> Int? {
        if let filed = filedMember(slot) { return filed }
        if let found = key.utf8.withContiguousStorageIfAvailable({ memberAtHint(UnsafeRawBufferPointer($0)) }) ?? nil {
            advanceHint(past: found)
            return tokens[found].kind == .null ? nil : found
        }
        return findAwayFromHint(key, slot: slot)
    }

    /// The value token of the first of `key` and `alternate` that is present and not null, each
    /// found by its slot (``find(_:slot:)``, ``findAlternate(_:slot:)``).
    @inlinable @inline(__always)
    mutating func find(_ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> Int? {
        if let found = find(key, slot: slots.key) { return found }
        guard let alternate else { return nil }
        return findAlternate(alternate, slot: slots.alternate)
    }

    /// ``find(_:slot:)`` with only the read of a filed slot inline, for an alternate key: the
    /// look-up at the hint, which an alternate rarely passes, stays out of line.
    @inlinable @inline(__always)
    mutating func findAlternate(_ key: String, slot: Int32) -> Int? {
        if let filed = filedMember(slot) { return filed }
        return findOutOfLine(key, slot: slot)
    }

    /// ``find(_:slot:)`` out of line.
    @usableFromInline @inline(never)
    mutating func findOutOfLine(_ key: String, slot: Int32) -> Int? {
        find(key, slot: slot)
    }

    /// ``find(_:slot:)`` once the hint missed: the slot, once the members are filed when the
    /// model can file them and has not yet; else ``find(_:)``.
    @usableFromInline @inline(never)
    mutating func findAwayFromHint(_ key: String, slot: Int32) -> Int? {
        if slot >= 0, table.isUnfiled, tokens[object].isASCII {
            fileMembers()
            if let filed = filedMember(slot) { return filed }
        }
        return find(key)
    }

    /// The value token filed under `slot` when present and not null, `.some(nil)` when absent or
    /// null; `nil` when the members are not filed or the slot is out of range.
    @inlinable @inline(__always)
    func filedMember(_ slot: Int32) -> Int?? {
        // A slot in range implies a table of slots: `slotCount` is negative for the others.
        guard slot >= 0, Int(slot) < table.slotCount else { return nil }
        let table = self.table
        let found = withContext { $0.memberTables.filedValue(at: Int(slot), in: table) }
        guard found != 0, tokens[found].kind != .null else { return .some(nil) }
        return .some(found)
    }

    /// Files the members under the model's key slots (``KilnFastDecodable/kilnFileMembers(_:)``).
    @usableFromInline
    mutating func fileMembers() {
        model.kilnFileMembers(&self)
    }

    /// Files the members under `Model`'s key slots, when it has them and the object's keys are
    /// plain ASCII.
    @inlinable
    mutating func fileMembers<Model: KilnFastDecodable>(by model: Model.Type) {
        guard table.isUnfiled, tokens[object].isASCII else { return }
        let object = self.object
        table = withContext { $0.memberTables.fileMembers(of: object, in: $0.tape, by: Model.self) }
    }

    /// Moves the look-up hint past the member whose value token is `found`.
    @inlinable @inline(__always)
    mutating func advanceHint(past found: Int) {
        let token = tokens[found]
        hint = token.kind.rawValue >= JSONToken.Kind.object.rawValue ? Int(token.payload) : found + 1
    }

    /// The member's value token when present, `null` included. The member after the one found
    /// last is tried first, in place; then, in an object whose keys are plain ASCII, a scan of its
    /// members (a few) or its ``MemberTable`` (more: the model's key slots, or hashed keys); keys
    /// are compared as Swift strings otherwise.
    @inlinable @inline(__always)
    mutating func findAllowingNull(_ key: String) -> Int? {
        let found: Int?
        switch key.utf8.withContiguousStorageIfAvailable({ lookUpNearHint(UnsafeRawBufferPointer($0)) }) {
        case .found(let atHint)?: found = atHint
        case .absent?: return nil
        case .unknown?, nil: found = findAwayFromHint(key)
        }
        guard let found else { return nil }
        advanceHint(past: found)
        return found
    }

    /// What the cheap look-ups tell of `key`: the member at the hint, or, in an object of a few
    /// plain ASCII keys, its absence by the key filter.
    @usableFromInline
    enum NearHint {
        case found(Int)
        case absent
        case unknown
    }

    @inlinable @inline(__always)
    mutating func lookUpNearHint(_ key: UnsafeRawBufferPointer) -> NearHint {
        if let atHint = memberAtHint(key) { return .found(atHint) }
        if table.isSlotted { return memberInSlots(key) }
        return isAbsentByFilter(key) ? .absent : .unknown
    }

    /// Whether the member key `key` (its UTF-8 bytes) is `literal`, for the generated
    /// ``KilnFastDecodable/kilnMemberKeySlot(_:)``, which has matched the lengths: inlined there,
    /// the literal's bytes become constants.
    @inlinable @inline(__always)
    public static func key(_ key: UnsafeRawBufferPointer, is literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard key.count == count else { return false }
        guard count > 0, let bytes = key.baseAddress else { return true }
        return JSONTape.bytesEqual(bytes, literal.utf8Start, count: count)
    }

    /// The member `key` by the model's key slots, which are filed; `.unknown` for a key without
    /// a slot.
    @inlinable @inline(__always)
    func memberInSlots(_ key: UnsafeRawBufferPointer) -> NearHint {
        let table = self.table
        let model = self.model
        switch withContext({ $0.memberTables.member(key, in: table, of: model) }) {
        case nil: return .unknown
        case 0?: return .absent
        case let found?: return .found(found)
        }
    }

    /// Whether the key filter of an object of a few plain ASCII keys rules `key` out; the filter
    /// is made on first use. Inline: it runs for every Swift name tried before its snake_case
    /// twin.
    @inlinable @inline(__always)
    mutating func isAbsentByFilter(_ key: UnsafeRawBufferPointer) -> Bool {
        let token = tokens[object]
        guard Int(token.aux) <= MemberTable.scanLimit, !table.isUnfiled, token.isASCII, JSONTape.isASCII(key) else { return false }
        if !table.hasFilter {
            let object = self.object
            keyFilter = withContext { $0.tape.keyFilter(of: object) }
            table = .filtered
        }
        return keyFilter & JSONTape.filterBit(key) == 0
    }

    /// The value token of the member at the hint when its key is `key`.
    @inlinable @inline(__always)
    func memberAtHint(_ key: UnsafeRawBufferPointer) -> Int? {
        let start = hint
        guard start < Int(tokens[object].payload) else { return nil }
        let token = tokens[start]
        guard token.kind == .string, Int(token.aux) == key.count,
            JSONTape.bytesEqual(bytes + Int(token.payload), key.baseAddress ?? UnsafeRawPointer(bytes), count: key.count)
        else { return nil }
        return start + 1
    }

    /// ``findAllowingNull(_:)`` once the hint missed.
    @usableFromInline
    mutating func findAwayFromHint(_ key: String) -> Int? {
        if table.isUnfiled, tokens[object].isASCII { fileMembers() }
        var key = key
        let start = hint
        let object = self.object
        let members = Int(tokens[object].aux)
        let model = self.model
        var table = self.table
        var filter = keyFilter
        let found: Int? = withContext { context in
            let tape = context.tape
            var asStrings = false
            let found: Int? = key.withUTF8 { utf8 in
                let raw = UnsafeRawBufferPointer(utf8)
                guard tape.hasPlainKeys(object), JSONTape.isASCII(raw) else {
                    // Escaped keys or text beyond ASCII: byte-wise first, then as Swift strings.
                    if let found = tape.member(of: object, key: raw, hint: start) { return found }
                    asStrings = true
                    return nil
                }
                if table.isSlotted {
                    switch context.memberTables.member(raw, in: table, of: model) {
                    case 0?: return nil
                    case let found?: return found
                    // A key without a slot.
                    case nil: return tape.member(of: object, key: raw, hint: start)
                    }
                }
                if members <= MemberTable.scanLimit {
                    if !table.hasFilter {
                        filter = tape.keyFilter(of: object)
                        table = .filtered
                    }
                    guard filter & JSONTape.filterBit(raw) != 0 else { return nil }
                    return tape.member(of: object, key: raw, hint: start)
                }
                if !table.isBuilt { table = context.memberTables.build(of: object, in: tape) }
                return context.memberTables.member(raw, in: table, of: tape)
            }
            return found ?? (asStrings ? context.equivalentMember(of: object, key: key) : nil)
        }
        self.table = table
        keyFilter = filter
        return found
    }

    /// The value token at a path (`author.name`, `images[0].url`), when present and not null.
    @inlinable
    func locate(_ path: JSONPath) -> Int? {
        guard case .value(let index) = location(of: path) else { return nil }
        return index
    }

    /// Where a path leads from this object, by the document's one walk (`JSONTape.locate`),
    /// finding keys with the decode's look-up hint. The empty path leads nowhere: a property is
    /// never the object itself.
    @usableFromInline
    func location(of path: JSONPath) -> JSONLocation {
        let components = path.components
        guard !components.isEmpty else { return .absent(step: 0, from: object) }
        let object = self.object
        return withContext { context in context.tape.locate(components, from: object) { context.member(of: $0, key: $1) } }
    }

    @inlinable @inline(__always)
    mutating func read<T: Decodable>(_ type: T.Type, _ key: String, slot: Int32) -> Outcome<T> {
        guard let index = find(key, slot: slot) else { return .absent }
        if let common = common(T.self, at: index) { return common.map { .value($0) } ?? .unusable }
        guard let value = knownCase(T.self, at: index) ?? strictOther(T.self, at: index) else { return .unusable }
        return .value(value)
    }

    @inlinable @inline(__always)
    mutating func read<T: Decodable>(_ type: T.Type, path: JSONPath) -> Outcome<T> {
        guard let index = locate(path) else { return .absent }
        guard let value = strict(T.self, at: index) else { return .unusable }
        return .value(value)
    }

    /// The value when the first present key has it as `T`, or has it in the form of one of the
    /// common coercions (``plainCoercion(_:at:)``, logged as the tolerant read logs it); `nil`
    /// when the tolerant rules must decide. A read that gives `nil` leaves the look-up hint where
    /// it was, so that the tolerant rules find the keys again where this read found them, at the
    /// hint, rather than by a search.
    @inlinable @inline(__always)
    mutating func fast<T: Decodable>(_ type: T.Type, _ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> T? {
        let start = hint
        var found = find(key, slot: slots.key)
        var atAlternate = false
        if found == nil, let alternate {
            found = findAlternate(alternate, slot: slots.alternate)
            atAlternate = true
        }
        guard let index = found else {
            hint = start
            return nil
        }
        // `strict(_:at:)` in its two parts, so that the common types never copy the reader.
        if let common = common(T.self, at: index) {
            if let value = common { return value }
        } else if let value = knownCase(T.self, at: index) ?? strictOther(T.self, at: index) {
            return value
        }
        // What the tolerant read would come to here, without finding the keys again.
        if let value = plainCoercion(T.self, at: index) {
            if withContext({ $0.isRecording }) { recordCoercion(.of(value), T.self, at: index, key: key, alternate: atAlternate ? alternate : nil) }
            return value
        }
        hint = start
        return nil
    }

    /// The value at the first of `paths` that holds one, when it is a `T`; `.failed` when every
    /// path is absent or `null` (noted in `miss`, as ``firstUsable(_:_:miss:)`` notes them, for
    /// ``settle(_:_:_:initial:delegate:)``); `.delegate` when a value must go through the
    /// tolerant rules.
    @inlinable
    func fast<T: Decodable>(_ type: T.Type, _ paths: [JSONPath], miss: inout Repair.Miss<(index: Int, path: Int)>) -> Salvage<T> {
        for (position, path) in paths.enumerated() {
            switch location(of: path) {
            case .absent: continue
            case .null(let index): miss.sawNull((index, position))
            case .value(let index):
                guard let value = strict(T.self, at: index) else { return .delegate }
                return .value(value)
            }
        }
        return .failed
    }

    /// The nested model at the first present key, read through its own fast path; `nil`, with the
    /// look-up hint where it was (``fast(_:_:_:_:)``), when that key holds no object.
    @inlinable
    mutating func fastModel<T: KilnFastDecodable>(_ type: T.Type, _ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> T? {
        let start = hint
        guard let index = find(key, alternate, slots), tokens[index].kind == .object else {
            hint = start
            return nil
        }
        var children = ChildModels(T.self, of: self)
        let (value, filed) = withUnsafeMutablePointer(to: &self) { me in
            var child = children.reader(object: index, place: .keyToken(Int32(truncatingIfNeeded: index - 1)), below: me)
            return (T(kiln: &child), child.table.isSlotted)
        }
        children.ended(filed: filed)
        children.finish()
        return value
    }

    @inlinable
    mutating func fastModels<E: KilnFastDecodable>(_ type: E.Type, _ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> [E]? {
        guard let index = find(key, alternate, slots) else { return nil }
        let tokens = self.tokens
        let array = tokens[index]
        guard array.kind == .array else { return nil }
        let end = Int(array.payload)
        var i = index + 1
        while i < end {
            guard tokens[i].kind == .object else { return nil }
            i = Int(tokens[i].payload)
        }
        guard array.aux > 0 else { return [] }
        var items: [E] = []
        items.reserveCapacity(Int(array.aux))
        i = index + 1
        var position = 0
        let list = Int32(truncatingIfNeeded: index - 1)
        var children = ChildModels(E.self, of: self)
        withUnsafeMutablePointer(to: &self) { me in
            while i < end {
                var child = children.reader(object: i, place: .element(list: list, position: Int32(truncatingIfNeeded: position)), below: me)
                items.append(E(kiln: &child))
                children.ended(filed: child.table.isSlotted)
                i = Int(tokens[i].payload)
                position += 1
            }
        }
        children.finish()
        return items
    }

    /// The `[String: V]` at the first present key, each member's value read through `V`'s fast
    /// path, as `Dictionary`'s own decode reads them (``StringKeyedDictionary``: of two members
    /// with one key, the first is read and kept); `nil`, with the look-up hint where it was,
    /// when that key holds no object or a member's value is not an object (the generic read then
    /// decides, with its repairs).
    @inlinable
    mutating func fastModelDictionary<V: KilnFastDecodable>(_ type: V.Type, _ key: String, _ alternate: String?, _ slots: KilnKeySlots) -> [String: V]? {
        let start = hint
        let tokens = self.tokens
        guard let index = find(key, alternate, slots), tokens[index].kind == .object else {
            hint = start
            return nil
        }
        let end = Int(tokens[index].payload)
        // Members are a key token and the value's; a value that is an object ends before the
        // token its payload names.
        var i = index + 1
        while i < end {
            guard tokens[i + 1].kind == .object else {
                hint = start
                return nil
            }
            i = Int(tokens[i + 1].payload)
        }
        var result = [String: V](minimumCapacity: Int(tokens[index].aux))
        let bytes = self.bytes
        // A key strategy sends the decode down the `Decoder` path: the members' steps are named
        // as under the default one (``Place/member(dictionary:key:)``).
        assert(withContext { !$0.convertsKeys })
        let dictionary = Int32(truncatingIfNeeded: index - 1)
        var children = ChildModels(V.self, of: self)
        withUnsafeMutablePointer(to: &self) { me in
            i = index + 1
            while i < end {
                let key = JSONTape.string(tokens[i], in: bytes)
                if result.index(forKey: key) == nil {
                    var child = children.reader(object: i + 1, place: .member(dictionary: dictionary, key: Int32(truncatingIfNeeded: i)), below: me)
                    result[key] = V(kiln: &child)
                    children.ended(filed: child.table.isSlotted)
                }
                i = Int(tokens[i + 1].payload)
            }
        }
        children.finish()
        return result
    }

    /// Reads nested models of `T` below a reader, one after another (a model's nested model, a
    /// list's elements, a dictionary's values): each with ``reader(object:place:below:)`` and
    /// ``ended(filed:)``, then ``finish()``. Objects of a model are alike: once one has filed its
    /// members under the model's key slots (its keys were not where the model looked first), the
    /// next one files them at once, here and in the next read of `T` anywhere in the decode.
    @usableFromInline
    struct ChildModels<T: KilnFastDecodable> {
        @usableFromInline let context: Unmanaged<KilnDecodingContext>
        /// The member tables' top before the first child: each child's tables go when it ends.
        @usableFromInline let mark: Int
        /// Whether the next child files its members at once: whether the last one did.
        @usableFromInline var fileAtOnce: Bool

        @inlinable @inline(__always)
        init(_ type: T.Type, of parent: KilnObjectReader) {
            context = parent.unmanagedContext
            (mark, fileAtOnce) = parent.withContext { ($0.memberTables.top, $0.memberTables.filesAtOnce(T.self)) }
        }

        /// The reader of the object token `object`, which sits at `place` below `parent`: the
        /// reader, pinned by `withUnsafeMutablePointer(to:)`, that outlives the child and is
        /// pointed to for its path. ``ended(filed:)`` follows the child's read.
        @inlinable @inline(__always)
        func reader(object: Int, place: Place, below parent: UnsafeMutablePointer<KilnObjectReader>) -> KilnObjectReader {
            var child = KilnObjectReader(context: context, object: object, parent: .reader(parent), place: place, model: T.self)
            if fileAtOnce { child.fileMembers(by: T.self) }
            return child
        }

        /// Ends a child's read: `filed`, whether it filed its members (`table.isSlotted`); its
        /// member tables go.
        @inlinable @inline(__always)
        mutating func ended(filed: Bool) {
            fileAtOnce = filed
            // Through the borrowed context: holding the tables would retain them.
            context._withUnsafeGuaranteedRef { $0.memberTables.top = mark }
        }

        /// Notes, for the next read of `T`, whether the last child filed its members.
        @inlinable @inline(__always)
        func finish() {
            context._withUnsafeGuaranteedRef { $0.memberTables.noteFiling(T.self, filed: fileAtOnce) }
        }
    }

    /// The transformed value at the first present path, when the transform read it without a
    /// repair; otherwise `nil`, and the tolerant container reads and logs it again.
    @inlinable
    func transformed<X: ValueTransform>(_ paths: [JSONPath], _ transform: X) -> X.Value? {
        for path in paths {
            guard let index = locate(path) else { continue }
            return transformed(at: index, transform)
        }
        return nil
    }

    @inlinable
    func transformed<X: ValueTransform>(at index: Int, _ transform: X) -> X.Value? {
        var transformContext = TransformContext(policy: context.session.policy)
        let value = transform.decode(context.tape.decodedValue(at: index), context: &transformContext)
        return transformContext.repairs.isEmpty ? value : nil
    }

    /// What an optional gets when no key is present: `nil` with nothing to log, unless a default
    /// could apply (then `nil` here, and the tolerant rules decide).
    @inlinable
    func absentOptional<T>(_ initial: () -> T?) -> T?? {
        guard !withContext({ $0.hasCustomDefaults }), case .none = initial() else { return nil }
        return .some(nil)
    }

    /// Reads `T` at `index` as Foundation would, without throwing on the common types.
    @inlinable @inline(__always)
    func strict<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
        if let common = common(T.self, at: index) { return common }
        return strictOther(T.self, at: index)
    }

    /// ``strict(_:at:)`` for the common types (`String`, `Int`, `Bool`, `Double`, `Int64`,
    /// `[String]`, `URL`, `UUID`, `Date`, `Decimal` and lists of numbers): `.some` with the value or `nil`; `nil` for any other
    /// type. Apart, so that a mutating caller reads only the fields it needs: the call to
    /// ``strictOther(_:at:)`` takes the whole reader, and where it is reached the reader is
    /// copied first.
    @inlinable @inline(__always)
    func common<T: Decodable>(_ type: T.Type, at index: Int) -> T?? {
        // The scalars from the token and bytes the reader holds, not through the context's tape.
        let token = tokens[index]
        let bytes = self.bytes
        return withContext { context in
            if T.self == String.self {
                return .some(KilnDecodingContext.string(token, in: bytes).map { unsafeBitCast($0, to: T.self) })
            }
            if T.self == Int.self {
                guard case .some(.some(let value)) = context.integer(Int.self, token, at: index) else { return .some(nil) }
                return .some(unsafeBitCast(value, to: T.self))
            }
            if T.self == Bool.self {
                return .some(KilnDecodingContext.bool(token).map { unsafeBitCast($0, to: T.self) })
            }
            if T.self == Double.self {
                return .some((context.double(at: index) ?? context.nonConformingFloat(at: index)).map { unsafeBitCast($0, to: T.self) })
            }
            if T.self == Int64.self {
                guard case .some(.some(let value)) = context.integer(Int64.self, token, at: index) else { return .some(nil) }
                return .some(unsafeBitCast(value, to: T.self))
            }
            if T.self == URL.self {
                // As `decodeValue` reads it, without the path it makes for an error.
                return .some(KilnDecodingContext.string(token, in: bytes).flatMap { URL(string: $0) }.map { unsafeBitCast($0, to: T.self) })
            }
            if T.self == Date.self, let date = context.plainDate(at: index) {
                // Any other value goes on to the date strategy's full rules.
                return .some(unsafeBitCast(date, to: T.self))
            }
            if T.self == Decimal.self, case .some(.some(let decimal)) = context.decimal(at: index) {
                return .some(unsafeBitCast(decimal, to: T.self))
            }
            if T.self == UUID.self, let uuid = KilnDecodingContext.uuid(token, in: bytes) {
                // Any other value goes on to `UUID`'s own decoding, for its answer.
                return .some(unsafeBitCast(uuid, to: T.self))
            }
            // The list types' tests are casts at run time for some types (enums, read from
            // strings): not for a string.
            if token.kind == .string { return nil }
            if T.self is [String].Type {
                return .some(context.stringArray(at: index).map { unsafeBitCast($0, to: T.self) })
            }
            if let numbers = context.numberArray(T.self, at: index) { return .some(numbers) }
            return nil
        }
    }

    @usableFromInline
    func strictOther<T: Decodable>(_ type: T.Type, at index: Int) -> T? {
        // `[String: Value]` straight from the object's members: no keyed container, coding key
        // per member or look-up of each key. Only here, where the property's type is known to
        // be worth the check; `decodeValue` serves every type of the `Decoder` path.
        if tokens[index].kind == .object, let dictionary = T.self as? any StringKeyedDictionary.Type {
            let context = self.context
            let node = KilnPathNode(parent: objectNode(), step: .keyToken(index - 1))
            return (try? dictionary.decodeKeepingKeys(in: context, at: index, node: node)) as? T
        }
        return try? context.decodeValue(T.self, at: index, objectNode(), .keyToken(index - 1))
    }

    /// This object's ``node()``, kept by the context for the object's next value read through a
    /// decoder of its own (a model's plain enums, say), rather than made for each.
    func objectNode() -> KilnPathNode? {
        if let cachedNode { return cachedNode.takeUnretainedValue() }
        let context = self.context
        if context.strictNodeObject == object { return context.strictNode }
        let parentNode = self.parentNode()
        guard let step = place.step(in: context.tape) else {
            context.strictNodeObject = object
            context.strictNode = parentNode
            return parentNode
        }
        return context.strictNode(of: object, parent: parentNode, step: step)
    }

    /// A case of a `FallbackEnum` by its raw value, without a `Decoder` and the path node it
    /// would carry: what the enum's `init(from:)` reads first; `nil` for any other type or value,
    /// which ``strictOther(_:at:)`` reads. Inlined where `T` is known, so that the enum's look-up
    /// is specialized; apart from ``common(_:at:)``, whose types never need the test.
    /// `knownCase(…) ?? strictOther(…)` is written out at its two callers: a helper holding it
    /// changed what Swift inlines around them (a nested model's read outlined, 3% more
    /// instructions on the issues payload).
    @inlinable @inline(__always)
    func knownCase<T>(_ type: T.Type, at index: Int) -> T? {
        let token = tokens[index]
        guard token.kind == .string || token.kind == .escapedString || token.kind == .int,
            withContext({ $0.isFallbackEnum(T.self) }), let fallback = T.self as? any FallbackEnum.Type
        else {
            return nil
        }
        return Self.knownCase(fallback, as: T.self, token, in: bytes)
    }

    /// ``FallbackEnum/knownCase(_:in:)`` of `E`, which is `T`.
    @inlinable
    static func knownCase<E: FallbackEnum, T>(_ type: E.Type, as: T.Type, _ token: JSONToken, in bytes: UnsafeMutablePointer<UInt8>) -> T? {
        E.knownCase(token, in: bytes).map { unsafeBitCast($0, to: T.self) }
    }

    /// This object's coding-path node, made on first use.
    @usableFromInline
    func node() -> KilnPathNode? {
        if let cachedNode { return cachedNode.takeUnretainedValue() }
        let parentNode = self.parentNode()
        guard let step = place.step(in: context.tape) else { return parentNode }
        return KilnPathNode(parent: parentNode, step: step)
    }

    /// The node this object's node is a step below (its own, when ``place`` is no step).
    func parentNode() -> KilnPathNode? {
        switch parent {
        case .node(let node): return node?.takeUnretainedValue()
        case .reader(let reader):
            switch place {
            case .element(let key, _), .member(let key, _): return reader.pointee.sharedListNode(Int(key))
            default: return reader.pointee.sharedNode()?.takeUnretainedValue()
            }
        }
    }

    /// The node of this object's list (or dictionary) member whose key is the string token at
    /// `key`, made once for all its elements and kept by the context.
    @usableFromInline
    mutating func sharedListNode(_ key: Int) -> KilnPathNode {
        if listKey == key, let listNode { return listNode.takeUnretainedValue() }
        let made = KilnPathNode(parent: sharedNode()?.takeUnretainedValue(), step: .keyToken(key))
        listNode = context.keep(made)
        listKey = key
        return made
    }

    /// This object's coding-path node, made once and kept by the context until the decode ends.
    @usableFromInline
    mutating func sharedNode() -> Unmanaged<KilnPathNode>? {
        if let cachedNode { return cachedNode }
        cachedNode = node().map { context.keep($0) }
        return cachedNode
    }

    @inlinable
    static func keys(_ key: String, _ alternate: String?) -> [JSONPath] {
        guard let alternate else { return [JSONPath([.key(key)])] }
        return [JSONPath([.key(key)]), JSONPath([.key(alternate)])]
    }

    /// The tolerant container for this object: where every repair is made and logged.
    @usableFromInline
    func slow() -> ModelDecodingContainer {
        ModelDecodingContainer(kilnObject: KilnKeyedContainer(context: context, object: object, node: node()), session: context.session, model: model)
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

extension JSONTape {
    /// One bit per key, from its length and its first and last bytes.
    @inlinable @inline(__always)
    static func filterBit(_ key: UnsafeRawBufferPointer) -> UInt64 {
        let first = UInt64(key.first ?? 0)
        let last = UInt64(key.last ?? 0)
        return 1 << ((UInt64(key.count) &* 31 &+ first &* 7 &+ last) & 63)
    }

    /// The key filter of the object at `object`, whose keys are plain ASCII.
    @usableFromInline
    func keyFilter(of object: Int) -> UInt64 {
        let end = Int(tokens[object].payload)
        var filter: UInt64 = 0
        var i = object + 1
        while i < end {
            filter |= JSONTape.filterBit(UnsafeRawBufferPointer(rawBytes(at: i)))
            i = next(after: i + 1)
        }
        return filter
    }
}

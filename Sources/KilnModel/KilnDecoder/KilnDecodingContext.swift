import Foundation

/// What every decoder and container of one decode shares: the tape, the session, `userInfo`,
/// and the look-up hint that makes in-order key reads one step each.
@usableFromInline
final class KilnDecodingContext {
    @usableFromInline let tape: JSONTape
    @usableFromInline let session: DecodingSession
    let userInfo: [CodingUserInfoKey: Any]
    /// Whether the policy sets any default: when not, an absent optional is simply `nil`.
    @usableFromInline let hasCustomDefaults: Bool
    /// Whether optional `FallbackEnum` properties read unknown values as `nil` (the policy's choice).
    @usableFromInline let unknownEnumIsNil: Bool
    /// The session's ``DecodingSession/isRecording``, a flag to test on the fast path.
    @usableFromInline let isRecording: Bool
    /// Whether `KilnFastDecodable` models take their fast path (`KilnDecoder.usesFastPath`).
    let usesFastPath: Bool
    /// The decoder's `JSONDecoder`-style strategies.
    let strategies: KilnDecodingStrategies
    /// Whether strings may stand for non-finite floats (checked only after a number failed).
    @usableFromInline let convertsNonConformingFloats: Bool
    /// Whether keys are converted before matching (`keyDecodingStrategy`).
    @usableFromInline let convertsKeys: Bool
    /// The layouts of converted keys met so far under `.convertFromSnakeCase`, shared by the
    /// objects whose keys are written alike (``convertedMembers(of:codingPath:)``), at most
    /// `keptLayouts` of them. A search starts at `lastLayout`, the one matched last; when all
    /// are taken, a new one replaces `replacedLayout`, in turn.
    private var keyLayouts: [ConvertedKeyLayout] = []
    private var lastLayout = 0
    private var replacedLayout = 0
    private static let keptLayouts = 32
    /// The converted members of the objects being read, by object: a direct-mapped cache as
    /// ``hint`` is (slot = object mod 64), made on the first converted look-up.
    @exclusivity(unchecked) private var convertedSlots: [ConvertedMembers?] = []
    /// Per object whose keys are not all plain ASCII, its keys as Swift strings and their value
    /// tokens, built on first use (``equivalentMember(of:key:)``).
    var equivalentMembers: [Int: [String: Int]] = [:]
    /// Per object, the key token after the member found last: models and dictionaries read keys
    /// mostly in document order, so the next look-up usually succeeds at the hint. A small
    /// direct-mapped cache (`[object, hint]` pairs, slot = object mod 64), so a nested decode does
    /// not evict its parent's hint; raw memory, so that non-mutating container methods can update
    /// it without exclusivity checks.
    @usableFromInline let hint: UnsafeMutablePointer<Int>
    @usableFromInline static let hintSlots = 64
    /// The key tables of the objects ``KilnObjectReader``s are reading.
    @usableFromInline let memberTables = MemberTables()
    /// The object whose path node ``KilnObjectReader/objectNode()`` made last, and the node.
    var strictNodeObject = -1
    @exclusivity(unchecked) var strictNode: KilnPathNode?
    /// Path nodes that ``KilnObjectReader``s refer to without reference counting, kept until the
    /// decode ends. Only the decode's own thread touches them.
    @exclusivity(unchecked) var keptNodes: [KilnPathNode] = []
    /// Which types read lately are ``FallbackEnum``s (``isFallbackEnum(_:)``), models with a fast
    /// path (``fastModel(_:)``) and lists of them (``fastModelListType(_:)``).
    @exclusivity(unchecked) @usableFromInline var fallbackEnums = ConformanceMemo<Bool>()
    @exclusivity(unchecked) private var fastModels = ConformanceMemo<(any KilnFastDecodable.Type)?>()
    @exclusivity(unchecked) private var fastModelLists = ConformanceMemo<(any KilnFastModelList.Type)?>()

    init(
        tape: JSONTape, session: DecodingSession, userInfo: [CodingUserInfoKey: Any], usesFastPath: Bool,
        strategies: KilnDecodingStrategies = KilnDecodingStrategies()
    ) {
        self.tape = tape
        self.session = session
        self.userInfo = userInfo
        self.usesFastPath = usesFastPath
        self.strategies = strategies
        if case .convertFromString = strategies.nonConformingFloat {
            convertsNonConformingFloats = true
        } else {
            convertsNonConformingFloats = false
        }
        convertsKeys = !strategies.usesDefaultKeys
        self.hasCustomDefaults = session.policy.hasCustomDefaults
        self.unknownEnumIsNil = session.unknownEnumIsNil
        self.isRecording = session.isRecording
        self.hint = .allocate(capacity: 2 * Self.hintSlots)
        hint.initialize(repeating: -1, count: 2 * Self.hintSlots)
    }

    deinit { hint.deallocate() }

    /// `type is any FallbackEnum.Type`, remembered for the decode: asked for every value of an
    /// enum. Most enums are plain `Codable` ones, whose failed cast (the runtime's search of its
    /// conformances) cost as much as reading the case; the reader casts a `FallbackEnum` itself,
    /// where Swift sees the type and specializes the case's look-up.
    @inlinable @inline(__always)
    func isFallbackEnum(_ type: Any.Type) -> Bool {
        fallbackEnums.remembered(type) ?? learnIsFallbackEnum(type)
    }

    /// ``isFallbackEnum(_:)`` of a type not remembered.
    @usableFromInline @inline(never)
    func learnIsFallbackEnum(_ type: Any.Type) -> Bool {
        fallbackEnums.remember(type) { $0 is any FallbackEnum.Type }
    }

    /// `type as? any KilnFastDecodable.Type`, remembered for the decode: asked for every element
    /// of a list read through the `Decoder` protocol.
    func fastModel(_ type: Any.Type) -> (any KilnFastDecodable.Type)? {
        fastModels.remembered(type) ?? fastModels.remember(type) { $0 as? any KilnFastDecodable.Type }
    }

    /// `type as? any KilnFastModelList.Type` (a list of models with a fast path), remembered for
    /// the decode: asked for every list read through the `Decoder` protocol.
    @inline(__always)
    func fastModelListType(_ type: Any.Type) -> (any KilnFastModelList.Type)? {
        fastModelLists.remembered(type) ?? fastModelLists.remember(type) { $0 as? any KilnFastModelList.Type }
    }

    /// The path node of `object`, the step `step` below `parent`, for
    /// ``KilnObjectReader/objectNode()``: the node made for the object before, when nothing holds
    /// it any more (no decoder, container, child node or repair; a reader that refers to it
    /// unretained runs inside a call that holds it), made this one; else a new node. One
    /// allocation and release fewer for each object whose values go through decoders of their own
    /// (the plain enums of a list of models).
    func strictNode(of object: Int, parent: KilnPathNode?, step: KilnPathNode.Step) -> KilnPathNode {
        strictNodeObject = object
        if isKnownUniquelyReferenced(&strictNode), let node = strictNode {
            node.reset(parent: parent, step: step)
            return node
        }
        let made = KilnPathNode(parent: parent, step: step)
        strictNode = made
        return made
    }

    /// Keeps `node` alive until the decode ends, for readers that refer to it unretained.
    @usableFromInline
    func keep(_ node: KilnPathNode) -> Unmanaged<KilnPathNode> {
        keptNodes.append(node)
        return .passUnretained(node)
    }

    /// The members of `object` under the keys the key strategy converts its keys to. Under
    /// `.convertFromSnakeCase` the layout is shared with the objects before it whose keys were
    /// written alike; a custom strategy, whose answer may depend on the coding path, converts
    /// each object's keys anew.
    func convertedMembers(of object: Int, codingPath: () -> [any CodingKey]) -> ConvertedMembers {
        let slot = object & (Self.hintSlots - 1)
        if convertedSlots.isEmpty {
            convertedSlots = Array(repeating: nil, count: Self.hintSlots)
        } else if let members = convertedSlots[slot], members.object == object {
            return members
        }
        let layout: ConvertedKeyLayout
        if case .convertFromSnakeCase = strategies.key {
            layout = sharedLayout(of: object)
        } else {
            layout = ConvertedKeyLayout(of: object, in: tape) { convertKey($0, codingPath) }
        }
        let members = ConvertedMembers(layout, object: object, in: tape)
        convertedSlots[slot] = members
        return members
    }

    /// The snake_case layout of `object`: one met before, searched from the one matched last
    /// (objects come in the same order from one element of a list to the next), else a new one.
    private func sharedLayout(of object: Int) -> ConvertedKeyLayout {
        let count = keyLayouts.count
        var i = lastLayout
        for _ in 0..<count {
            if keyLayouts[i].fits(object, in: tape) {
                lastLayout = i
                return keyLayouts[i]
            }
            i = i + 1 == count ? 0 : i + 1
        }
        let made = ConvertedKeyLayout(of: object, in: tape) { SnakeCaseKeys.camelCased($0) }
        if count < Self.keptLayouts {
            keyLayouts.append(made)
            lastLayout = count
        } else {
            keyLayouts[replacedLayout] = made
            lastLayout = replacedLayout
            replacedLayout = (replacedLayout + 1) % Self.keptLayouts
        }
        return made
    }

    /// The value token of the member of `object` whose key equals `key` as Swift strings do
    /// (a precomposed "é" is "e" and a combining accent), the first when several do, as in
    /// Foundation. For objects whose keys are not all plain ASCII, and for keys outside ASCII
    /// that the byte-wise look-up missed.
    @usableFromInline
    func equivalentMember(of object: Int, key: String) -> Int? {
        if let known = equivalentMembers[object] { return known[key] }
        let map = firstMembers(of: object) { $0 }
        equivalentMembers[object] = map
        return map[key]
    }

    /// The members of `object` under `name(key)`, each name at its first member.
    private func firstMembers(of object: Int, named name: (String) -> String) -> [String: Int] {
        // Room for every member (the object's token counts them), so the table is never resized.
        var map = [String: Int](minimumCapacity: Int(tape.tokens[object].aux))
        var i = object + 1
        let end = Int(tape.tokens[object].payload)
        while i < end {
            let named = name(tape.string(at: i))
            if map[named] == nil { map[named] = i + 1 }
            i = tape.next(after: i + 1)
        }
        return map
    }

    /// A key of the document as the key strategy turns it into a coding key's string.
    func convertKey(_ key: String, _ codingPath: () -> [any CodingKey]) -> String {
        switch strategies.key {
        case .useDefaultKeys: key
        case .convertFromSnakeCase: SnakeCaseKeys.camelCased(key)
        case .custom(let convert): convert(codingPath() + [AnyCodingKey(key)]).stringValue
        @unknown default: key
        }
    }

    /// The kind at `index`; an absent value (index -1) reads as `null`.
    @inlinable @inline(__always)
    func kind(_ index: Int) -> JSONToken.Kind {
        index >= 0 ? tape.tokens[index].kind : .null
    }

    /// The value token of member `key` in the object at `object`, or `nil`.
    @inlinable
    func member(of object: Int, key: String) -> Int? {
        guard tape.hasPlainKeys(object) else { return equivalentMember(of: object, key: key) }
        var bytes = key
        let slot = hint + 2 * (object & (Self.hintSlots - 1))
        let start = slot[0] == object ? slot[1] : 0
        // Plain ASCII keys equal an ASCII key as strings only when their bytes do: after a miss,
        // only a key beyond ASCII (the Kelvin sign is "K") is compared again as a Swift string.
        var asciiKey = true
        let found =
            bytes.withUTF8 { utf8 in
                let raw = UnsafeRawBufferPointer(utf8)
                if let found = tape.member(of: object, key: raw, hint: start) { return found }
                asciiKey = JSONTape.isASCII(raw)
                return nil
            } ?? (asciiKey ? nil : equivalentMember(of: object, key: key))
        if let found {
            slot[0] = object
            slot[1] = tape.next(after: found)
        }
        return found
    }
}

// MARK: - Coding paths

/// One step of a coding path, kept as cheaply as possible until someone asks for the path.
@usableFromInline
final class KilnPathNode {
    @usableFromInline
    enum Step {
        /// A member whose key is the string token at this index.
        case keyToken(Int)
        /// A member that is absent from the document.
        case key(String)
        /// An array element.
        case index(Int)
        /// A member read through a key with an integer value (the key's string is at the token).
        case integerKey(Int, Int)
    }

    private(set) var parent: KilnPathNode?
    private(set) var step: Step

    @usableFromInline
    init(parent: KilnPathNode?, step: Step) {
        self.parent = parent
        self.step = step
    }

    /// Makes this node the step `step` below `parent`: only for a node nothing else holds
    /// (``KilnDecodingContext/strictNode(of:parent:step:)``), as every other node is immutable.
    func reset(parent: KilnPathNode?, step: Step) {
        self.parent = parent
        self.step = step
    }

    /// The path from the root to this node.
    func components(in tape: JSONTape) -> [JSONPath.Component] {
        var reversed: [JSONPath.Component] = []
        var node: KilnPathNode? = self
        while let current = node {
            reversed.append(current.ownComponent(in: tape))
            node = current.parent
        }
        return reversed.reversed()
    }

    /// This node's own step as a path component.
    func ownComponent(in tape: JSONTape) -> JSONPath.Component {
        step.component(in: tape)
    }

    static func codingPath(_ node: KilnPathNode?, in tape: JSONTape) -> [any CodingKey] {
        guard let node else { return [] }
        return node.components(in: tape).map { component in
            switch component {
            case .key(let key): AnyCodingKey(key)
            case .index(let index): AnyCodingKey(index: index)
            }
        }
    }
}

extension KilnPathNode.Step {
    /// The step to the member `key`, at the string token `token`, of a `[String: Value]`: named
    /// as Foundation's paths name it. Without a key strategy (`convertsKeys` false),
    /// `Dictionary`'s coding key makes a key that reads as an integer one
    /// (`events[138586341]`); under a strategy, the key stays a key (`events.138586341`).
    static func dictionaryMember(_ key: String, at token: Int, convertsKeys: Bool) -> Self {
        convertsKeys ? .keyToken(token) : Int(key).map { .integerKey($0, token) } ?? .keyToken(token)
    }

    /// The step to the member whose key is the string token `token` of `tape`, under the default
    /// key strategy: the one Kiln's readers run under (``KilnObjectReader/Place/member(dictionary:key:)``).
    static func dictionaryMember(at token: Int, in tape: JSONTape) -> Self {
        .dictionaryMember(tape.string(at: token), at: token, convertsKeys: false)
    }

    /// The step as a path component, as a coding path names it.
    func component(in tape: JSONTape) -> JSONPath.Component {
        switch self {
        case .keyToken(let index): return .key(tape.string(at: index))
        case .key(let key): return .key(key)
        case .index(let position): return .index(position)
        case .integerKey(let number, let index):
            let text = tape.string(at: index)
            return text == String(number) ? .index(number) : .key(text)
        }
    }
}

// MARK: - Scalars

extension KilnDecodingContext {
    @inlinable @inline(__always)
    func string(at index: Int) -> String? {
        guard index >= 0 else { return nil }
        return Self.string(tape.tokens[index], in: tape.base)
    }

    /// The string of `token` of the document at `base`, when it is a string: ``string(at:)`` for a
    /// caller that holds the token and the bytes already (``KilnObjectReader``).
    @inlinable @inline(__always)
    static func string(_ token: JSONToken, in base: UnsafeMutablePointer<UInt8>) -> String? {
        guard token.kind == .string || token.kind == .escapedString else { return nil }
        return JSONTape.string(token, in: base)
    }

    @inlinable @inline(__always)
    func bool(at index: Int) -> Bool? {
        Self.bool(index >= 0 ? tape.tokens[index] : nil)
    }

    /// ``bool(at:)`` of a token the caller holds (`nil`: none).
    @inlinable @inline(__always)
    static func bool(_ token: JSONToken?) -> Bool? {
        switch token?.kind {
        case .true?: true
        case .false?: false
        default: nil
        }
    }

    /// The integer at `index`: exact integers, and integral doubles, as Foundation accepts them.
    /// `.none` for another kind; `.some(nil)` for a number that does not fit.
    @inlinable @inline(__always)
    func integer<I: FixedWidthInteger>(_ type: I.Type, at index: Int) -> I?? {
        guard index >= 0 else { return .none }
        return integer(I.self, tape.tokens[index], at: index)
    }

    /// ``integer(_:at:)`` of `token`, the token at `index`, which the caller holds.
    @inlinable @inline(__always)
    func integer<I: FixedWidthInteger>(_ type: I.Type, _ token: JSONToken, at index: Int) -> I?? {
        switch token.kind {
        case .int: return .some(I(exactly: token.payload))
        case .uint: return .some(I(exactly: UInt64(bitPattern: token.payload)))
        // Beyond 64 bits, or written with a fraction or an exponent: the text says exactly.
        case .double: return .some(tape.exactInteger(I.self, at: index))
        default: return .none
        }
    }

    @inlinable @inline(__always)
    func double(at index: Int) -> Double? {
        guard index >= 0 else { return nil }
        let token = tape.tokens[index]
        switch token.kind {
        case .int:
            // `-0` is an `int` token of 0; as a floating-point number it keeps its sign.
            if token.payload == 0, tape.isNegativeNumber(at: index) { return -0.0 }
            return Double(token.payload)
        case .uint: return Double(UInt64(bitPattern: token.payload))
        case .double:
            let value = Double(bitPattern: UInt64(bitPattern: token.payload))
            // A non-zero number too small for Double reads as 0 on the tape; Foundation refuses it.
            if value == 0, tape.underflowed(at: index) { return nil }
            return value
        default: return nil
        }
    }

    /// A string that the non-conforming float strategy reads as infinity or NaN; `nil` for
    /// anything else, and always under the default strategy (which throws).
    @usableFromInline
    func nonConformingFloat(at index: Int) -> Double? {
        guard convertsNonConformingFloats,
            case .convertFromString(let positive, let negative, let nan) = strategies.nonConformingFloat,
            let text = string(at: index)
        else { return nil }
        if text == positive { return .infinity }
        if text == negative { return -.infinity }
        if text == nan { return .nan }
        return nil
    }

    /// The number at `index` as `Float`, rounded once from what was written (never through
    /// `Double`). `.none` for another kind; `.some(nil)` when it overflows or underflows `Float`.
    func float(at index: Int) -> Float?? {
        guard index >= 0 else { return .none }
        let token = tape.tokens[index]
        switch token.kind {
        case .int:
            if token.payload == 0 { return .some(tape.isNegativeNumber(at: index) ? -0.0 : 0) }
            return .some(Float(token.payload))
        case .uint: return .some(Float(UInt64(bitPattern: token.payload)))
        case .double: return .some(tape.exactFloat(at: index))
        default: return .none
        }
    }

    /// The number at `index` as `Decimal`. `.none` for another kind; `.some(nil)` for a number
    /// beyond `Decimal`'s range (Foundation refuses those too).
    @usableFromInline
    func decimal(at index: Int) -> Decimal?? {
        switch kind(index) {
        case .int, .uint, .double: .some(JSONNumberText(tape.numberBytes(at: index)).decimalValue)
        default: .none
        }
    }
}

// MARK: - Errors

extension KilnDecodingContext {
    @usableFromInline
    func mismatch(_ type: Any.Type, at index: Int, path: @autoclosure () -> [any CodingKey]) -> DecodingError {
        let found = index >= 0 ? tape.kindName(at: index) : "null"
        if found == "null" {
            return DecodingError.valueNotFound(type, .init(codingPath: path(), debugDescription: "Expected \(type) value but found null instead."))
        }
        // Foundation's words: "a string", "an array", "a dictionary", "number", "bool".
        let article =
            switch found {
            case "array": "an array"
            case "string", "dictionary": "a " + found
            default: found
            }
        return DecodingError.typeMismatch(type, .init(codingPath: path(), debugDescription: "Expected to decode \(type) but found \(article) instead."))
    }

    /// A number that does not fit is out of range; anything else is the wrong kind.
    @usableFromInline
    func numberError(_ type: Any.Type, at index: Int, path: @autoclosure () -> [any CodingKey]) -> DecodingError {
        switch kind(index) {
        case .int, .uint, .double: outOfRange(type, at: index, path: path())
        default: mismatch(type, at: index, path: path())
        }
    }

    @usableFromInline
    func outOfRange(_ type: Any.Type, at index: Int, path: @autoclosure () -> [any CodingKey]) -> DecodingError {
        DecodingError.dataCorrupted(.init(codingPath: path(), debugDescription: "Number \(tape.numberText(at: index)) does not fit in \(type)."))
    }
}

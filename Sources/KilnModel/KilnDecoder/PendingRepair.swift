/// A repair as Kiln's reader records it while decoding: compact values that point into the
/// document (where the object is, as steps of the tape from a path node; what was found, as a
/// token), the expected type, and places in its log for the tail of the path and the result.
/// ``Repair`` makes its text when a field is read.
///
/// Plain data, stored inline in the session's log (no allocation or reference counting per
/// repair); a ``Repair`` refers to it through an immutable snapshot of that log
/// (``PendingRepairs``).
@usableFromInline
struct PendingRepair {
    /// What the server sent: a token of the tape, or nothing usable.
    @usableFromInline
    enum Found: Hashable {
        case token(Int)
        /// A token that was an integer or a Boolean, kept as its value: it needs nothing of the
        /// document to be shown.
        case integer(Int64)
        case bool(Bool)
        case missing
        case null

        /// What was found at `index`, whose token is `token`: the value itself where it is an
        /// integer or a Boolean.
        @inlinable
        static func value(_ token: JSONToken, at index: Int) -> Found {
            switch token.kind {
            case .int: .integer(token.payload)
            case .true: .bool(true)
            case .false: .bool(false)
            default: .token(index)
            }
        }
    }

    /// The path below the object: usually one key, the property's.
    @usableFromInline
    enum Tail: Hashable {
        case key(String)
        case components([JSONPath.Component])
    }

    /// Where the object is: the node at `node` of the log's tree of places (``PendingRepairChunks``;
    /// `-1`: no step), below the path node at `anchor` of its anchors (`-1`: the root of the
    /// document). A node is a step from its parent node: a key token, or `-1 - position` for an
    /// array element. Steps are 32-bit: a document is under 4 GB
    /// (``JSONTapeBuilder/parse(_:options:inPlace:)``), so its tokens and an array's positions
    /// are under 2^31.
    struct Place {
        var node: Int32 = -1
        var anchor: Int32 = -1

        /// A member's step as the log stores it: its key token.
        static func step(keyToken token: Int) -> Int32 { Int32(truncatingIfNeeded: token) }

        /// An array element's step as the log stores it.
        static func step(element position: Int) -> Int32 { Int32(truncatingIfNeeded: -1 - position) }

        /// A stored step as a path node's step.
        static func step(_ stored: Int32) -> KilnPathNode.Step {
            stored >= 0 ? .keyToken(Int(stored)) : .index(-1 - Int(stored))
        }
    }

    /// The result: a scalar inline, anything else at a place in the log's values.
    enum Result {
        case int(Int)
        case bool(Bool)
        case double(Double)
        case stored(Int)
    }

    // In this order, 48 bytes: `found` and `result` are kept as their payloads, their cases
    // sharing a byte beside `kind`, after `place`'s 8; the object's token is 32-bit, as
    // ``Place``'s nodes and steps are.
    let expected: Any.Type
    private var foundPayload: UInt64 = 0
    private var resultPayload: UInt64 = 0
    private let objectToken: Int32
    /// Set by the log: the tail of the path (a place in its table of tails), the document the
    /// tokens belong to (a place in its list of documents, so that a repair holds no reference
    /// to it), and where the object is.
    fileprivate(set) var tail: UInt32 = 0
    fileprivate(set) var document: Int32 = 0
    fileprivate(set) var place = Place()
    let kind: Repair.Kind
    /// The case of `found` (the low three bits) and of `result` (the two above).
    private var cases: UInt8 = 0

    @usableFromInline
    init(kind: Repair.Kind, object: Int, expected: Any.Type, found: Found) {
        self.kind = kind
        self.objectToken = Int32(truncatingIfNeeded: object)
        self.expected = expected
        self.found = found
    }

    /// The object the repair was made in (its token).
    var object: Int { Int(objectToken) }

    /// What the server sent. Set by the log where it copies what a document read in place
    /// showed (``PendingRepairChunks/readInPlace(_:)``).
    fileprivate(set) var found: Found {
        get {
            switch cases & 0b111 {
            case 0: .token(Int(Int64(bitPattern: foundPayload)))
            case 1: .integer(Int64(bitPattern: foundPayload))
            case 2: .bool(foundPayload != 0)
            case 3: .missing
            default: .null
            }
        }
        set {
            let (tag, payload): (UInt8, UInt64) =
                switch newValue {
                case .token(let token): (0, UInt64(bitPattern: Int64(token)))
                case .integer(let value): (1, UInt64(bitPattern: value))
                case .bool(let value): (2, value ? 1 : 0)
                case .missing: (3, 0)
                case .null: (4, 0)
                }
            foundPayload = payload
            cases = cases & ~0b111 | tag
        }
    }

    /// The value the model ended up with. Set by the log.
    fileprivate(set) var result: Result {
        get {
            switch cases >> 3 {
            case 0: .int(Int(Int64(bitPattern: resultPayload)))
            case 1: .bool(resultPayload != 0)
            case 2: .double(Double(bitPattern: resultPayload))
            default: .stored(Int(Int64(bitPattern: resultPayload)))
            }
        }
        set {
            let (tag, payload): (UInt8, UInt64) =
                switch newValue {
                case .int(let value): (0, UInt64(bitPattern: Int64(value)))
                case .bool(let value): (1, value ? 1 : 0)
                case .double(let value): (2, value.bitPattern)
                case .stored(let place): (3, UInt64(bitPattern: Int64(place)))
                }
            resultPayload = payload
            cases = cases & 0b111 | tag << 3
        }
    }

    /// Whether this repair is the same as `other` but for the tail of the path (with the same
    /// tail, the text would be the same): the same object, kind and type of the same document.
    /// A repair met again when a value is read again is logged once.
    func isSame(as other: PendingRepair) -> Bool {
        object == other.object && kind == other.kind && document == other.document && expected == other.expected
    }

    /// What tells this repair, with `tail`, apart from others.
    func identity(tail: Tail) -> Identity {
        Identity(object: object, kind: kind, document: Int(document), expected: ObjectIdentifier(expected), tail: tail)
    }

    /// What tells repairs apart, for a set of the repairs seen.
    struct Identity: Hashable {
        let object: Int
        let kind: Repair.Kind
        let document: Int
        let expected: ObjectIdentifier
        let tail: Tail
    }
}

/// Pending repairs in order, stored in chunks of a fixed capacity: appending never moves the
/// ones before, and no chunk is large enough for the allocator to map fresh pages for it (a
/// single growing array of thousands of repairs cost more in copies and page faults than the
/// repairs themselves). The repairs are plain data; what they refer to is kept beside them.
struct PendingRepairChunks {
    /// The full chunks, and the one being filled.
    private var chunks: [ContiguousArray<PendingRepair>] = []
    private var current = ContiguousArray<PendingRepair>()
    private(set) var count = 0
    /// A power of two, so that a repair's chunk and place in it are a shift and a mask.
    private static let chunkCapacity = 1 << chunkShift
    private static let chunkShift = 10
    /// The documents the repairs were made in (``PendingRepair/document`` is a place here):
    /// one, unless a session served several decodes.
    private(set) var tapes: [JSONTape] = []
    /// The tails of the repairs' paths (``PendingRepair/tail`` is a place here): a property's
    /// key once, whatever the number of its repairs.
    private var tails: [PendingRepair.Tail] = []
    /// The keys added to `tails` last, by their bits (``TailSlot``).
    private var recentTails: [TailSlot] = []
    /// The results that are not scalars.
    private var values: [RepairValue] = []
    /// The tree of every repair's ``PendingRepair/Place``: each node a step below its parent's.
    /// The repairs of one object share a node, and the objects of one parent their parent's.
    private var nodes: [PlaceNode] = []
    /// The nodes of the objects placed lately, by their object token: a repair's object, and
    /// the parents of the next ones (``node(of:at:below:in:anchor:)``). Made with the first
    /// place, but in a log of one repair.
    private var placedObjects: [PlacedObject] = []
    /// The node made last for a list's key, and what it was made for (the key's token, its
    /// document and anchor): the elements of one list share it.
    private var lastList = Self.noList
    private static let noList = (token: Int32(-1), document: Int32(-1), anchor: UInt(0), node: Int32(-1))
    /// The path nodes places start from: the node a decode started at when it was not the root
    /// of the document (a path of the `Decoder` protocol, or a decode at a key path).
    private var anchors: [KilnPathNode] = []
    /// The place made last, and what it was made for: the object, its document and its anchor.
    private var lastPlace: (object: Int, document: Int, anchor: ObjectIdentifier?, place: PendingRepair.Place)?
    /// The anchor added last, as the place was given it (``anchors`` holds a copy where the
    /// place is in the document read in place).
    private var lastAnchor: KilnPathNode?
    /// What is copied of the document read in place (``readInPlace(_:)``), if any.
    private var inPlace: InPlaceCopies?
    /// Its document (`-1`: none), tested before `inPlace` is touched.
    private var inPlaceDocument = -1

    /// `inPlace` for a call made while the log holds it: a reference taken out of the log
    /// would be retained and released around each call, once or twice per repair.
    private var unretainedInPlace: Unmanaged<InPlaceCopies>? {
        inPlace.map { Unmanaged.passUnretained($0) }
    }

    /// Whether the log holds one repair (what `onRepair` is handed): no chunk is made at its
    /// full size for it.
    private let holdsOne: Bool

    init(holdsOne: Bool = false) {
        self.holdsOne = holdsOne
    }

    /// The place of `tape` in ``tapes``, added if new. Inline for the usual answer, the
    /// document of the repair before.
    @inline(__always)
    mutating func document(_ tape: JSONTape) -> Int {
        let last = tapes.count - 1
        if last >= 0, tapes[last] === tape { return last }
        return documentAdded(tape)
    }

    /// ``document(_:)`` for a document other than the last one.
    private mutating func documentAdded(_ tape: JSONTape) -> Int {
        if let known = tapes.firstIndex(where: { $0 === tape }) { return known }
        tapes.append(tape)
        return tapes.count - 1
    }

    /// `repair` with its document set to `tape`'s.
    @inline(__always)
    mutating func placing(_ repair: PendingRepair, in tape: JSONTape) -> PendingRepair {
        var repair = repair
        repair.document = Int32(truncatingIfNeeded: document(tape))
        return repair
    }

    /// Appends `repair` (its document set by ``placing(_:in:)``), with `tail` and `result`, made
    /// by `reader` in its object.
    @inline(__always)
    mutating func append(_ repair: PendingRepair, tail: PendingRepair.Tail, result: RepairValue, by reader: KilnObjectReader) {
        var repair = repair
        repair.place = place(of: reader, in: Int(repair.document))
        if Int(repair.document) == inPlaceDocument, case .token(let token) = repair.found, let copies = unretainedInPlace {
            repair.found = .token(copies._withUnsafeGuaranteedRef { $0.copy(token) })
        }
        repair.tail = tailPlace(tail)
        switch result {
        case .int(let value): repair.result = .int(value)
        case .bool(let value): repair.result = .bool(value)
        case .double(let value): repair.result = .double(value)
        default:
            repair.result = .stored(values.count)
            values.append(result)
        }
        if current.count == Self.chunkCapacity {
            chunks.append(current)
            current = []
        }
        if current.isEmpty, !holdsOne { current.reserveCapacity(Self.chunkCapacity) }
        current.append(repair)
        count += 1
    }

    /// The place of `tail` in ``tails``, added unless it is a key added lately. Keys are
    /// nearly always the literals of a model's properties: one is known by its bits alone (the
    /// same bits are the same string, and the table keeps it alive, so its memory is not
    /// reused), without comparing text.
    @inline(__always)
    private mutating func tailPlace(_ tail: PendingRepair.Tail) -> UInt32 {
        // The first tail goes in unremembered: a log of one needs no table of slots.
        guard case .key(let key) = tail, !tails.isEmpty else {
            tails.append(tail)
            return UInt32(truncatingIfNeeded: tails.count - 1)
        }
        if recentTails.isEmpty {
            recentTails = Array(repeating: TailSlot(), count: Self.tailSlots)
            if case .key(let first) = tails[0] { remember(TailSlot(first, place: 0)) }
        }
        let slot = TailSlot(key, place: tails.count)
        let index = slot.index(among: Self.tailSlots)
        if recentTails[index].holdsSameBits(as: slot) { return UInt32(truncatingIfNeeded: recentTails[index].place) }
        recentTails[index] = slot
        tails.append(tail)
        return UInt32(truncatingIfNeeded: slot.place)
    }

    private mutating func remember(_ slot: TailSlot) {
        recentTails[slot.index(among: Self.tailSlots)] = slot
    }

    private static let tailSlots = 64

    /// A key of ``tails`` by the bits of its `String`, and its place there.
    private struct TailSlot {
        var low: UInt64 = 0
        var high: UInt64 = 0
        var place = -1

        init() {}

        init(_ key: String, place: Int) {
            #if _pointerBitWidth(_64)
            // A `String` is two words here, read as they are (no copy to memory to read it back).
            (low, high) = unsafeBitCast(key, to: (UInt64, UInt64).self)
            #else
            // A `String` is 12 bytes on 32-bit platforms: the two words overlap there.
            (low, high) = withUnsafeBytes(of: key) { raw in
                (raw.loadUnaligned(as: UInt64.self), raw.loadUnaligned(fromByteOffset: raw.count - 8, as: UInt64.self))
            }
            #endif
            self.place = place
        }

        /// Its slot among `count` (a power of two).
        func index(among count: Int) -> Int {
            let mixed = (low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0x9E37_79B9_7F4A_7C15
            return Int(truncatingIfNeeded: mixed >> 32) & (count - 1)
        }

        func holdsSameBits(as other: TailSlot) -> Bool {
            place >= 0 && low == other.low && high == other.high
        }
    }

    /// A node of the tree of places: a step (in ``PendingRepair/Place``'s form) below `parent`
    /// (`-1`: the place's anchor), the node `depth` steps below the anchor; `integerKey`: the
    /// step is a dictionary's key, an integer where it reads as one.
    private struct PlaceNode {
        let parent: Int32
        let step: Int32
        let depth: Int32
        let integerKey: Bool

        /// The step as a path node's step, read from `tape` for a dictionary's key.
        func pathStep(in tape: JSONTape) -> KilnPathNode.Step {
            guard integerKey else { return PendingRepair.Place.step(step) }
            return .dictionaryMember(at: Int(step), in: tape)
        }
    }

    /// The node of an object placed lately, and what it was placed for: the object's token, its
    /// document, and the bits of its anchor (`0`: none).
    private struct PlacedObject {
        var object: Int32 = -1
        var document: Int32 = -1
        var anchor: UInt = 0
        var node: Int32 = -1
    }

    /// How many objects ``placedObjects`` remembers, each in the slot its token's hash names
    /// (the top bits of a multiplicative hash).
    private static let placedObjectBits = 6
    private static let placedObjectSlots = 1 << placedObjectBits

    /// Where `reader`'s object is, stored once for the repairs of one object made one after
    /// another.
    @inline(__always)
    private mutating func place(of reader: KilnObjectReader, in document: Int) -> PendingRepair.Place {
        let anchor = reader.anchor
        let anchorID = anchor.map { ObjectIdentifier($0.takeUnretainedValue()) }
        if let last = lastPlace, last.object == reader.object, last.document == document, last.anchor == anchorID { return last.place }
        var place = PendingRepair.Place()
        let anchorBits = anchorID.map { UInt(bitPattern: $0) } ?? 0
        place.node = node(of: reader.object, at: reader.place, below: reader.parent, in: document, anchor: anchorBits)
        if let anchor = anchor?.takeUnretainedValue() {
            if lastAnchor !== anchor {
                lastAnchor = anchor
                anchors.append(document == inPlaceDocument ? inPlace?.copy(anchor) ?? anchor : anchor)
            }
            place.anchor = Int32(truncatingIfNeeded: anchors.count - 1)
        }
        lastPlace = (reader.object, document, anchorID, place)
        return place
    }

    /// The node of the object at token `object` of `document`, at `place` below `parent`, from
    /// the path node whose bits are `anchor`: the one made for it lately, or one made below its
    /// parent's node, found the same way. An object's node is made once while its models are
    /// read (the parents of many repairs: a list's elements, a model's nested models), and each
    /// node is one step, not the whole path again.
    ///
    /// Recursive, one call per enclosing reader: the decode that made those readers is as deep.
    private mutating func node(
        of object: Int, at place: KilnObjectReader.Place, below parent: KilnObjectReader.Parent, in document: Int, anchor: UInt
    ) -> Int32 {
        // A log of one repair (what `onRepair` is handed) remembers none.
        let slot = holdsOne ? -1 : Int(truncatingIfNeeded: (UInt32(truncatingIfNeeded: object) &* 0x9E37_79B1) &>> (32 - Self.placedObjectBits))
        let key = PlacedObject(object: Int32(truncatingIfNeeded: object), document: Int32(truncatingIfNeeded: document), anchor: anchor)
        if slot >= 0, !placedObjects.isEmpty {
            let placed = placedObjects[slot]
            if placed.object == key.object, placed.document == key.document, placed.anchor == anchor { return placed.node }
        }
        var node: Int32 = -1
        if case .reader(let up) = parent {
            // Through the pointer, field by field: the reader is not copied.
            node = self.node(of: up.pointee.object, at: up.pointee.place, below: up.pointee.parent, in: document, anchor: anchor)
        }
        switch place {
        case .parent: break
        case .keyToken(let token): node = addNode(below: node, step: PendingRepair.Place.step(keyToken: Int(token)), isKey: true, in: document)
        case .index(let position): node = addNode(below: node, step: PendingRepair.Place.step(element: Int(position)))
        case .element(let list, let position):
            node = addNode(below: listNode(list, below: node, in: document, anchor: anchor), step: PendingRepair.Place.step(element: Int(position)))
        case .member(let dictionary, let member):
            node = addNode(
                below: listNode(dictionary, below: node, in: document, anchor: anchor), step: PendingRepair.Place.step(keyToken: Int(member)),
                isKey: true, in: document, integerKey: true)
        }
        if slot >= 0 {
            if placedObjects.isEmpty { placedObjects = Array(repeating: PlacedObject(), count: Self.placedObjectSlots) }
            var placed = key
            placed.node = node
            placedObjects[slot] = placed
        }
        return node
    }

    /// The node of the list (or dictionary) whose key is the string token `list`, below `parent`,
    /// which its elements share: its key token names it in its document.
    private mutating func listNode(_ list: Int32, below parent: Int32, in document: Int, anchor: UInt) -> Int32 {
        let documentPlace = Int32(truncatingIfNeeded: document)
        if lastList.token == list, lastList.document == documentPlace, lastList.anchor == anchor { return lastList.node }
        let node = addNode(below: parent, step: PendingRepair.Place.step(keyToken: Int(list)), isKey: true, in: document)
        lastList = (list, documentPlace, anchor, node)
        return node
    }

    /// A node for `step` below `parent`. The step of a member's key (`isKey`) in the document
    /// read in place is the excerpt's copy of the key; `integerKey`: a dictionary's key, an
    /// integer where it reads as one (``KilnPathNode/Step/dictionaryMember(_:at:convertsKeys:)``).
    /// A log of millions of repairs stays far below 2^31 nodes.
    private mutating func addNode(below parent: Int32, step: Int32, isKey: Bool = false, in document: Int = -1, integerKey: Bool = false) -> Int32 {
        let depth = parent < 0 ? 0 : nodes[Int(parent)].depth &+ 1
        var step = step
        if isKey, document == inPlaceDocument, let copies = unretainedInPlace {
            step = copies._withUnsafeGuaranteedRef { $0.copyKey(Int(step), depth: Int(depth)) }
        }
        nodes.append(PlaceNode(parent: parent, step: step, depth: depth, integerKey: integerKey))
        return Int32(truncatingIfNeeded: nodes.count - 1)
    }

    /// Copies, as repairs are recorded, what their texts read of `tape` (the values found, the
    /// keys on their paths) into an excerpt (``JSONTapeExcerpt``), and points the repairs at
    /// the copies: for a decode that reads `tape`'s bytes in place and ends before they go,
    /// where ``detach(from:)`` then puts the excerpt in `tape`'s place. Copied while the decode
    /// has just read those bytes, instead of looked up again at the end, all over the document;
    /// a few small copies per repair, where keeping `tape` would copy the whole document
    /// (``JSONTape/keepBytes()``).
    mutating func readInPlace(_ tape: JSONTape) {
        inPlaceDocument = document(tape)
        inPlace = InPlaceCopies(tape, document: inPlaceDocument)
    }

    /// Lets go of `tape`, named before by ``readInPlace(_:)``: the excerpt of what the repairs
    /// made in it read takes its place.
    mutating func detach(from tape: JSONTape) {
        guard let copies = inPlace, copies.tape === tape else { return }
        inPlace = nil
        inPlaceDocument = -1
        tapes[copies.document] = copies.makeTape()
        if lastPlace?.document == copies.document { lastPlace = nil }
        // Its objects are not placed again; their tokens may be those of another document's.
        placedObjects = []
        lastList = Self.noList
    }

    /// The repairs as they are, to be read by ``Repair`` values: a document still read in place
    /// is replaced by a copy of the excerpt so far, which the repairs point into.
    func snapshot() -> PendingRepairChunks {
        guard let copies = inPlace else { return self }
        var snapshot = self
        snapshot.inPlace = nil
        snapshot.inPlaceDocument = -1
        snapshot.tapes[copies.document] = copies.tapeSoFar()
        return snapshot
    }

    /// The excerpt ``readInPlace(_:)`` fills, with what it copied last. A reference, filled by
    /// the log that made it: copies of the log share it but never read it (``snapshot()``).
    private final class InPlaceCopies {
        let tape: JSONTape
        let document: Int
        @exclusivity(unchecked) private var excerpt = JSONTapeExcerpt(reservingFor: 256)
        /// The token copied last, before and after: a value found twice in a row is copied once.
        @exclusivity(unchecked) private var lastFound = (old: -1, new: -1)
        /// The key copied last at each depth below the anchor, before and after: a key written as
        /// the one copied last at its depth (the same property of the next element) shares its
        /// copy.
        @exclusivity(unchecked) private var lastKeys: [(old: Int32, new: Int32)] = []
        /// The path nodes copied last, and the nodes they were copied from.
        @exclusivity(unchecked) private var copiedNodes: [(old: KilnPathNode, new: KilnPathNode)] = []
        private static let nodesRemembered = 16

        init(_ tape: JSONTape, document: Int) {
            self.tape = tape
            self.document = document
        }

        /// The excerpt's copy of the value at `token`.
        func copy(_ token: Int) -> Int {
            if lastFound.old != token { lastFound = (token, excerpt.copy(token, of: tape)) }
            return lastFound.new
        }

        /// The step of the key at `token`, `depth` steps below its anchor: the excerpt's copy of it.
        func copyKey(_ token: Int, depth: Int) -> Int32 {
            let old = Int32(truncatingIfNeeded: token)
            if depth < lastKeys.count, lastKeys[depth].old >= 0,
                lastKeys[depth].old == old || tape.isWrittenAlike(Int(lastKeys[depth].old), token)
            {
                lastKeys[depth].old = old
                return lastKeys[depth].new
            }
            let copy = PendingRepair.Place.step(keyToken: excerpt.copy(token, of: tape))
            while lastKeys.count <= depth { lastKeys.append((-1, -1)) }
            lastKeys[depth] = (old, copy)
            return copy
        }

        /// `anchor` with its keys' tokens the excerpt's copies. The nodes copied last are
        /// remembered, with the nodes they were copied from: anchors made one after another
        /// share their parents (the members of one dictionary), copied once.
        func copy(_ anchor: KilnPathNode) -> KilnPathNode {
            if let known = copiedNodes.last(where: { $0.old === anchor }) { return known.new }
            let step: KilnPathNode.Step
            switch anchor.step {
            case .keyToken(let token): step = .keyToken(excerpt.copy(token, of: tape))
            case .integerKey(let number, let token): step = .integerKey(number, excerpt.copy(token, of: tape))
            case .key, .index: step = anchor.step
            }
            let node = KilnPathNode(parent: anchor.parent.map { self.copy($0) }, step: step)
            if copiedNodes.count == Self.nodesRemembered { copiedNodes.removeFirst() }
            copiedNodes.append((anchor, node))
            return node
        }

        /// A tape of what was copied so far.
        func tapeSoFar() -> JSONTape {
            excerpt.tapeOfCopy()
        }

        /// The tape of what was copied; the excerpt is left empty.
        func makeTape() -> JSONTape {
            var taken = JSONTapeExcerpt(reservingFor: 0)
            swap(&taken, &excerpt)
            return taken.makeTape()
        }
    }

    /// Whether `other`, an object token after `object` in `document`, is inside it.
    func object(_ object: Int, encloses other: Int, in document: Int) -> Bool {
        other < tapes[document].next(after: object)
    }

    subscript(index: Int) -> PendingRepair {
        let chunk = index &>> Self.chunkShift
        let offset = index & (Self.chunkCapacity &- 1)
        return chunk < chunks.count ? chunks[chunk][offset] : current[offset]
    }

    /// Calls `body` with the index of each repair in `range` and the repair, in order, a chunk
    /// at a time.
    func forEach(in range: Range<Int>, _ body: (Int, PendingRepair) -> Void) {
        var index = range.lowerBound
        while index < range.upperBound {
            let chunk = index &>> Self.chunkShift
            let base = chunk &<< Self.chunkShift
            let repairs = chunk < chunks.count ? chunks[chunk] : current
            let end = min(range.upperBound, base + repairs.count)
            repairs.withUnsafeBufferPointer { buffer in
                for place in index..<end { body(place, buffer[place &- base]) }
            }
            index = end
        }
    }

    /// Whether the repair at `index` is `repair`, whose tail is `tail`.
    func holds(_ repair: PendingRepair, tail: PendingRepair.Tail, at index: Int) -> Bool {
        // The tail last: the integers tell most repairs of one object apart.
        let held = self[index]
        return held.isSame(as: repair) && tails[Int(held.tail)] == tail
    }

    /// What tells the repair at `index` apart from others.
    func identity(of index: Int) -> PendingRepair.Identity {
        let held = self[index]
        return held.identity(tail: tails[Int(held.tail)])
    }

    /// ``Repair/path`` of the repair at `index`: as ``CodingPathFormatter`` writes it.
    func pathText(of index: Int) -> String {
        let repair = self[index]
        let tape = tapes[Int(repair.document)]
        var components = repair.place.anchor >= 0 ? anchors[Int(repair.place.anchor)].components(in: tape) : []
        // The nodes from the object's up to the anchor, put in order from the anchor down.
        let first = components.count
        var node = repair.place.node
        while node >= 0 {
            components.append(nodes[Int(node)].pathStep(in: tape).component(in: tape))
            node = nodes[Int(node)].parent
        }
        components[first...].reverse()
        switch tails[Int(repair.tail)] {
        case .key(let key): components.append(.key(key))
        case .components(let more): components += more
        }
        return CodingPathFormatter.format(components)
    }

    /// ``Repair/found`` of the repair at `index`: short JSON, or the word.
    func foundText(of index: Int) -> String {
        let repair = self[index]
        switch repair.found {
        case .token(let token): return tapes[Int(repair.document)].decodedValue(at: token).preview()
        case .integer(let value): return JSONValue.int(value).preview()
        case .bool(let value): return JSONValue.bool(value).preview()
        case .missing: return "missing"
        case .null: return "null"
        }
    }

    /// ``Repair/result`` of the repair at `index`.
    func resultText(of index: Int) -> String {
        switch self[index].result {
        case .int(let value): Repair.show(value)
        case .bool(let value): Repair.show(value)
        case .double(let value): Repair.show(value)
        case .stored(let place): values[place].text
        }
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

    /// A log of one repair, made in `tape`, with `tail` and `result`, by `reader` in its object.
    convenience init(_ repair: PendingRepair, in tape: JSONTape, tail: PendingRepair.Tail, result: RepairValue, by reader: KilnObjectReader) {
        var records = PendingRepairChunks(holdsOne: true)
        records.append(records.placing(repair, in: tape), tail: tail, result: result, by: reader)
        self.init(records)
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
        if T.self is [String].Type { return .strings(unsafeBitCast(value, to: [String].self)) }
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

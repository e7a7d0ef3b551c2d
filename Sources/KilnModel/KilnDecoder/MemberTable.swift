/// The keys of one object, hashed, for ``KilnObjectReader``'s look-ups away from its hint.
///
/// A model usually asks for its members in the order the document has them, and the reader finds
/// each right after the previous one. Objects read out of that order, and keys the object lacks (a
/// Swift name tried before its snake_case twin), would otherwise cost a scan of every member: a
/// 64-bit filter of many keys lets most absent ones through. An object with more than
/// ``scanLimit`` plain ASCII keys gets this table on its first such look-up: open addressing over
/// the key tokens, built in one pass, answering present or absent exactly.
/// The first of two equal keys wins, as in Foundation.
///
/// A model whose keys are known at compile time (``KilnFastDecodable/kilnMemberKeySlot(_:)``)
/// gets slots instead, whatever the object's size: each key the model reads has a slot, which
/// holds the first member with that key, filed in one pass, and a read that knows its key's slot
/// (``KilnKeySlots``) finds the member, or its absence, in one load.
///
/// Tables live in the decode's context (``MemberTables``), one above another: a nested model's
/// reader finishes before its parent reads on, so its table is released when it returns.
@usableFromInline
struct MemberTable: Sendable {
    /// Where the table starts in ``MemberTables/slots``; its size is `mask + 1`, a power of two.
    @usableFromInline var offset: Int32
    /// The hash mask of a table of hashed keys; negative for the other states. A table of slots
    /// keeps its slot count here, as `-3 - count`, so that the reader holding it stays small.
    @usableFromInline var mask: Int32

    /// Nothing made yet.
    @inlinable static var none: MemberTable { MemberTable(offset: 0, mask: -1) }
    /// Nothing made yet, for a model with key slots: the first look-up away from the hint files
    /// the members (``MemberTables/fileMembers(of:in:by:)``) when the keys are plain ASCII.
    @inlinable static var unfiled: MemberTable { MemberTable(offset: 1, mask: -1) }
    /// No table: the reader made its key filter instead.
    @inlinable static var filtered: MemberTable { MemberTable(offset: 0, mask: -2) }

    @inlinable var isNone: Bool { mask == -1 }
    @inlinable var isUnfiled: Bool { mask == -1 && offset == 1 }
    @inlinable var isBuilt: Bool { mask >= 0 }
    @inlinable var hasFilter: Bool { mask == -2 }
    /// Whether the table holds the model's slots (``MemberTables/fileMembers(of:in:by:)``).
    @inlinable var isSlotted: Bool { mask <= -3 }
    /// The number of slots of a table of slots; negative for the other states.
    @inlinable var slotCount: Int { Int(-3 &- mask) }

    /// A table of `count` slots at `offset`.
    @inlinable static func slots(at offset: Int, count: Int) -> MemberTable {
        MemberTable(offset: Int32(truncatingIfNeeded: offset), mask: Int32(truncatingIfNeeded: -3 - count))
    }

    /// Objects with at most this many members are scanned after a key filter, unless their model
    /// has slots: a table of hashed keys would cost more than it saves.
    @usableFromInline static let scanLimit = 16

    @inlinable init(offset: Int32, mask: Int32) {
        self.offset = offset
        self.mask = mask
    }

    /// A hash of a key's bytes: its length and up to its first and last eight bytes.
    @inlinable @inline(__always)
    static func hash(_ key: UnsafeRawPointer, count n: Int) -> UInt64 {
        var h = UInt64(truncatingIfNeeded: n) &* 0x9E37_79B9_7F4A_7C15
        if n >= 8 {
            h ^= key.loadUnaligned(as: UInt64.self)
            h = (h ^ (h &>> 29)) &* 0xBF58_476D_1CE4_E5B9
            h ^= key.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
        } else if n >= 4 {
            h ^= UInt64(key.loadUnaligned(as: UInt32.self)) &<< 32 | UInt64(key.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self))
        } else if n > 0 {
            let bytes = key.assumingMemoryBound(to: UInt8.self)
            h ^= UInt64(bytes[0]) | UInt64(bytes[n &>> 1]) &<< 8 | UInt64(bytes[n &- 1]) &<< 16
        }
        h = (h ^ (h &>> 31)) &* 0x94D0_49BB_1331_11EB
        return h ^ (h &>> 32)
    }
}

/// The storage of the ``MemberTable``s of one decode: slots of key token indices (zero is empty,
/// as no key sits at token zero), used as a stack. Only the decode's own thread touches it, so its
/// properties skip the runtime's exclusivity checks.
@usableFromInline
final class MemberTables {
    @exclusivity(unchecked) @usableFromInline var slots: UnsafeMutablePointer<UInt32>
    @exclusivity(unchecked) @usableFromInline var capacity: Int
    /// The first free slot: tables of readers still running sit below it.
    @exclusivity(unchecked) @usableFromInline var top = 0
    /// Models whose objects had their members filed, by their metadata's address, in eight
    /// entries chosen by that address: the next object of such a model is filed as its reader
    /// starts, without first trying a key at the hint (``filesAtOnce(_:)``).
    @usableFromInline let filingModels: UnsafeMutablePointer<UInt>

    init() {
        capacity = 256
        slots = .allocate(capacity: capacity)
        filingModels = .allocate(capacity: 8)
        filingModels.initialize(repeating: 0, count: 8)
    }

    deinit {
        slots.deallocate()
        filingModels.deallocate()
    }

    /// Whether the last object of `model` read in this decode had its members filed.
    @inlinable @inline(__always)
    func filesAtOnce<Model: KilnFastDecodable>(_ model: Model.Type) -> Bool {
        let id = UInt(bitPattern: ObjectIdentifier(model))
        return filingModels[Int(truncatingIfNeeded: (id &>> 4) & 7)] == id
    }

    /// Notes whether an object of `model` had its members filed.
    @inlinable @inline(__always)
    func noteFiling<Model: KilnFastDecodable>(_ model: Model.Type, filed: Bool) {
        let id = UInt(bitPattern: ObjectIdentifier(model))
        let entry = filingModels + Int(truncatingIfNeeded: (id &>> 4) & 7)
        if filed { entry.pointee = id } else if entry.pointee == id { entry.pointee = 0 }
    }

    /// Builds the table of the object at `object`, whose keys are all plain ASCII.
    @usableFromInline
    func build(of object: Int, in tape: JSONTape) -> MemberTable {
        let members = Int(tape.tokens[object].aux)
        var size = 16
        while size < 2 * members { size &<<= 1 }
        if top + size > capacity { grow(toFit: top + size) }
        let table = slots + top
        table.initialize(repeating: 0, count: size)
        let mask = size - 1
        let end = Int(tape.tokens[object].payload)
        var key = object + 1
        while key < end {
            let token = tape.tokens[key]
            var slot = Int(truncatingIfNeeded: MemberTable.hash(tape.base + Int(token.payload), count: Int(token.aux))) & mask
            while table[slot] != 0 { slot = (slot + 1) & mask }
            table[slot] = UInt32(truncatingIfNeeded: key)
            key = tape.next(after: key + 1)
        }
        let built = MemberTable(offset: Int32(truncatingIfNeeded: top), mask: Int32(truncatingIfNeeded: mask))
        top += size
        return built
    }

    /// Files each member of the object at `object`, whose keys are all plain ASCII, under its
    /// slot among the keys `model` reads: the first member with each key, zero where none has it.
    /// Inlinable: specialized for the model (``KilnFastDecodable/kilnFileMembers(_:)``), its
    /// slots are a switch inlined into the loop.
    @inlinable
    func fileMembers<Model: KilnFastDecodable>(of object: Int, in tape: JSONTape, by model: Model.Type) -> MemberTable {
        // At most 2^30 slots, so that the count fits the table's mask.
        let count = min(max(0, Model.kilnMemberKeyCount), 1 << 30)
        if top + count > capacity { grow(toFit: top + count) }
        let table = slots + top
        table.initialize(repeating: 0, count: count)
        let tokens = tape.tokens
        let base = tape.base
        let end = Int(tokens[object].payload)
        var key = object + 1
        while key < end {
            let token = tokens[key]
            let slot = Model.kilnMemberKeySlot(UnsafeRawBufferPointer(start: base + Int(token.payload), count: Int(token.aux)))
            // A slot out of range (a hand-written conformance's) files nothing.
            if slot >= 0, slot < count, table[slot] == 0 { table[slot] = UInt32(truncatingIfNeeded: key) }
            key = tape.next(after: key + 1)
        }
        let filed = MemberTable.slots(at: top, count: count)
        top += count
        return filed
    }

    /// The value token of the member `key` of the object `table` filed, `0` when the object has
    /// none, or `nil` when `key` has no slot among the model's keys.
    @inlinable @inline(__always)
    func member<Model: KilnFastDecodable>(_ key: UnsafeRawBufferPointer, in table: MemberTable, of model: Model.Type) -> Int? {
        let slot = Model.kilnMemberKeySlot(key)
        guard slot >= 0, slot < table.slotCount else { return nil }
        return filedValue(at: slot, in: table)
    }

    /// The value token of the member `table` filed under `slot`, one of its slots; `0` when the
    /// object has none.
    @inlinable @inline(__always)
    func filedValue(at slot: Int, in table: MemberTable) -> Int {
        let keyToken = Int(slots[Int(table.offset) &+ slot])
        return keyToken == 0 ? 0 : keyToken &+ 1
    }

    @usableFromInline
    func grow(toFit needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let bigger = UnsafeMutablePointer<UInt32>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: slots, count: top)
        slots.deallocate()
        slots = bigger
        capacity = newCapacity
    }

    /// The value token of the member `key` of the object `table` was built for, or `nil`.
    @inlinable
    func member(_ key: UnsafeRawBufferPointer, in table: MemberTable, of tape: JSONTape) -> Int? {
        // An empty key has no bytes to read: any address does.
        let bytes = key.baseAddress ?? UnsafeRawPointer(tape.base)
        let n = key.count
        let length = UInt32(truncatingIfNeeded: n)
        let mask = Int(table.mask)
        let base = slots + Int(table.offset)
        var slot = Int(truncatingIfNeeded: MemberTable.hash(bytes, count: n)) & mask
        while true {
            let index = Int(base[slot])
            if index == 0 { return nil }
            let token = tape.tokens[index]
            if token.aux == length, JSONTape.bytesEqual(tape.base + Int(token.payload), bytes, count: n) { return index + 1 }
            slot = (slot + 1) & mask
        }
    }
}

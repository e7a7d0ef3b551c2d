/// The answers to one question about types, such as a conformance (`type as? any P.Type`), for
/// the types asked about lately: a small direct-mapped table keyed by the type's metadata.
///
/// The runtime answers a cast to a protocol by searching its table of conformances: about 300
/// instructions, found or not, and a decode asks for every value of an enum and every element
/// of a list of models. Asked here, a type met before is a comparison. One per decode, so it
/// needs no lock.
@usableFromInline
struct ConformanceMemo<Answer> {
    @usableFromInline typealias Slot = (type: ObjectIdentifier?, answer: Answer?)

    /// The remembered answers, each in its type's slot; made with the first answer.
    @usableFromInline var slots: [Slot] = []

    @usableFromInline init() {}

    /// A power of two: the slot is the top bits of a multiplicative hash of the metadata's address
    /// without its low bits, which alignment makes zero (with them, types declared one after
    /// another shared a slot).
    @inlinable static var slotBits: Int { 6 }

    @inlinable @inline(__always)
    static func slot(of type: ObjectIdentifier) -> Int {
        Int(truncatingIfNeeded: (UInt64(UInt(bitPattern: type) &>> 4) &* 0x9E37_79B9_7F4A_7C15) &>> UInt64(64 - slotBits))
    }

    /// The answer remembered for `type`, if any.
    @inlinable @inline(__always)
    func remembered(_ type: Any.Type) -> Answer? {
        let id = ObjectIdentifier(type)
        guard !slots.isEmpty else { return nil }
        let slot = slots[Self.slot(of: id)]
        return slot.type == id ? slot.answer : nil
    }

    /// `answer(type)`, remembered in `type`'s slot in place of the answer there.
    @usableFromInline
    mutating func remember(_ type: Any.Type, _ answer: (Any.Type) -> Answer) -> Answer {
        if slots.isEmpty { slots = Array(repeating: (nil, nil), count: 1 << Self.slotBits) }
        let id = ObjectIdentifier(type)
        let made = answer(type)
        slots[Self.slot(of: id)] = (id, made)
        return made
    }
}

/// A model that ``KilnDecoder`` can decode without going through Swift's `Decoder` protocols:
/// `@DataModel` generates the conformance.
///
/// The generated initializer makes the same calls as the generated `init(from:)` does on
/// ``ModelDecodingContainer``, on a ``KilnObjectReader`` instead:
///
/// ```swift
/// extension Article: KilnFastDecodable {
///     init(kiln reader: inout KilnObjectReader) {
///         self.init()
///         articleId = reader.value("articleId", "article_id", slots: KilnKeySlots(0, 1), property: "articleId", default: 0)
///         title = reader.value("title", slots: KilnKeySlots(2), property: "title", default: "--")
///         coverURL = reader.optional(paths: ["cover_url"], property: "coverURL")
///     }
/// }
/// ```
///
/// Results and repair logs are the same as through `init(from:)`: the reader reads values that
/// fit straight from the document and hands everything else to ``ModelDecodingContainer``.
/// `slots:` gives each key's number among the keys the model reads
/// (``kilnMemberKeySlot(_:)``), so that the reader can find it without comparing keys.
public protocol KilnFastDecodable: Decodable {
    /// Reads the model from the object `reader` stands for. Never fails: an unusable member
    /// gets its default and a repair entry, as in `init(from:)`.
    init(kiln reader: inout KilnObjectReader)

    /// How many distinct plain keys ``init(kiln:)`` reads: the slots of
    /// ``kilnMemberKeySlot(_:)``. `@DataModel` generates it; `0`, the default, means no slots,
    /// and every key is looked up among the object's members.
    static var kilnMemberKeyCount: Int { get }

    /// The slot of `key`, the UTF-8 bytes of a member key, among the keys ``init(kiln:)``
    /// reads (`0..<kilnMemberKeyCount`), or `-1` when it reads no such key. `@DataModel`
    /// generates it from the keys it knows at compile time, as a switch on the length and a
    /// comparison of bytes.
    ///
    /// When a key is not where ``KilnObjectReader`` expects it (right after the member read
    /// last) in an object whose keys are plain ASCII, the reader files each member under its
    /// slot in one pass (``kilnFileMembers(_:)``), and then finds every key it reads, or knows
    /// it absent, by its slot: at once where the read names it (``KilnKeySlots``), else by this
    /// function.
    static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int

    /// Files each member of the object `reader` stands for under its slot
    /// (``kilnMemberKeySlot(_:)``). The reader calls it once, on its first look-up away from
    /// where it expects a key; the default implementation, which every conformance should keep,
    /// does the filing with this type's slots known at compile time.
    static func kilnFileMembers(_ reader: inout KilnObjectReader)
}

extension KilnFastDecodable {
    /// No slots: keys are looked up among the object's members.
    @inlinable public static var kilnMemberKeyCount: Int { 0 }

    /// No slots: `-1` for every key.
    @inlinable public static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int { -1 }

    /// Files the members under this type's slots, when it has any and the object's keys are plain
    /// ASCII.
    @inlinable public static func kilnFileMembers(_ reader: inout KilnObjectReader) {
        reader.fileMembers(by: Self.self)
    }
}

/// Where the keys of one property sit among the slots its model numbers
/// (``KilnFastDecodable/kilnMemberKeySlot(_:)``): `@DataModel` passes one to each read of a plain
/// key, so that once ``KilnObjectReader`` has filed an object's members it reads the property's
/// member without comparing a key. A slot that is `-1`, or out of the model's range, leaves the
/// key to be looked up by its text, as without slots.
public struct KilnKeySlots: Sendable, Equatable {
    /// The slot of the key, then of the alternate key.
    @usableFromInline let key: Int32
    @usableFromInline let alternate: Int32

    /// The slots of a property's key and of its alternate key, `-1` for a key without one.
    @inlinable public init(_ key: Int, _ alternate: Int = -1) {
        self.key = Int32(truncatingIfNeeded: key)
        self.alternate = Int32(truncatingIfNeeded: alternate)
    }

    /// No slots: both keys are looked up by their text.
    @inlinable public static var none: KilnKeySlots { KilnKeySlots(-1, -1) }
}

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
///         articleId = reader.value("articleId", "article_id", property: "articleId", default: 0)
///         title = reader.value("title", property: "title", default: "--")
///         coverURL = reader.optional(paths: ["cover_url"], property: "coverURL")
///     }
/// }
/// ```
///
/// Results and repair logs are the same as through `init(from:)`: the reader reads values that
/// fit straight from the document and hands everything else to ``ModelDecodingContainer``.
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
    /// last) in an object of more than sixteen members, the reader files each member under its
    /// slot in one pass, and then finds every key it reads, or knows it absent, without hashing
    /// or comparing keys. Smaller objects are scanned instead.
    static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int
}

extension KilnFastDecodable {
    /// No slots: keys are looked up among the object's members.
    @inlinable public static var kilnMemberKeyCount: Int { 0 }

    /// No slots: `-1` for every key.
    @inlinable public static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int { -1 }
}

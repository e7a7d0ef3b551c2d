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
}

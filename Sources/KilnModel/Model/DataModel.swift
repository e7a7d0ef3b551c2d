/// A model that decodes anything a server sends: what `@DataModel` makes a type conform to.
///
/// You don't conform by hand; attach the macro:
///
/// ```swift
/// @DataModel
/// struct Article {
///     var id = 0
///     var title = "--"
///     @Key("pub_date", "publishDate") @Transform(.yyyyMMdd) var published: Date?
///     @Key("author.name") var authorName: String
///     var tags: [String]          // lossy: a bad element is dropped, not the array
///     var status: Status = .draft // a FallbackEnum
///     @Ignored var isExpanded = false
/// }
/// ```
///
/// The generated `init()` gives every property its initial value or its default; the generated
/// `init(from:)` reads each property tolerantly through ``ModelDecodingContainer``; the generated
/// `init(kiln:)` does the same straight from ``KilnDecoder``'s tape, finding the keys it reads by
/// the generated ``KilnFastDecodable/kilnMemberKeySlot(_:)``; the generated `encode(to:)` writes
/// the original keys back.
///
/// To derive or check fields after decoding, give the model a `didDecode()` method, or
/// `didDecode(_ repairs: RepairRecorder)` to log what it fixed (`mutating` in a struct): both
/// decoding initializers call it once every property is read. See ``RepairRecorder``.
public protocol DataModel: Codable, DefaultValueProviding {
    /// A model with every property at its initial value or its type's default.
    init()
}

extension DataModel {
    public static var defaultValue: Self { Self() }
}

/// Makes a struct or final class decode tolerantly: defaults for missing, `null` or unusable
/// values, coercion between strings, numbers and booleans, snake_case keys, lossy collections,
/// and a repair log — through any `Decoder`.
///
/// A model that declares no key style reads each property without `@Key` from its Swift name,
/// then from its snake_case form (`authorName`, then `author_name`), and writes it under its
/// Swift name, or in the ``KeyStyle`` an encoder's `userInfo[.kilnKeyStyle]` or a
/// `parameters(keyStyle:)` call asks for. When the API has one key style, declare it with
/// ``DataModel(keyStyle:)`` so that encoding writes the keys decoding read. See ``DataModel`` for a
/// full example.
@attached(member, names: named(init), named(encode(to:)), named(_KilnReaders), named(_kilnRead), named(kilnMemberKeyCount), named(kilnMemberKeySlot))
@attached(extension, conformances: DataModel, KilnFastDecodable, names: named(init), named(_kilnMake), named(_kilnMakeFast), named(_kilnEmpty))
public macro DataModel() = #externalMacro(module: "KilnMacros", type: "DataModelMacro")

/// Makes a struct or final class decode tolerantly, like ``DataModel()``, with the keys of its API
/// declared once: properties without `@Key` are read and written in `keyStyle`.
///
/// ```swift
/// @DataModel(keyStyle: .snakeCase)
/// struct Page {
///     var hasMore = false             // reads "has_more" (then "hasMore"), writes "has_more"
///     var nextCursor: String?         // reads "next_cursor" (then "nextCursor"), writes "next_cursor"
///     @Key("pageNo") var page = 1     // @Key wins: reads and writes "pageNo"
/// }
/// ```
///
/// Decoding tries the styled key first and keeps the other spelling as a tolerant alias.
/// `encode(to:)`, and therefore `parameters()`, `queryItems()` and `formURLEncodedBody()`, write
/// the styled key whatever ``KeyStyle`` the encoder asks for: that style applies only to models
/// that declare none. Each nested model follows its own declaration. Write the style as a case
/// (`.snakeCase`, `.asWritten`): the macro chooses the keys at compile time.
@attached(member, names: named(init), named(encode(to:)), named(_KilnReaders), named(_kilnRead), named(kilnMemberKeyCount), named(kilnMemberKeySlot))
@attached(extension, conformances: DataModel, KilnFastDecodable, names: named(init), named(_kilnMake), named(_kilnMakeFast), named(_kilnEmpty))
public macro DataModel(keyStyle: KeyStyle) = #externalMacro(module: "KilnMacros", type: "DataModelMacro")

/// The JSON keys a property is read from, first present and non-null wins; dotted paths reach
/// into nested objects and indices into arrays. The first key is the one written when encoding.
///
/// ```swift
/// @Key("pub_date", "publishDate") var published = ""
/// @Key("author.name") var authorName = ""
/// @Key("tags[0]") var firstTag: String?
/// ```
///
/// Paths follow ``JSONPath``'s grammar and are checked when the model compiles: `@Key("tags[x]")`,
/// `@Key("a..b")` and `@Key("a[-1]")` are errors that say what to write instead.
@attached(peer)
public macro Key(_ name: String, _ aliases: String...) = #externalMacro(module: "KilnMacros", type: "MarkerMacro")

/// The one JSON key a property is read from and written to, taken exactly as written: `.` and
/// `[` are part of the key, not a path, and the empty key is allowed.
///
/// ```swift
/// @Key(literal: "user.name") var userName = ""   // the key "user.name", not user → name
/// @Key(literal: "") var unnamed: String?         // the key ""
/// ```
@attached(peer)
public macro Key(literal name: String) = #externalMacro(module: "KilnMacros", type: "MarkerMacro")

/// Treats an empty string, array or object like an absent value: the property takes its
/// initial value, or its default, and the repair log says so.
///
/// ```swift
/// @DefaultIfEmpty var title = "Untitled"          // "" → "Untitled"
/// @DefaultIfEmpty var tags = ["general"]          // [] → ["general"]
/// @DefaultIfEmpty var nickname: String?           // "" → nil
/// ```
///
/// Use it alone or with `@Key`; a `@Transform` decides emptiness itself.
@attached(peer)
public macro DefaultIfEmpty() = #externalMacro(module: "KilnMacros", type: "MarkerMacro")

/// A property that never comes from or goes to JSON. It must have an initial value or be optional.
@attached(peer)
public macro Ignored() = #externalMacro(module: "KilnMacros", type: "MarkerMacro")

/// Reads and writes a property through a ``ValueTransform``: `@Transform(.yyyyMMdd)`.
@attached(peer)
public macro Transform<T: ValueTransform>(_ transform: T) = #externalMacro(module: "KilnMacros", type: "MarkerMacro")

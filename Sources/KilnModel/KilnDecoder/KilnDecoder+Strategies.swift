import Foundation

/// The choices users make on Foundation's `JSONDecoder`, kept by a ``KilnDecoder`` with the same
/// types and the same results.
struct KilnDecodingStrategies: Sendable {
    var date: JSONDecoder.DateDecodingStrategy = .deferredToDate
    var data: JSONDecoder.DataDecodingStrategy = .base64
    var nonConformingFloat: JSONDecoder.NonConformingFloatDecodingStrategy = .throw
    var key: JSONDecoder.KeyDecodingStrategy = .useDefaultKeys

    /// Whether keys are matched as they are written (no conversion).
    var usesDefaultKeys: Bool {
        if case .useDefaultKeys = key { return true }
        return false
    }
}

extension KilnDecoder {
    /// How `Date` values are read; the same choices and results as `JSONDecoder`'s. The default,
    /// `.deferredToDate`, reads seconds since 1 January 2001.
    ///
    /// ```swift
    /// var decoder = KilnDecoder()
    /// decoder.dateDecodingStrategy = .iso8601
    /// ```
    ///
    /// `@DataModel` properties with a `@Transform` read their dates through the transform.
    public var dateDecodingStrategy: JSONDecoder.DateDecodingStrategy {
        get { strategies.date }
        set { strategies.date = newValue }
    }

    /// How `Data` values are read; the default is Base64 text, as with `JSONDecoder`.
    public var dataDecodingStrategy: JSONDecoder.DataDecodingStrategy {
        get { strategies.data }
        set { strategies.data = newValue }
    }

    /// Whether strings such as `"Infinity"` and `"NaN"` are read as `Double` and `Float` values;
    /// the default throws, as with `JSONDecoder`.
    public var nonConformingFloatDecodingStrategy: JSONDecoder.NonConformingFloatDecodingStrategy {
        get { strategies.nonConformingFloat }
        set { strategies.nonConformingFloat = newValue }
    }

    /// How the document's keys are matched to coding keys; the same choices and results as
    /// `JSONDecoder`'s (`.convertFromSnakeCase` turns `has_more` into `hasMore`).
    ///
    /// With a strategy other than `.useDefaultKeys`, `@DataModel` types decode through their
    /// `init(from:)` (the keys their macro fixed are matched after conversion, as through
    /// `JSONDecoder`), which is slower than their direct path: prefer
    /// `@DataModel(keyStyle: .snakeCase)`, which fixes the keys at compile time.
    public var keyDecodingStrategy: JSONDecoder.KeyDecodingStrategy {
        get { strategies.key }
        set { strategies.key = newValue }
    }
}

extension JSONDecoder.DateDecodingStrategy {
    /// ISO 8601 dates with or without fractional seconds (`2016-11-13T08:30:00.250Z`), which
    /// `.iso8601` does not accept; for `JSONDecoder` and ``KilnDecoder`` alike.
    public static var iso8601WithFractionalSeconds: JSONDecoder.DateDecodingStrategy {
        .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            if let date = ISO8601Dates.date(from: text) { return date }
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected date string to be ISO8601-formatted.")
        }
    }
}

/// Parses ISO 8601 internet date-times, with or without fractional seconds.
enum ISO8601Dates {
    static func date(from text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}

/// Foundation's `convertFromSnakeCase` rule, for matching keys: underscores at the start and the
/// end are kept; a key with no other underscore is kept as it is; otherwise the first word is
/// lowercased and each following word capitalized (`"user_ID"` → `"userId"`).
enum SnakeCaseKeys {
    static func camelCased(_ key: String) -> String {
        guard let first = key.firstIndex(where: { $0 != "_" }) else { return key }
        guard let last = key.lastIndex(where: { $0 != "_" }) else { return key }
        let core = key[first...last]
        let words = core.split(separator: "_")
        guard words.count > 1 else { return key }
        var result = String(key[..<first])
        result += words[0].lowercased()
        for word in words.dropFirst() { result += word.capitalized }
        result += key[key.index(after: last)...]
        return result
    }
}

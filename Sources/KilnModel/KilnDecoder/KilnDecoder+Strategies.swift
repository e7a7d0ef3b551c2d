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
        if let date = internetDate(text, zeroFraction: true) { return date }
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// The date `text` writes in the form APIs send (RFC 3339), `2011-04-22T13:33:48Z` or with
    /// an offset, `+05:30`; read without Foundation's parser, which takes a hundred times longer;
    /// `nil` for any other text, which Foundation's parser then reads. Only where every ISO 8601
    /// reader gives the same date: whole seconds (with `zeroFraction`, also `.0` to `.000000000`),
    /// years 1583 to 9999 (the Gregorian calendar's; Foundation reads earlier dates as Julian),
    /// fields in their ranges (Foundation rolls `04-31` over to May; that stays its answer), and
    /// offsets up to 14 hours. The seconds are whole, so the date is exact.
    static func internetDate(_ text: String, zeroFraction: Bool) -> Date? {
        var text = text
        return text.withUTF8 { internetDate($0, zeroFraction: zeroFraction) }
    }

    /// ``internetDate(_:zeroFraction:)`` of UTF-8 bytes.
    static func internetDate(_ bytes: UnsafeBufferPointer<UInt8>, zeroFraction: Bool) -> Date? {
        let count = bytes.count
        guard count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: "T"),
            bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":")
        else { return nil }
        /// The number the two digits at `i` write; -1 if they are not both digits.
        func two(_ i: Int) -> Int {
            let tens = bytes[i] &- UInt8(ascii: "0")
            let ones = bytes[i &+ 1] &- UInt8(ascii: "0")
            return tens < 10 && ones < 10 ? Int(tens) &* 10 &+ Int(ones) : -1
        }
        let century = two(0)
        let yearInCentury = two(2)
        let (month, day, hour, minute, second) = (two(5), two(8), two(11), two(14), two(17))
        guard century >= 0, yearInCentury >= 0 else { return nil }
        let year = century * 100 + yearInCentury
        guard year >= 1583, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second)
        else { return nil }
        var i = 19
        if zeroFraction, bytes[i] == UInt8(ascii: ".") {
            i += 1
            let digits = i
            while i < count, bytes[i] == UInt8(ascii: "0") { i += 1 }
            guard (1...9).contains(i - digits), i < count else { return nil }
        }
        var offset = 0
        switch bytes[i] {
        case UInt8(ascii: "Z"):
            guard i + 1 == count else { return nil }
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            guard count - i == 6, bytes[i + 3] == UInt8(ascii: ":") else { return nil }
            let (hours, minutes) = (two(i + 1), two(i + 4))
            guard (0...14).contains(hours), (0...59).contains(minutes) else { return nil }
            offset = (hours * 60 + minutes) * 60
            if bytes[i] == UInt8(ascii: "-") { offset = -offset }
        default:
            return nil
        }
        let seconds = daysSince1970(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second - offset
        return Date(timeIntervalSince1970: Double(seconds))
    }

    /// The days of `month` in `year` of the Gregorian calendar.
    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// The days from 1 January 1970 to the given day of the Gregorian calendar (`year` from 1):
    /// whole 400-year cycles of 146,097 days, then the years, counted from March so that a leap
    /// day ends its year.
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let marchYear = month <= 2 ? year - 1 : year
        let cycle = marchYear / 400
        let yearOfCycle = marchYear - cycle * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfCycle = yearOfCycle * 365 + yearOfCycle / 4 - yearOfCycle / 100 + dayOfYear
        // 719,468: the days from 1 March of year 0 to 1 January 1970.
        return cycle * 146_097 + dayOfCycle - 719_468
    }
}

/// Foundation's `convertFromSnakeCase` rule, for matching keys: underscores at the start and the
/// end are kept; a key with no other underscore is kept as it is; otherwise the first word is
/// lowercased and each following word capitalized (`"user_ID"` → `"userId"`).
enum SnakeCaseKeys {
    static func camelCased(_ key: String) -> String {
        var key = key
        if let converted = key.withUTF8({ asciiCamelCased($0) }) { return converted ?? key }
        return foundationCamelCased(key)
    }

    /// The rule for a key of ASCII letters and underscores, byte by byte: `.some(nil)` when the
    /// key stays as it is (no underscore between its words, the usual case), `nil` for a key
    /// with any other byte, which ``foundationCamelCased(_:)`` converts (`capitalized` finds
    /// words after digits on some platforms and not on others, and knows Unicode).
    static func asciiCamelCased(_ bytes: UnsafeBufferPointer<UInt8>) -> String?? {
        let underscore = UInt8(ascii: "_")
        guard let first = bytes.firstIndex(where: { $0 != underscore }), let last = bytes.lastIndex(where: { $0 != underscore }) else {
            return .some(nil)
        }
        var hasInnerUnderscore = false
        for byte in bytes[first...last] {
            if byte == underscore {
                hasInnerUnderscore = true
            } else if !(byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) {
                return nil
            }
        }
        guard hasInnerUnderscore else { return .some(nil) }
        let converted = String(unsafeUninitializedCapacity: bytes.count) { out in
            var count = 0
            for i in 0..<first {
                out[count] = bytes[i]
                count += 1
            }
            // The first word lowercased, each word after it capitalized; underscores between
            // words dropped.
            var wordStart = true
            var firstWord = true
            for byte in bytes[first...last] {
                if byte == underscore {
                    if !wordStart { firstWord = false }
                    wordStart = true
                    continue
                }
                out[count] = wordStart && !firstWord ? byte & ~0x20 : byte | 0x20
                count += 1
                wordStart = false
            }
            for i in (last + 1)..<bytes.count {
                out[count] = bytes[i]
                count += 1
            }
            return count
        }
        return .some(converted)
    }

    /// The rule as Foundation's `JSONDecoder` writes it, for any key.
    static func foundationCamelCased(_ key: String) -> String {
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

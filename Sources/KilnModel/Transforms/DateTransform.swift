import Foundation

/// Reads and writes dates in the shapes servers use: `20161010`, `"2016-10-10"`, ISO-8601,
/// RFC 2822, Unix seconds, milliseconds, microseconds or nanoseconds.
///
/// ```swift
/// @DataModel struct Article {
///     @Key("pub_date") @Transform(.yyyyMMdd) var published: Date?
///     @Transform(.unixMilliseconds) var updatedAt: Date?
/// }
/// ```
public struct DateTransform: ValueTransform {
    /// A date format a server may use.
    public enum Format: Sendable, Hashable {
        /// `20161010` or `"20161010"`, read in the given time zone.
        case yyyyMMdd(TimeZone)
        /// `"2016-10-10T08:30:00Z"`, with or without fractional seconds.
        case iso8601
        /// Seconds since 1970, as a number or numeric string.
        case unixSeconds
        /// Milliseconds since 1970, as a number or numeric string.
        case unixMilliseconds
        /// Microseconds since 1970, as a number or numeric string.
        case unixMicroseconds
        /// Nanoseconds since 1970, as a number or numeric string (kept to the microsecond: a
        /// `Date` holds a `Double` of seconds).
        case unixNanoseconds
        /// `"2016-10-10"`, read as midnight in the given time zone.
        case yearMonthDay(TimeZone)
        /// `"Sun, 13 Nov 2016 08:30:00 +0000"` (RFC 2822, as in e-mail and RSS).
        case rfc2822
    }

    /// The format this transform reads and writes.
    public var format: Format

    /// A transform for `format`.
    public init(_ format: Format) { self.format = format }

    public func decode(_ json: JSONValue) -> Date? {
        switch format {
        case .yyyyMMdd(let zone):
            guard let text = json.string?[...].trimmingHorizontalWhitespace, text.count == 8,
                let number = Int(text), number >= 0
            else { return nil }
            return Self.day(year: number / 10_000, month: number / 100 % 100, day: number % 100, in: zone)
        case .yearMonthDay(let zone):
            guard let text = json.string?[...].trimmingHorizontalWhitespace else { return nil }
            let parts = text.split(separator: "-", omittingEmptySubsequences: false)
            guard parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
                let year = Int(parts[0]), let month = Int(parts[1]), let day = Int(parts[2])
            else { return nil }
            return Self.day(year: year, month: month, day: day, in: zone)
        case .iso8601:
            return json.string.flatMap(ISO8601Dates.date(from:))
        case .rfc2822:
            guard let text = json.string?[...].trimmingHorizontalWhitespace else { return nil }
            return Self.rfc2822Formatter().date(from: String(text))
        case .unixSeconds:
            return Self.count(json).map { Date(timeIntervalSince1970: $0) }
        case .unixMilliseconds:
            return Self.count(json).map { Date(timeIntervalSince1970: $0 / 1_000) }
        case .unixMicroseconds:
            return Self.count(json).map { Date(timeIntervalSince1970: $0 / 1_000_000) }
        case .unixNanoseconds:
            return Self.count(json).map { Date(timeIntervalSince1970: $0 / 1_000_000_000) }
        }
    }

    /// A count of time units: a number or a numeric string; a boolean is not a time.
    static func count(_ json: JSONValue) -> Double? {
        if case .bool = json { return nil }
        return json.double
    }

    /// Midnight of a calendar day in `zone`, or `nil` for a day that does not exist.
    static func day(year: Int, month: Int, day: Int, in zone: TimeZone) -> Date? {
        guard (1...12).contains(month), (1...31).contains(day) else { return nil }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: day)),
            calendar.component(.day, from: date) == day
        else { return nil }
        return date
    }

    /// The RFC 2822 date-time form (`DateFormatter` is not `Sendable`, so one per use).
    static func rfc2822Formatter() -> DateFormatter {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(secondsFromGMT: 0)
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss Z"
        return formatter
    }

    public func encode(_ value: Date) -> JSONValue {
        switch format {
        case .yyyyMMdd(let zone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day], from: value)
            let number = (c.year ?? 1970) * 10_000 + (c.month ?? 1) * 100 + (c.day ?? 1)
            return .string(String(number))
        case .yearMonthDay(let zone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day], from: value)
            func two(_ n: Int?) -> String {
                let text = String(n ?? 1)
                return text.count < 2 ? "0" + text : text
            }
            return .string("\(c.year ?? 1970)-\(two(c.month))-\(two(c.day))")
        case .rfc2822:
            return .string(Self.rfc2822Formatter().string(from: value))
        case .unixMicroseconds:
            return .int(Int64((value.timeIntervalSince1970 * 1_000_000).rounded()))
        case .unixNanoseconds:
            return .int(Int64((value.timeIntervalSince1970 * 1_000_000).rounded()) * 1_000)
        case .iso8601:
            return .string(value.formatted(.iso8601))
        case .unixSeconds:
            let seconds = value.timeIntervalSince1970
            return seconds == seconds.rounded() ? .int(Int64(seconds)) : .double(seconds)
        case .unixMilliseconds:
            return .int(Int64((value.timeIntervalSince1970 * 1000).rounded()))
        }
    }
}

extension ValueTransform where Self == DateTransform {
    /// `20161010` (number or string), read as midnight UTC.
    public static var yyyyMMdd: DateTransform { DateTransform(.yyyyMMdd(TimeZone(identifier: "UTC") ?? .current)) }
    /// `20161010`, read as midnight in `timeZone`.
    public static func yyyyMMdd(in timeZone: TimeZone) -> DateTransform { DateTransform(.yyyyMMdd(timeZone)) }
    /// ISO-8601 text, with or without fractional seconds.
    public static var iso8601: DateTransform { DateTransform(.iso8601) }
    /// Seconds since 1970.
    public static var unixSeconds: DateTransform { DateTransform(.unixSeconds) }
    /// Milliseconds since 1970.
    public static var unixMilliseconds: DateTransform { DateTransform(.unixMilliseconds) }
    /// Microseconds since 1970.
    public static var unixMicroseconds: DateTransform { DateTransform(.unixMicroseconds) }
    /// Nanoseconds since 1970 (kept to the microsecond).
    public static var unixNanoseconds: DateTransform { DateTransform(.unixNanoseconds) }
    /// `"2016-10-10"`, read as midnight UTC.
    public static var yearMonthDay: DateTransform { DateTransform(.yearMonthDay(TimeZone(identifier: "UTC") ?? .current)) }
    /// `"2016-10-10"`, read as midnight in `timeZone`.
    public static func yearMonthDay(in timeZone: TimeZone) -> DateTransform { DateTransform(.yearMonthDay(timeZone)) }
    /// RFC 2822 text: `"Sun, 13 Nov 2016 08:30:00 +0000"`.
    public static var rfc2822: DateTransform { DateTransform(.rfc2822) }
}

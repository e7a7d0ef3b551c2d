import Foundation

/// Reads and writes dates in the shapes servers use: `20161010`, ISO-8601, Unix seconds or
/// milliseconds.
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
    }

    /// The format this transform reads and writes.
    public var format: Format

    /// A transform for `format`.
    public init(_ format: Format) { self.format = format }

    public func decode(_ json: JSONValue) -> Date? {
        switch format {
        case .yyyyMMdd(let zone):
            guard let text = json.string?.trimmingCharacters(in: .whitespaces), text.count == 8,
                let number = Int(text), number >= 0
            else { return nil }
            var components = DateComponents()
            components.year = number / 10_000
            components.month = number / 100 % 100
            components.day = number % 100
            guard (1...12).contains(components.month ?? 0), (1...31).contains(components.day ?? 0) else { return nil }
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            guard let date = calendar.date(from: components),
                calendar.component(.day, from: date) == components.day
            else { return nil }
            return date
        case .iso8601:
            guard let text = json.string else { return nil }
            if let date = try? Date(text, strategy: .iso8601) { return date }
            return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
        case .unixSeconds:
            return json.double.map { Date(timeIntervalSince1970: $0) }
        case .unixMilliseconds:
            return json.double.map { Date(timeIntervalSince1970: $0 / 1000) }
        }
    }

    public func encode(_ value: Date) -> JSONValue {
        switch format {
        case .yyyyMMdd(let zone):
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = zone
            let c = calendar.dateComponents([.year, .month, .day], from: value)
            let number = (c.year ?? 1970) * 10_000 + (c.month ?? 1) * 100 + (c.day ?? 1)
            return .string(String(number))
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
}

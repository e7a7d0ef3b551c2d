import Foundation

/// What a server said about reusing a response, kept beside its stored bytes: the validators a
/// revalidation sends back and the freshness the server gave it (RFC 9111, as a private cache
/// reads it).
///
/// The client makes one from each response it stores (``init(head:requestHeaders:responseTime:requestTime:)``)
/// and a ``ResponseCaching`` store keeps it with the data; `ResponseCache` does so in the
/// entry's metadata.
///
/// ```swift
/// let info = HTTPCacheInfo(head: response.head, requestHeaders: [:])
/// info.etag                      // "\"5f3c-1a\""
/// info.isFresh(residentFor: 30)  // true while max-age=60 has not run out
/// ```
public struct HTTPCacheInfo: Sendable, Hashable, Codable {
    /// The entity tag, sent back as `If-None-Match`.
    public var etag: String?
    /// The `Last-Modified` date as the server wrote it, sent back as `If-Modified-Since`.
    public var lastModified: String?
    /// Seconds the response stays fresh from its generation at the origin: `max-age`, else
    /// `Expires` − `Date`, else 10% of the time since `Last-Modified` (at most a day), else 0.
    public var freshnessLifetime: TimeInterval
    /// The response's age when it was stored (`Age`, and the time since its `Date`).
    public var initialAge: TimeInterval
    /// `Cache-Control: no-cache`: the response may be stored but must be revalidated before each use.
    public var requiresRevalidation: Bool
    /// `Cache-Control: must-revalidate`: once stale, never served without revalidation, even offline.
    public var mustRevalidate: Bool
    /// The values the request had for each header the response's `Vary` names (lowercased
    /// names; `nil` for a header the request did not send). A request with other values does
    /// not match the entry.
    public var vary: [String: String?]

    /// Describes a stored response.
    public init(
        etag: String? = nil,
        lastModified: String? = nil,
        freshnessLifetime: TimeInterval = 0,
        initialAge: TimeInterval = 0,
        requiresRevalidation: Bool = false,
        mustRevalidate: Bool = false,
        vary: [String: String?] = [:]
    ) {
        self.etag = etag
        self.lastModified = lastModified
        self.freshnessLifetime = freshnessLifetime
        self.initialAge = initialAge
        self.requiresRevalidation = requiresRevalidation
        self.mustRevalidate = mustRevalidate
        self.vary = vary
    }

    /// Reads what `head` says about reusing the response; `nil` when it must not be stored at
    /// all (`Cache-Control: no-store`, or `Vary: *`).
    ///
    /// - Parameters:
    ///   - head: the response's status and headers.
    ///   - requestHeaders: the headers the request was sent with (for `Vary`).
    ///   - responseTime: when the response arrived.
    ///   - requestTime: when the request was sent (for the age the response gathered in transit).
    public init?(head: ResponseHead, requestHeaders: [String: String], responseTime: Date = Date(), requestTime: Date? = nil) {
        let control = CacheControl(head.header("Cache-Control"))
        if control.noStore { return nil }
        var vary: [String: String?] = [:]
        for name in Self.varyNames(head.header("Vary")) {
            if name == "*" { return nil }
            vary[name] = Self.value(of: name, in: requestHeaders)
        }
        self.vary = vary
        etag = head.header("ETag")
        lastModified = head.header("Last-Modified")
        requiresRevalidation = control.noCache
        mustRevalidate = control.mustRevalidate
        let date = head.header("Date").flatMap(HTTPDate.parse)
        // RFC 9111 §4.2.3: apparent age, corrected by the Age header and the time in transit.
        let apparentAge = max(0, responseTime.timeIntervalSince(date ?? responseTime))
        let ageValue = head.header("Age").flatMap { TimeInterval($0.trimmingCharacters(in: .whitespaces)) }.map { max(0, $0) } ?? 0
        let delay = max(0, responseTime.timeIntervalSince(requestTime ?? responseTime))
        initialAge = max(apparentAge, ageValue + delay)
        if let maxAge = control.maxAge {
            freshnessLifetime = maxAge
        } else if let expiresText = head.header("Expires") {
            // An Expires that is not a date means "already expired".
            let expires = HTTPDate.parse(expiresText)
            freshnessLifetime = expires.map { max(0, $0.timeIntervalSince(date ?? responseTime)) } ?? 0
        } else if let modified = lastModified.flatMap(HTTPDate.parse) {
            freshnessLifetime = min(Self.heuristicLimit, max(0, (date ?? responseTime).timeIntervalSince(modified) / 10))
        } else {
            freshnessLifetime = 0
        }
    }

    /// The longest heuristic freshness given to a response with only `Last-Modified`: one day.
    public static let heuristicLimit: TimeInterval = 24 * 3600

    /// Whether the entry has something to revalidate with (`ETag` or `Last-Modified`).
    public var canRevalidate: Bool { etag != nil || lastModified != nil }

    /// The response's age after `resident` seconds in the cache.
    public func currentAge(residentFor resident: TimeInterval) -> TimeInterval {
        initialAge + max(0, resident)
    }

    /// Whether the response may be used without asking the server, `resident` seconds after it
    /// was stored (or last revalidated).
    public func isFresh(residentFor resident: TimeInterval) -> Bool {
        !requiresRevalidation && freshnessLifetime > currentAge(residentFor: resident)
    }

    /// Whether a request sent with `requestHeaders` may be answered by this entry (`Vary`).
    public func matches(requestHeaders: [String: String]) -> Bool {
        vary.allSatisfy { name, value in Self.value(of: name, in: requestHeaders) == value }
    }

    /// The conditional headers that revalidate this entry.
    public var conditionalHeaders: [String: String] {
        var headers: [String: String] = [:]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        return headers
    }

    /// The entry after a `304 Not Modified`: validators and freshness the `304` carries replace
    /// the stored ones (RFC 9111 §4.3.4); what it leaves out stays.
    public func updated(by notModified: ResponseHead, requestHeaders: [String: String], responseTime: Date = Date(), requestTime: Date? = nil) -> HTTPCacheInfo?
    {
        let fresh = HTTPCacheInfo(head: notModified, requestHeaders: requestHeaders, responseTime: responseTime, requestTime: requestTime)
        guard var fresh else { return nil }
        fresh.etag = fresh.etag ?? etag
        fresh.lastModified = fresh.lastModified ?? lastModified
        let statesFreshness = notModified.header("Cache-Control") != nil || notModified.header("Expires") != nil
        if !statesFreshness {
            fresh.freshnessLifetime = freshnessLifetime
            fresh.requiresRevalidation = requiresRevalidation
            fresh.mustRevalidate = mustRevalidate
        }
        if notModified.header("Vary") == nil { fresh.vary = vary }
        return fresh
    }

    // MARK: - Header grammar

    static func varyNames(_ header: String?) -> [String] {
        guard let header else { return [] }
        return header.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }.filter { !$0.isEmpty }
    }

    static func value(of name: String, in headers: [String: String]) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }
}

/// The `Cache-Control` directives a private cache acts on.
struct CacheControl: Hashable {
    var maxAge: TimeInterval?
    var noStore = false
    var noCache = false
    var mustRevalidate = false

    /// Reads a `Cache-Control` value: comma-separated directives, names case-insensitive,
    /// arguments as tokens or quoted strings. An unreadable `max-age` counts as `0` (stale),
    /// and the first of a repeated directive wins.
    init(_ header: String?) {
        guard let header else { return }
        for (name, argument) in Self.directives(header) {
            switch name {
            case "max-age":
                if maxAge == nil { maxAge = argument.flatMap { TimeInterval($0) }.map { max(0, $0) } ?? 0 }
            case "no-store": noStore = true
            case "no-cache": noCache = true
            case "must-revalidate", "proxy-revalidate": mustRevalidate = true
            default: break
            }
        }
    }

    static func directives(_ header: String) -> [(String, String?)] {
        var result: [(String, String?)] = []
        var rest = Substring(header)
        while !rest.isEmpty {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "," }
            guard !rest.isEmpty else { break }
            let name = rest.prefix { $0 != "=" && $0 != "," }
            rest = rest.dropFirst(name.count)
            var argument: String?
            if rest.first == "=" {
                rest = rest.dropFirst()
                if rest.first == "\"" {
                    rest = rest.dropFirst()
                    var text = ""
                    while let character = rest.first, character != "\"" {
                        rest = rest.dropFirst()
                        if character == "\\", let escaped = rest.first {
                            text.append(escaped)
                            rest = rest.dropFirst()
                        } else {
                            text.append(character)
                        }
                    }
                    rest = rest.dropFirst()
                    argument = text
                } else {
                    let token = rest.prefix { $0 != "," }
                    rest = rest.dropFirst(token.count)
                    argument = token.trimmingCharacters(in: .whitespaces)
                }
            }
            result.append((name.trimmingCharacters(in: .whitespaces).lowercased(), argument))
        }
        return result
    }
}

/// HTTP dates (RFC 9110 §5.6.7): the IMF-fixdate servers send today, and the obsolete RFC 850
/// and asctime forms a recipient must still read.
enum HTTPDate {
    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]

    static func parse(_ text: String) -> Date? {
        let parts = text.split { $0 == " " || $0 == "," || $0 == "\t" }.map(String.init)
        let day, month, year: Int?
        let time: String
        switch parts.count {
        case 6 where parts[5].uppercased() == "GMT": // Sun, 06 Nov 1994 08:49:37 GMT
            (day, month, year, time) = (Int(parts[1]), monthNumber(parts[2]), Int(parts[3]), parts[4])
        case 4 where parts[3].uppercased() == "GMT": // Sunday, 06-Nov-94 08:49:37 GMT
            let date = parts[1].split(separator: "-").map(String.init)
            guard date.count == 3, let short = Int(date[2]) else { return nil }
            // Two-digit years: the RFC reads one more than 50 years ahead as the past century.
            (day, month, year, time) = (Int(date[0]), monthNumber(date[1]), short < 70 ? 2000 + short : 1900 + short, parts[2])
        case 5: // Sun Nov  6 08:49:37 1994
            (day, month, year, time) = (Int(parts[2]), monthNumber(parts[1]), Int(parts[4]), parts[3])
        default:
            return nil
        }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard let day, let month, let year, clock.count == 3, (1...31).contains(day),
            (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2])
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + clock[0] * 3600 + clock[1] * 60 + clock[2]))
    }

    private static func monthNumber(_ name: String) -> Int? {
        months.firstIndex(of: name.lowercased()).map { $0 + 1 }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar.
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

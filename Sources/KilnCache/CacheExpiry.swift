import Foundation

/// When a cached value stops being served.
///
/// ```swift
/// cache.set(data, forKey: "feed", expiry: .after(300))      // five minutes from now
/// cache.set(data, forKey: "config", expiry: .at(midnight))
/// cache.set(data, forKey: "avatar")                          // .never
/// ```
public enum CacheExpiry: Sendable, Hashable {
    /// The value stays until it is removed or trimmed.
    case never
    /// The value expires at this date.
    case at(Date)
    /// The value expires this many seconds after it is stored.
    case after(TimeInterval)

    /// The expiry date for a value stored at `now`, or `nil` for ``never``.
    public func date(from now: Date) -> Date? {
        switch self {
        case .never: return nil
        case .at(let date): return date
        case .after(let seconds): return now.addingTimeInterval(seconds)
        }
    }
}

import Foundation

/// Where a cache reads the current date from, so expiry can be tested without sleeping.
///
/// ```swift
/// let cache = MemoryCache(clock: .system)
/// // In a test: a clock stopped at a date, or one reading a date the test moves by hand.
/// let stopped = MemoryCache(clock: .fixed(Date(timeIntervalSince1970: 0)))
/// let moved = MemoryCache(clock: CacheClock { testDate.current })
/// ```
public struct CacheClock: Sendable {
    private let read: @Sendable () -> Date

    /// Creates a clock that calls `now` whenever a cache needs the date.
    public init(now: @escaping @Sendable () -> Date) {
        self.read = now
    }

    /// The current date.
    public func now() -> Date {
        read()
    }

    /// The system clock (`Date()`).
    public static let system = CacheClock { Date() }

    /// A clock stopped at `date`.
    public static func fixed(_ date: Date) -> CacheClock {
        CacheClock { date }
    }
}

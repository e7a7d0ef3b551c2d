import KilnSupport

/// A thread-safe list of what happened, in order: hand its ``append(_:)`` to a `@Sendable`
/// callback (an event monitor, a policy's `onRepair`, a cache's events, a route's handler) and
/// read ``entries`` afterwards.
///
/// ```swift
/// let seen = Recorder<String>()
/// server.route(.get, "/ping") { request in
///     seen.append(request.path)
///     return .json(["ok": true])
/// }
/// // … after the client's calls:
/// #expect(seen.entries == ["/ping"])
/// ```
public final class Recorder<Entry: Sendable>: Sendable {
    private let storage = LockedValue([Entry]())

    /// An empty recorder.
    public init() {}

    /// Adds `entry` after every entry recorded so far.
    public func append(_ entry: Entry) {
        storage.withLock { $0.append(entry) }
    }

    /// What was recorded, oldest first.
    public var entries: [Entry] { storage.current }
}

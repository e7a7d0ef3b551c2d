import Foundation
import KilnSupport

/// A clock that moves only when a test moves it, for code that waits or reads the time.
///
/// Sleeping on it suspends until ``advance(by:)`` passes the deadline, so a test decides when a
/// retry delay, a debounce or an expiry is over, without waiting for real time. ``date`` gives
/// the same moment as a `Date`, for APIs that take a date source (a cache's clock).
///
/// ```swift
/// let clock = TestClock()
/// var client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [RetryInterceptor()])
/// client.sleep = { try await clock.sleep(for: $0) }
///
/// let call = Task { [client] in try await client.send(Endpoint<Page>.get("/page")) }
/// await clock.waitForSleepers(count: 1)      // the first retry is waiting
/// clock.advance(by: .seconds(1))             // …and now it goes
/// ```
///
/// Cancelling a sleeping task ends its sleep with `CancellationError`.
public final class TestClock: Clock, @unchecked Sendable {
    /// A moment on a ``TestClock``: how far it has been advanced.
    public struct Instant: InstantProtocol, Hashable, Sendable {
        /// The time since the clock started.
        public var offset: Duration

        /// The moment `offset` after the clock started.
        public init(offset: Duration) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var current = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        var nextID: UInt64 = 0
        var sleeperWatchers: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Removes and returns the watchers the current sleepers satisfy.
        mutating func takeSatisfiedWatchers() -> [CheckedContinuation<Void, Never>] {
            let satisfied = sleeperWatchers.filter { $0.count <= sleepers.count }.map(\.continuation)
            sleeperWatchers.removeAll { $0.count <= sleepers.count }
            return satisfied
        }
    }

    private let state = LockedValue(State())
    private let start: Date

    /// A clock at offset zero, whose ``date`` starts at `start`.
    public init(start: Date = Date(timeIntervalSince1970: 1_700_000_000)) {
        self.start = start
    }

    /// The clock's current moment.
    public var now: Instant {
        state.withLock { $0.current }
    }

    /// The current moment as a date: `start` plus how far the clock has been advanced.
    public var date: Date {
        let offset = now.offset.components
        return start.addingTimeInterval(TimeInterval(offset.seconds) + TimeInterval(offset.attoseconds) / 1e18)
    }

    /// The smallest step the clock distinguishes.
    public var minimumResolution: Duration { .zero }

    /// How many tasks are sleeping on the clock right now.
    public var sleeperCount: Int {
        state.withLock { $0.sleepers.count }
    }

    /// Suspends until the clock is advanced to `deadline` (or past it), or the task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try Task.checkCancellation()
        let id = state.withLock { state in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // Checked under the lock the cancellation handler takes: a cancellation either
                // came before (and is seen here) or finds the sleeper registered.
                let (ending, watchers) = state.withLock { state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
                    if Task.isCancelled { return (.failure(CancellationError()), []) }
                    if deadline <= state.current { return (.success(()), []) }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return (nil, state.takeSatisfiedWatchers())
                }
                if let ending { continuation.resume(with: ending) }
                for watcher in watchers { watcher.resume() }
            }
        } onCancel: {
            let cancelled = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            cancelled?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock forward by `duration` and wakes every sleeper whose deadline it reached,
    /// earliest first.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            let now = state.current.advanced(by: max(duration, .zero))
            state.current = now
            let due = state.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Returns once at least `count` tasks are sleeping on the clock: the point at which a test
    /// knows the code under test has reached its wait.
    public func waitForSleepers(count: Int = 1) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state -> Bool in
                if state.sleepers.count >= count { return true }
                state.sleeperWatchers.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}

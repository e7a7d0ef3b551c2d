import Foundation
import KilnSupport

/// Holds the one task a view model has in flight, so that a new load or the owner's `deinit`
/// (which runs outside the main actor) can cancel it.
final class TaskSlot: Sendable {
    // Locked: written on the main actor, cancelled from any `deinit`.
    private let task = LockedValue<Task<Void, Never>?>(nil)

    /// Cancels the task in flight, if any, and holds `task` instead.
    func replace(with task: Task<Void, Never>) {
        let old = self.task.withLock { held in
            defer { held = task }
            return held
        }
        old?.cancel()
    }

    /// The task in flight, if any.
    var current: Task<Void, Never>? { task.current }

    /// Holds `task` (cancelling the one before) and returns when it ends. Cancelling the
    /// caller (a SwiftUI `.task` whose view went away) cancels `task`.
    ///
    /// Runs on the caller's actor, so `task` is held before the caller can be re-entered: a
    /// `load()` that follows sees it and joins it.
    func run(_ task: Task<Void, Never>, isolation: isolated (any Actor)? = #isolation) async {
        replace(with: task)
        await withTaskCancellationHandler {
            await task.value
        } onCancel: {
            task.cancel()
        }
        clear(ifHolding: task)
    }

    /// Waits for the task in flight; returns `false` at once if there is none.
    func join(isolation: isolated (any Actor)? = #isolation) async -> Bool {
        guard let running = current else { return false }
        await running.value
        return true
    }

    /// Forgets `task` if it is still the one held (it finished).
    func clear(ifHolding task: Task<Void, Never>) {
        self.task.withLock { held in
            if held == task { held = nil }
        }
    }

    /// Cancels and forgets the task in flight.
    func cancel() {
        let old = task.withLock { held in
            defer { held = nil }
            return held
        }
        old?.cancel()
    }
}

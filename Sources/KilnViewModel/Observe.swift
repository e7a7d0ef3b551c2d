import Observation

/// Calls `apply` now, and again on the main actor whenever an observable value it read changes,
/// until the returned token is cancelled or released: the "observe and redraw" of a UIKit-style or
/// terminal view.
///
/// ```swift
/// final class BlogListController: UIViewController {
///     let model: BlogListViewModel
///     private var observation: ObservationToken?
///
///     override func viewDidLoad() {
///         super.viewDidLoad()
///         observation = observeChanges { [weak self] in
///             guard let self else { return }
///             render(model.articles.items)      // reading `items` is what is observed
///         }
///     }
/// }
/// ```
///
/// Each call tracks what that call read, so a closure that reads different values on different
/// runs follows them. Changes made in one burst (synchronous code on the main actor, such as a page
/// that sets `items`, `hasMore` and `phase`) produce one call, made after the burst, when all of
/// the new values are in place. After ``ObservationToken/cancel()`` — or once the token is
/// released — `apply` is never called again.
///
/// Built on `withObservationTracking`, so it runs on iOS 17 and macOS 14, where `Observations`
/// does not exist.
///
/// The name is not `observe`: inside an `NSObject` subclass (every view controller) an unqualified
/// `observe { … }` would find `NSObject`'s key-value-observing method first and not compile.
@MainActor
public func observeChanges(_ apply: @escaping @MainActor () -> Void) -> ObservationToken {
    let observer = Observer(apply: apply)
    observer.track()
    return ObservationToken(observer: observer)
}

/// Keeps an ``observeChanges(_:)`` running; cancelling or releasing it stops the calls.
///
/// ```swift
/// var observation: ObservationToken? = observeChanges { render(model) }
/// observation = nil   // or observation?.cancel()
/// ```
@MainActor
public final class ObservationToken {
    private var observer: Observer?

    init(observer: Observer) {
        self.observer = observer
    }

    /// Stops the calls; none is made after this returns, not even one already scheduled.
    public func cancel() {
        observer?.isCancelled = true
        observer = nil
    }

    /// Whether ``cancel()`` was called.
    public var isCancelled: Bool { observer == nil }

    // Releasing the token releases the observer; the change handlers hold it weakly, so they stop.
}

/// The state of one ``observeChanges(_:)``: the closure and whether a call is already scheduled.
@MainActor
final class Observer {
    private let apply: @MainActor () -> Void
    var isCancelled = false
    private var isScheduled = false

    init(apply: @escaping @MainActor () -> Void) {
        self.apply = apply
    }

    /// Calls `apply`, recording what it reads; the first change to any of it schedules the next call.
    func track() {
        guard !isCancelled else { return }
        withObservationTracking {
            apply()
        } onChange: { [weak self] in
            // Runs in `willSet`, on whatever thread made the change, before the value is stored.
            // Hopping to the main actor both isolates the call and lets the burst finish.
            Task { @MainActor [weak self] in
                self?.changed()
            }
        }
    }

    private func changed() {
        guard !isCancelled, !isScheduled else { return }
        isScheduled = true
        // One more hop: changes made right after the first one, in the same main-actor turn or in
        // tasks already queued behind it, are taken in by the same call.
        Task { @MainActor [weak self] in
            guard let self else { return }
            self.isScheduled = false
            self.track()
        }
    }
}

import KilnNetwork
import Foundation
import struct KilnModel.Repair
import Observation

/// Starts a load: returns the values of one load in the order they arrive (a cached value first,
/// then the fresh one, under `cacheThenNetwork`). Errors end the stream.
///
/// `APIClient.values(for:policy:)` has exactly this shape; a test can return any stream.
public typealias SourcedStream<Value: Sendable> = @Sendable () -> AsyncThrowingStream<Sourced<Value>, any Error>

/// A view model for one value from a server: runs a loader (usually an endpoint with a cache
/// policy) and publishes the value, where it came from, and the loading state.
///
/// ```swift
/// @MainActor @Observable
/// final class ProfileViewModel {
///     let profile: Resource<Profile>
///     init(client: APIClient) {
///         profile = Resource(client: client, endpoint: .profile, policy: .cacheThenNetwork)
///     }
/// }
///
/// // SwiftUI
/// ProfileView(profile: model.profile.value)
///     .task { await model.profile.load() }
///     .refreshable { await model.profile.refresh() }
/// ```
///
/// Under `cacheThenNetwork` the states are `idle` → `loading(previous: nil)` →
/// `loading(previous: cached)` (with ``origin`` `.cache(age:)`) → `loaded(fresh)` (with ``origin``
/// `.network`). A failure keeps the value shown: `failed(_, previous: cached)`.
///
/// Only one load runs at a time: ``refresh()`` cancels the load in flight, and so do ``cancel()``,
/// cancelling the task that called ``load()`` (a SwiftUI `.task` whose view disappeared) and
/// releasing the resource (its `deinit`). A cancelled load never writes its results.
///
/// ## Topics
/// - ``load()``
/// - ``refresh()``
/// - ``cancel()``
/// - ``state``
/// - ``origin``
@MainActor
@Observable
public final class Resource<Value: Sendable> {
    /// The loading state, holding the value to show.
    public private(set) var state: Loadable<Value> = .idle
    /// Where ``value`` came from (`.cache(age:)` or `.network`), or `nil` before the first value.
    public private(set) var origin: ValueOrigin?
    /// What the tolerant decoder repaired to produce ``value``.
    public private(set) var repairs: [Repair] = []

    @ObservationIgnored private let loader: SourcedStream<Value>
    @ObservationIgnored private let inFlight = TaskSlot()
    @ObservationIgnored private var generation = 0

    /// A resource that loads with `load`, which returns one stream of values per load.
    ///
    /// ```swift
    /// let resource = Resource<Article> { client.values(for: .article(id: 7), policy: .cacheThenNetwork) }
    /// ```
    public init(load: @escaping SourcedStream<Value>) {
        self.loader = load
    }

    /// A resource whose every load calls `fetch` once and marks the value as from the network.
    ///
    /// ```swift
    /// let detail = Resource { try await client.send(.article(id: 7)) }
    /// ```
    public convenience init(fetch: @escaping @Sendable () async throws -> Value) {
        self.init(load: {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        continuation.yield(Sourced(value: try await fetch(), origin: .network))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        })
    }

    deinit {
        // `deinit` is not isolated (isolated deinit needs newer OS runtimes than iOS 17):
        // `inFlight` is a `let` of a Sendable type, safe to reach from here.
        inFlight.cancel()
    }

    /// The value to show, if any: the loaded one, or the one kept while loading or after a failure.
    public var value: Value? { state.value }
    /// Whether a load is running.
    public var isLoading: Bool { state.isLoading }
    /// Why the last load failed, or `nil`.
    public var failure: LoadFailure? { state.failure }

    /// Loads unless a value is already loaded; joins the load in flight instead of starting another.
    ///
    /// Call it when the view appears (`.task { await resource.load() }`); it returns when the load
    /// ends. A resource that failed loads again.
    public func load() async {
        if await inFlight.join() { return }
        if case .loaded = state { return }
        await start()
    }

    /// Loads again, keeping the current value visible; cancels the load in flight, whose results
    /// are then never written. Returns when the new load ends.
    public func refresh() async {
        await start()
    }

    /// Cancels the load in flight. The state goes back to the value it showed (or `idle`).
    public func cancel() {
        generation += 1
        inFlight.cancel()
        if case .loading(let previous) = state {
            state = previous.map { .loaded($0) } ?? .idle
        }
    }

    // MARK: - Machinery

    private func start() async {
        generation += 1
        let generation = generation
        state = state.reloading
        let task = Task { [weak self, loader] in
            do {
                for try await sourced in loader() {
                    guard let self, self.generation == generation else { return }
                    self.deliver(sourced)
                }
                guard let self, self.generation == generation else { return }
                self.finish()
            } catch {
                guard let self, self.generation == generation, !LoadFailure.isCancellation(error) else { return }
                self.state = .failed(LoadFailure(error), previous: self.state.value)
            }
        }
        await inFlight.run(task)
    }

    private func deliver(_ sourced: Sourced<Value>) {
        origin = sourced.origin
        repairs = sourced.repairs
        switch sourced.origin {
        // A cached value may be followed by a fresh one: the load is not over.
        case .cache: state = .loading(previous: sourced.value)
        case .network, .revalidated: state = .loaded(sourced.value)
        }
    }

    private func finish() {
        if case .loading(let previous) = state {
            state = previous.map { .loaded($0) } ?? .idle
        }
    }
}

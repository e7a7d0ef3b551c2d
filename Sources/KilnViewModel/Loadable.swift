/// The state of something a view shows while it loads: idle, loading, loaded or failed — keeping
/// the last value while it reloads and after a failure.
///
/// ```swift
/// switch resource.state {
/// case .idle, .loading(previous: nil):   ProgressView()
/// case .loading(let previous?):          ArticleView(previous).overlay(ProgressView())
/// case .loaded(let article):             ArticleView(article)
/// case .failed(let failure, let previous): ErrorView(failure, showing: previous)
/// }
/// ```
///
/// Most views only need ``value``, ``isLoading`` and ``failure``.
public enum Loadable<Value> {
    /// Nothing was asked for yet.
    case idle
    /// A load is running; `previous` is the value shown until it ends (a refresh, or a cached value
    /// shown while the fresh one is on its way).
    case loading(previous: Value?)
    /// The load finished with `Value`.
    case loaded(Value)
    /// The load failed; `previous` is the value from before, still worth showing.
    case failed(LoadFailure, previous: Value?)

    /// The value to show: the loaded one, or the one kept while loading or after a failure.
    public var value: Value? {
        switch self {
        case .idle: nil
        case .loading(let previous): previous
        case .loaded(let value): value
        case .failed(_, let previous): previous
        }
    }

    /// Whether a load is running.
    public var isLoading: Bool {
        if case .loading = self { true } else { false }
    }

    /// Whether a load is running while a value is already shown (pull-to-refresh, cache then network).
    public var isRefreshing: Bool {
        if case .loading(let previous) = self { previous != nil } else { false }
    }

    /// Why the last load failed, or `nil`.
    public var failure: LoadFailure? {
        if case .failed(let failure, _) = self { failure } else { nil }
    }

    /// The same state with the value transformed.
    ///
    /// ```swift
    /// let title: Loadable<String> = resource.state.map(\.title)
    /// ```
    public func map<Other>(_ transform: (Value) throws -> Other) rethrows -> Loadable<Other> {
        switch self {
        case .idle: .idle
        case .loading(let previous): .loading(previous: try previous.map(transform))
        case .loaded(let value): .loaded(try transform(value))
        case .failed(let failure, let previous): .failed(failure, previous: try previous.map(transform))
        }
    }

    /// The state a new load starts from: loading, keeping whatever value there was.
    var reloading: Loadable {
        .loading(previous: value)
    }
}

extension Loadable: Sendable where Value: Sendable {}
extension Loadable: Equatable where Value: Equatable {}
extension Loadable: Hashable where Value: Hashable {}

import Foundation
import Observation

/// A view model for a list that loads page by page: the first page resets, the next page
/// appends, and it knows when there is no more.
///
/// ```swift
/// @MainActor @Observable
/// final class BlogListViewModel {
///     let articles: PagedList<BlogListItemViewModel>
///
///     init(client: APIClient, category: String) {
///         articles = PagedList(pageSize: 20, deduplication: .by { $0.blogId }) { request in
///             let page = try await client.send(.articles(category: category, page: request.number))
///             return Page(items: page.list, hasMore: page.hasMore)
///         } makeItem: { article in
///             BlogListItemViewModel(article: article)
///         }
///     }
/// }
///
/// // SwiftUI
/// List(model.articles.items) { item in
///     Text(item.intro).onAppear { Task { await model.articles.loadMore(ifShowing: item) } }
/// }
/// .task { await model.articles.loadFirst() }
/// .refreshable { await model.articles.refresh() }
/// ```
///
/// **One load at a time.** A ``loadNext()`` while any load is in flight joins it: it waits for
/// that load to end and starts nothing (so scrolling that fires `loadNext()` ten times loads one
/// page). ``loadFirst()`` and ``refresh()`` always start over: they cancel the load in flight and
/// begin a new *generation*. A response that belongs to an earlier generation is dropped when it
/// arrives, even if its loader ignored the cancellation, so a page of the old list can never
/// land in the new one.
///
/// **Errors keep the items.** A failed page leaves ``items`` as they were, sets ``failure``, and
/// ``retry()`` runs the same load again.
///
/// **Every kind of paging.** Each ``PageRequest`` carries the page number, the offset (items
/// received so far), the previous page's cursor and its next link (`Link: <…>; rel="next"`, which
/// the `PagedList(client:…)` initializers follow themselves); the loader uses what its API
/// understands, and ``EndOfList`` reads the server's own signal for the end (the "Paged lists"
/// article has each way of paging).
///
/// **Appending is proportional to the page, not the list.** Items are appended in place, and
/// de-duplication keeps a set of the keys seen, so page 200 costs what page 1 costs.
///
/// ## Topics
/// - ``loadFirst()``
/// - ``loadNext()``
/// - ``refresh()``
/// - ``retry()``
/// - ``items``
/// - ``phase``
/// - ``hasMore``
@MainActor
@Observable
public final class PagedList<Item> {
    /// Which load a ``Phase`` is about.
    public enum LoadKind: Sendable, Hashable {
        /// The first page, after a reset (the list was emptied).
        case first
        /// The first page again, with the current items shown until it arrives.
        case refresh
        /// The page after the last one loaded.
        case next
    }

    /// What the list is doing.
    public enum Phase: Sendable, Hashable {
        /// Nothing was loaded yet.
        case idle
        /// A load is running.
        case loading(LoadKind)
        /// The last load succeeded.
        case loaded
        /// The last load failed; the items from before are kept.
        case failed(LoadFailure, LoadKind)
    }

    /// The items loaded so far, in page order.
    public private(set) var items: [Item] = []
    /// What the list is doing.
    public private(set) var phase: Phase = .idle
    /// Whether a page may follow the last one loaded (`true` until a page says otherwise).
    public private(set) var hasMore = true
    /// The number of pages in ``items`` (0 before the first page arrives).
    public private(set) var pagesLoaded = 0

    /// The items per page the list asks for.
    public let pageSize: Int
    /// The number of the first page (1 unless the API counts from 0).
    public let firstPageNumber: Int
    /// How the list knows it reached the end.
    public let endOfList: EndOfList

    @ObservationIgnored private let fetch: @MainActor (PageRequest) async throws -> Page<Item>
    @ObservationIgnored private let deduplication: Deduplication<Item>
    @ObservationIgnored private var seenKeys: Set<AnyHashable> = []
    @ObservationIgnored private var nextCursor: String?
    @ObservationIgnored private var nextLink: URL?
    /// Items the server sent for this list so far, before de-duplication (``PageRequest/offset``).
    @ObservationIgnored private var received = 0
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private let inFlight = TaskSlot()

    /// A list whose pages come from `load`.
    ///
    /// ```swift
    /// let list = PagedList<Message>(pageSize: 20) { request in
    ///     let page = try await client.send(.messages(page: request.number, size: request.size))
    ///     return Page(items: page.list, hasMore: page.hasMore)
    /// }
    /// ```
    public init(
        pageSize: Int = 20,
        firstPageNumber: Int = 1,
        endOfList: EndOfList = .automatic,
        deduplication: Deduplication<Item> = .none,
        load: @escaping @Sendable (PageRequest) async throws -> Page<Item>
    ) where Item: Sendable {
        self.pageSize = max(1, pageSize)
        self.firstPageNumber = firstPageNumber
        self.endOfList = endOfList
        self.deduplication = deduplication
        self.fetch = { @MainActor request in try await load(request) }
    }

    /// A list of item view models: pages of models come from `load` (off the main actor), and
    /// `makeItem` turns each model into the item the view shows (on the main actor).
    ///
    /// ```swift
    /// PagedList(pageSize: 20) { request in
    ///     Page(items: try await client.send(.articles(page: request.number)))
    /// } makeItem: { article in
    ///     BlogListItemViewModel(article: article)
    /// }
    /// ```
    public init<Model: Sendable>(
        pageSize: Int = 20,
        firstPageNumber: Int = 1,
        endOfList: EndOfList = .automatic,
        deduplication: Deduplication<Item> = .none,
        load: @escaping @Sendable (PageRequest) async throws -> Page<Model>,
        makeItem: @escaping @MainActor (Model) -> Item
    ) {
        self.pageSize = max(1, pageSize)
        self.firstPageNumber = firstPageNumber
        self.endOfList = endOfList
        self.deduplication = deduplication
        self.fetch = { @MainActor request in try await load(request).map { makeItem($0) } }
    }

    deinit {
        // Not isolated; `inFlight` is a Sendable `let`.
        inFlight.cancel()
    }

    // MARK: - Reading

    /// Whether a load is running.
    public var isLoading: Bool {
        if case .loading = phase { true } else { false }
    }

    /// Why the last load failed, or `nil`.
    public var failure: LoadFailure? {
        if case .failed(let failure, _) = phase { failure } else { nil }
    }

    /// Whether the list has loaded everything there is.
    public var isAtEnd: Bool { pagesLoaded > 0 && !hasMore }

    // MARK: - Loading

    /// Empties the list and loads the first page; cancels any load in flight, whose results are
    /// then never written. Returns when the page has landed (or failed).
    public func loadFirst() async {
        beginGeneration()
        items = []
        seenKeys = []
        pagesLoaded = 0
        nextCursor = nil
        nextLink = nil
        received = 0
        hasMore = true
        await run(.first)
    }

    /// Loads the first page again while the current items stay visible, then replaces them;
    /// cancels any load in flight. Returns when the page has landed (or failed).
    public func refresh() async {
        beginGeneration()
        await run(.refresh)
    }

    /// Appends the next page.
    ///
    /// - While a load is in flight, joins it (waits for it to end) and starts nothing.
    /// - At the end of the list, does nothing.
    /// - Before any page was loaded, loads the first page.
    public func loadNext() async {
        if await inFlight.join() { return }
        guard pagesLoaded > 0 else {
            await loadFirst()
            return
        }
        guard hasMore else { return }
        await run(.next)
    }

    /// Loads the next page when `item` is among the last `threshold` items (infinite scrolling),
    /// unless the last load failed (call ``retry()`` for that).
    public func loadMore(ifShowing item: Item, threshold: Int = 5) async where Item: AnyObject {
        guard hasMore, failure == nil, items.suffix(max(1, threshold)).contains(where: { $0 === item }) else { return }
        await loadNext()
    }

    /// Runs the load that failed again (first page, refresh or next page). Does nothing unless
    /// the last load failed.
    public func retry() async {
        guard case .failed(_, let kind) = phase else { return }
        switch kind {
        case .first: await loadFirst()
        case .refresh: await refresh()
        case .next: await run(.next)
        }
    }

    /// Cancels the load in flight; its results are never written.
    public func cancel() {
        beginGeneration()
        if case .loading = phase { phase = pagesLoaded > 0 ? .loaded : .idle }
    }

    // MARK: - Machinery

    private func beginGeneration() {
        generation += 1
        inFlight.cancel()
    }

    private func run(_ kind: LoadKind) async {
        let generation = generation
        let request =
            kind == .next
            ? PageRequest(number: firstPageNumber + pagesLoaded, cursor: nextCursor, size: pageSize, offset: received, link: nextLink)
            : PageRequest(number: firstPageNumber, size: pageSize)
        phase = .loading(kind)
        let task = Task { [weak self, fetch] in
            let result: Result<Page<Item>, any Error>
            do {
                result = .success(try await fetch(request))
            } catch {
                result = .failure(error)
            }
            // A load from an earlier generation (before a reset, refresh or cancel) never lands.
            guard let self, self.generation == generation else { return }
            switch result {
            case .success(let page): self.land(page, for: request, kind: kind)
            case .failure(let error) where LoadFailure.isCancellation(error): self.phase = self.pagesLoaded > 0 ? .loaded : .idle
            case .failure(let error): self.phase = .failed(LoadFailure(error), kind)
            }
        }
        await inFlight.run(task)
    }

    private func land(_ page: Page<Item>, for request: PageRequest, kind: LoadKind) {
        if kind != .next { seenKeys = [] }
        var fresh = page.items
        if let key = deduplication.key {
            fresh.removeAll { !seenKeys.insert(key($0)).inserted }
        }
        switch kind {
        case .first, .refresh:
            items = fresh
            pagesLoaded = 1
            received = page.items.count
        case .next:
            // In place: `items` is uniquely referenced, so this costs the page, not the list.
            items.append(contentsOf: fresh)
            pagesLoaded += 1
            received += page.items.count
        }
        nextCursor = page.nextCursor
        nextLink = page.nextLink
        hasMore = endOfList.hasMore(after: page, request: request, pagesLoaded: pagesLoaded, size: pageSize)
        phase = .loaded
    }
}

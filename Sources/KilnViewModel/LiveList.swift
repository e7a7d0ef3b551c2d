import Foundation
import KilnNetwork
import Observation

/// A view model for live data — chat messages, notifications, an answer arriving in pieces —
/// read from a `ResponseStream` (Server-Sent Events or JSON Lines): items are appended as they
/// arrive, and ``state`` says whether the stream is connecting, live, reconnecting, ended or
/// failed.
///
/// ```swift
/// @MainActor @Observable
/// final class ChatViewModel {
///     let messages: LiveList<MessageRow>
///
///     init(client: APIClient, room: String) {
///         messages = LiveList(keepingLast: 500) {
///             client.events(Endpoint<ChatMessage>.get("/rooms/\(room)/stream").timeout(60))
///         } makeItem: { message in
///             MessageRow(message)
///         }
///     }
/// }
///
/// // SwiftUI
/// List(model.messages.items) { row in MessageView(row) }
///     .overlay { if case .reconnecting = model.messages.state { ProgressView("Reconnecting…") } }
///     .task { await model.messages.start() }      // ends the stream when the view goes away
/// ```
///
/// Items are decoded off the main actor and made into view items on it. An item the stream
/// could not read is counted in ``unreadableItems`` and skipped; the stream goes on.
///
/// ## Topics
/// - ``start()``
/// - ``stop()``
/// - ``items``
/// - ``state``
@MainActor
@Observable
public final class LiveList<Item> {
    /// Where the stream is.
    public enum State: Sendable, Hashable {
        /// Not started, or stopped before it connected.
        case idle
        /// The request is on its way.
        case connecting
        /// The server answered; items arrive as it sends them.
        case live
        /// The connection dropped; the stream connects again (attempt `attempt` since the last
        /// item), `failure` saying why when it was an error.
        case reconnecting(attempt: Int, failure: LoadFailure?)
        /// The stream ended: the server closed it for good, or ``LiveList/stop()`` was called.
        case ended
        /// The stream failed; the items that arrived are kept.
        case failed(LoadFailure)
    }

    /// The items so far, oldest first (at most the newest ``limit``).
    public private(set) var items: [Item] = []
    /// Where the stream is.
    public private(set) var state: State = .idle
    /// How many items could not be read (skipped) since ``start()``.
    public private(set) var unreadableItems = 0
    /// The most items kept: older ones are dropped as new ones arrive (`nil`: all of them).
    public let limit: Int?

    @ObservationIgnored private let run: @MainActor (LiveList<Item>, Int) -> Task<Void, Never>
    @ObservationIgnored private var generation = 0
    @ObservationIgnored private let inFlight = TaskSlot()

    /// A list of view items over the stream `stream` makes: each model becomes an item through
    /// `makeItem`, on the main actor.
    public init<Model: Sendable>(
        keepingLast limit: Int? = nil,
        stream: @escaping @Sendable () -> ResponseStream<Model>,
        makeItem: @escaping @MainActor (Model) -> Item
    ) {
        self.limit = limit.map { max(1, $0) }
        self.run = { list, generation in
            Task.detached { [weak list] in
                do {
                    for try await update in stream() {
                        guard let list else { return }
                        await list.apply(update, generation: generation, makeItem: makeItem)
                    }
                    await list?.end(generation: generation, error: nil)
                } catch {
                    await list?.end(generation: generation, error: error)
                }
            }
        }
    }

    /// A list of the stream's values themselves.
    ///
    /// ```swift
    /// let notifications = LiveList { client.events(Endpoint<Notification>.get("/notifications")) }
    /// ```
    public convenience init(keepingLast limit: Int? = nil, stream: @escaping @Sendable () -> ResponseStream<Item>) where Item: Sendable {
        self.init(keepingLast: limit, stream: stream, makeItem: { $0 })
    }

    deinit {
        inFlight.cancel()
    }

    /// Empties the list, connects, and shows items until the stream ends, fails or is stopped;
    /// returns then. Cancelling the caller (a SwiftUI `.task` whose view went away) stops the
    /// stream and closes its connection. Calling it again starts over.
    public func start() async {
        generation += 1
        items = []
        unreadableItems = 0
        state = .connecting
        await inFlight.run(run(self, generation))
        // Cancelled from outside (the caller went away) before the stream said how it ended.
        if isRunning { state = .ended }
    }

    /// Stops the stream and closes its connection; the items stay.
    public func stop() {
        generation += 1
        inFlight.cancel()
        if isRunning { state = .ended }
    }

    /// Whether the stream is connecting, live or reconnecting.
    public var isRunning: Bool {
        switch state {
        case .connecting, .live, .reconnecting: true
        case .idle, .ended, .failed: false
        }
    }

    private func apply<Model>(_ update: StreamEvent<Model>, generation: Int, makeItem: @MainActor (Model) -> Item) {
        guard generation == self.generation else { return }
        switch update {
        case .opened:
            state = .live
        case .item(let item):
            guard let value = item.value else {
                unreadableItems += 1
                return
            }
            items.append(makeItem(value))
            if let limit, items.count > limit { items.removeFirst(items.count - limit) }
        case .reconnecting(let interruption):
            state = .reconnecting(attempt: interruption.attempt, failure: interruption.error.map { LoadFailure($0) })
        }
    }

    private func end(generation: Int, error: (any Error)?) {
        guard generation == self.generation else { return }
        if let error, !LoadFailure.isCancellation(error) {
            state = .failed(LoadFailure(error))
        } else {
            state = .ended
        }
    }
}

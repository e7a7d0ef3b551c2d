import Foundation
import KilnModel

/// A response read as it arrives: Server-Sent Events or lines, each item decoded on its own, with
/// the connection's changes in between. Made by ``APIClient/events(_:reconnection:)->ResponseStream<Value>``,
/// ``APIClient/jsonLines(_:)`` and ``APIClient/lines(_:)``.
///
/// Each iteration sends its own request. Items reach the loop as their bytes arrive, not when the
/// response ends. Ending the loop early, or cancelling the task that runs it, closes the
/// connection at once; a cancelled loop ends with ``APIError/cancelled``. A non-2xx answer ends the
/// stream with ``APIError/http(status:body:)`` (the client's interceptors may retry it first, as
/// for any call); `204 No Content` ends it quietly.
///
/// ```swift
/// for try await update in client.events(Endpoint<Notification>.get("/notifications")) {
///     if let notification = update.item?.value { show(notification) }
/// }
/// ```
public struct ResponseStream<Value: Sendable>: AsyncSequence, Sendable {
    public typealias Element = StreamEvent<Value>
    public typealias Failure = APIError

    /// How the body is cut into items.
    enum Format: Sendable {
        case serverSentEvents
        case lines
    }

    /// A piece of the body that makes one item.
    enum Unit {
        case event(ServerSentEvent)
        case line(ArraySlice<UInt8>)
    }

    let client: APIClient
    let endpoint: Endpoint<Value>
    let format: Format
    let reconnection: Reconnection
    let makeItem: @Sendable (Unit) -> StreamItem<Value>?

    /// The items alone, without the connection's changes: for loops that only show items.
    ///
    /// ```swift
    /// for try await line in client.lines(.get("/logs/tail")).items {
    ///     print(line.value ?? "")
    /// }
    /// ```
    public var items: AsyncCompactMapSequence<Self, StreamItem<Value>> {
        compactMap(\.item)
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(stream: self)
    }

    /// Reads the stream; one iterator, one request at a time.
    public struct Iterator: AsyncIteratorProtocol {
        private enum Phase {
            case connect
            case reading(AsyncThrowingStream<Data, any Error>.Iterator)
            case waiting(Duration)
            case done
        }

        private let stream: ResponseStream
        private var phase = Phase.connect
        private var parser = ServerSentEventParser()
        private var lines = LineSplitter(maximumLength: ServerSentEventParser.defaultMaximumLineLength)
        private var ready: [StreamEvent<Value>] = []
        private var readyIndex = 0
        /// Reconnections since an item last arrived.
        private var reconnections = 0

        init(stream: ResponseStream) {
            self.stream = stream
        }

        public mutating func next() async throws(APIError) -> StreamEvent<Value>? {
            try await next(isolation: nil)
        }

        public mutating func next(isolation actor: isolated (any Actor)?) async throws(APIError) -> StreamEvent<Value>? {
            while true {
                if readyIndex < ready.count {
                    defer {
                        readyIndex += 1
                        if readyIndex == ready.count {
                            ready.removeAll(keepingCapacity: true)
                            readyIndex = 0
                        }
                    }
                    return ready[readyIndex]
                }
                switch phase {
                case .done:
                    return nil
                case .waiting(let delay):
                    do {
                        try await stream.client.sleep(delay)
                    } catch {
                        phase = .done
                        throw .cancelled
                    }
                    phase = .connect
                case .connect:
                    if Task.isCancelled { return try finish(throwing: .cancelled) }
                    do throws(APIError) {
                        let (body, head) = try await stream.client.openStream(stream.request(lastEventID: parser.lastEventID))
                        guard head.status != 204 else {
                            // The server asks the client not to reconnect.
                            phase = .done
                            return nil
                        }
                        phase = .reading(body.makeAsyncIterator())
                        return .opened(head)
                    } catch {
                        if let interruption = interruption(after: error) { return interruption }
                        return try finish(throwing: error)
                    }
                case .reading(var body):
                    let chunk: Data?
                    do {
                        chunk = try await body.next(isolation: actor)
                    } catch {
                        if Task.isCancelled { return try finish(throwing: .cancelled) }
                        let failure = APIError(error)
                        endConnection(complete: false)
                        if let interruption = interruption(after: failure) { return interruption }
                        return try finish(throwing: failure)
                    }
                    guard let chunk else {
                        if Task.isCancelled { return try finish(throwing: .cancelled) }
                        endConnection(complete: true)
                        if stream.format == .serverSentEvents, let interruption = interruption(after: nil) { return interruption }
                        phase = .done
                        continue
                    }
                    phase = .reading(body)
                    do {
                        try read(chunk)
                    } catch {
                        return try finish(throwing: error)
                    }
                }
            }
        }

        /// Cuts `chunk` into items, queued in `ready`.
        private mutating func read(_ chunk: Data) throws(APIError) {
            do {
                switch stream.format {
                case .serverSentEvents:
                    var found: [ServerSentEvent] = []
                    try parser.feed(chunk) { found.append($0) }
                    for event in found { queue(.event(event)) }
                case .lines:
                    var found: [ArraySlice<UInt8>] = []
                    try lines.feed(chunk) { found.append($0) }
                    for line in found { queue(.line(line)) }
                }
            } catch {
                throw .transport(TransportError(.other, detail: String(describing: error)))
            }
        }

        private mutating func queue(_ unit: Unit) {
            guard let item = stream.makeItem(unit) else { return }
            reconnections = 0
            ready.append(.item(item))
        }

        /// Closes the reading of one connection: an event it left unfinished is dropped, and a
        /// last line without a line end is an item when the body was `complete`.
        private mutating func endConnection(complete: Bool) {
            switch stream.format {
            case .serverSentEvents:
                parser.finish()
            case .lines:
                if let last = lines.finish(), complete { queue(.line(last)) }
                lines = LineSplitter(maximumLength: lines.maximumLength)
            }
        }

        /// The reconnection to announce after `error` (`nil`: the server closed the stream), or
        /// `nil` when the stream must end instead.
        private mutating func interruption(after error: APIError?) -> StreamEvent<Value>? {
            guard stream.format == .serverSentEvents else { return nil }
            switch error {
            case nil, .transport?: break
            default: return nil
            }
            if let limit = stream.reconnection.maximumAttempts, reconnections >= limit { return nil }
            reconnections += 1
            let delay = stream.reconnection.delay(attempt: reconnections, serverTime: parser.reconnectionTime)
            phase = .waiting(delay)
            return .reconnecting(StreamInterruption(attempt: reconnections, delay: delay, error: error))
        }

        private mutating func finish(throwing error: APIError) throws(APIError) -> StreamEvent<Value>? {
            phase = .done
            throw error
        }
    }

    /// The request of one connection: the endpoint, asking for a stream, with `Last-Event-ID`
    /// when reconnecting to Server-Sent Events.
    func request(lastEventID: String) -> Endpoint<Value> {
        var endpoint = endpoint
        endpoint.sharesTransfer = false
        if format == .serverSentEvents {
            if !endpoint.headers.keys.contains(where: { $0.caseInsensitiveCompare("Accept") == .orderedSame }) {
                endpoint.headers["Accept"] = "text/event-stream"
            }
            endpoint.headers["Cache-Control"] = endpoint.headers["Cache-Control"] ?? "no-store"
            if !lastEventID.isEmpty { endpoint.headers["Last-Event-ID"] = lastEventID }
        }
        return endpoint
    }
}

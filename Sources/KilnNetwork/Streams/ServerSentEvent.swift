/// One event of a Server-Sent Events stream (`text/event-stream`), as the WHATWG HTML standard
/// dispatches it.
///
/// ```swift
/// for try await update in client.events(Endpoint<ServerSentEvent>.get("/notifications")) {
///     if case .item(let item) = update, let event = item.value {
///         print(event.type, event.data)        // "message" {"text":"hi"}
///     }
/// }
/// ```
public struct ServerSentEvent: Sendable, Hashable {
    /// The event's type: its `event:` field, or `"message"` when it had none.
    public var type: String
    /// The event's `data:` lines, joined with line feeds.
    public var data: String
    /// The last event ID when the event was dispatched: the latest `id:` field of the stream so
    /// far (it carries over to events that name none), or `""`.
    public var id: String

    /// Creates an event.
    public init(type: String = "message", data: String, id: String = "") {
        self.type = type
        self.data = data
        self.id = id
    }
}

/// Reads a Server-Sent Events stream as its bytes arrive, in any chunks, by the WHATWG HTML
/// standard's rules: `event`, `data` over several lines, `id` (kept across events; ignored when it
/// holds a NUL), `retry` (ASCII digits only), comments (`:` lines), a field without a colon, one
/// space after the colon dropped, dispatch at a blank line, CR, LF and CRLF line ends, a leading
/// byte-order mark. An event with no data is not dispatched, and an event the stream ends in the
/// middle of is dropped.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// try parser.feed(chunk) { event in show(event) }
/// ```
public struct ServerSentEventParser: Sendable {
    /// The ID a reconnection sends as `Last-Event-ID` (`""` until the stream names one).
    public private(set) var lastEventID = ""
    /// The reconnection time the stream asked for with `retry:`, or `nil`.
    public private(set) var reconnectionTime: Duration?

    private var lines: LineSplitter
    private var data: [UInt8] = []
    private var hasData = false
    private var type: [UInt8] = []

    /// The longest line a stream may send unless told otherwise: 8 MiB.
    public static let defaultMaximumLineLength = 8 * 1024 * 1024

    /// A parser that fails a stream with a line longer than `maximumLineLength` bytes.
    public init(maximumLineLength: Int = defaultMaximumLineLength) {
        lines = LineSplitter(maximumLength: maximumLineLength)
    }

    /// Reads `chunk` and calls `dispatch` with each event it completes, in order.
    ///
    /// - Throws: ``StreamFormatError`` when a line, or an event's data, is longer than the limit.
    public mutating func feed<Bytes: Collection<UInt8>>(
        _ chunk: Bytes, _ dispatch: (ServerSentEvent) throws -> Void
    ) throws where Bytes.Index == Int {
        let limit = lines.maximumLength
        // The splitter is taken out while it calls back into `self`.
        var splitter = LineSplitter(maximumLength: limit)
        swap(&splitter, &lines)
        defer { swap(&splitter, &lines) }
        try splitter.feed(chunk) { line in
            if let event = try self.process(line, limit: limit) { try dispatch(event) }
        }
    }

    /// Ends the stream: an event not yet dispatched is dropped, as the standard says. The last
    /// event ID and the reconnection time are kept, and the next ``feed(_:_:)`` reads a new
    /// stream (a reconnection's), which may open with a byte-order mark again.
    public mutating func finish() {
        lines = LineSplitter(maximumLength: lines.maximumLength)
        data = []
        hasData = false
        type = []
    }

    private mutating func process(_ line: ArraySlice<UInt8>, limit: Int) throws -> ServerSentEvent? {
        if line.isEmpty { return dispatch() }
        if line.first == UInt8(ascii: ":") { return nil }
        let name: ArraySlice<UInt8>
        var value: ArraySlice<UInt8>
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            name = line[..<colon]
            value = line[(colon + 1)...]
            if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        } else {
            name = line
            value = []
        }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            type = Array(value)
        case "data":
            guard data.count + value.count <= limit else { throw StreamFormatError.lineTooLong(limit: limit) }
            if hasData { data.append(0x0A) }
            data.append(contentsOf: value)
            hasData = true
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                let milliseconds = Int64(String(decoding: value, as: UTF8.self))
            {
                reconnectionTime = .milliseconds(milliseconds)
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type.removeAll(keepingCapacity: true)
        }
        guard hasData else { return nil }
        return ServerSentEvent(
            type: type.isEmpty ? "message" : String(decoding: type, as: UTF8.self),
            data: String(decoding: data, as: UTF8.self),
            id: lastEventID
        )
    }
}

/// Why a stream's bytes could not be cut into lines or events.
public enum StreamFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A line (or an event's data) ran past the limit without ending.
    case lineTooLong(limit: Int)

    public var description: String {
        switch self {
        case .lineTooLong(let limit): "A line of the stream is longer than \(limit) bytes."
        }
    }
}

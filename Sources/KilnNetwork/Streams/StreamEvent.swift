import Foundation
import KilnModel

/// What a ``ResponseStream`` reports: the connection opening, each item as it arrives, and a
/// connection that dropped and is being made again.
///
/// ```swift
/// for try await update in client.events(Endpoint<ChatDelta>.get("/chat/42/stream")) {
///     switch update {
///     case .opened: status = "live"
///     case .item(let item): if let delta = item.value { answer += delta.text }
///     case .reconnecting(let why): status = "reconnecting (attempt \(why.attempt))"
///     }
/// }
/// ```
public enum StreamEvent<Value: Sendable>: Sendable {
    /// The server answered with a success status: items follow. Sent again after each
    /// reconnection.
    case opened(ResponseHead)
    /// One item, read on its own: a value with its repair log, or why this item alone could not
    /// be read.
    case item(StreamItem<Value>)
    /// The connection ended or could not be made; the stream waits and connects again.
    case reconnecting(StreamInterruption)

    /// The item, when this is one.
    public var item: StreamItem<Value>? {
        if case .item(let item) = self { item } else { nil }
    }
}

/// One item of a stream: a Server-Sent Event's data or one JSON line, decoded on its own.
///
/// An item that cannot be read is a failure of that item, not of the stream: the next one is
/// read as usual.
///
/// ```swift
/// switch item.result {
/// case .success(let message): messages.append(message)
/// case .failure(let error): log("skipped an event: \(error)")
/// }
/// ```
public struct StreamItem<Value: Sendable>: Sendable {
    /// The decoded value, or why it could not be decoded.
    public var result: Result<Value, APIError>
    /// What the tolerant decoder repaired to produce the value (empty for a failure).
    public var repairs: [Repair]
    /// The Server-Sent Event the item came from; `nil` for JSON Lines and plain lines.
    public var event: ServerSentEvent?

    /// Creates an item.
    public init(result: Result<Value, APIError>, repairs: [Repair] = [], event: ServerSentEvent? = nil) {
        self.result = result
        self.repairs = repairs
        self.event = event
    }

    /// The value, or `nil` when the item could not be read.
    public var value: Value? { try? result.get() }

    /// The value, or the error that kept this item from being read.
    public func get() throws(APIError) -> Value { try result.get() }
}

/// Why a stream is connecting again, and when.
public struct StreamInterruption: Sendable, Hashable {
    /// Which reconnection this is since the stream last delivered an item (1 for the first).
    public var attempt: Int
    /// How long the stream waits before connecting again.
    public var delay: Duration
    /// What ended the connection: ``APIError/transport(_:)`` for a dropped or refused
    /// connection, or `nil` when the server closed the stream normally.
    public var error: APIError?

    /// Creates an interruption.
    public init(attempt: Int, delay: Duration, error: APIError?) {
        self.attempt = attempt
        self.delay = delay
        self.error = error
    }
}

/// When and how often a dropped Server-Sent Events stream connects again.
///
/// The wait starts at the server's `retry:` time (or ``initialDelay`` until the server sends
/// one), grows by ``multiplier`` with each attempt that delivers nothing, and is capped at
/// ``maximumDelay`` (or at the server's own time, if that is longer). After
/// ``maximumAttempts`` attempts in a row with no item, the stream fails with the last error.
///
/// ```swift
/// client.events(.get("/feed"), reconnection: Reconnection(initialDelay: .seconds(1), maximumAttempts: 20))
/// ```
public struct Reconnection: Sendable, Hashable {
    /// The wait before the first attempt, until the server names its own with `retry:`.
    public var initialDelay: Duration
    /// The factor the wait grows by with each attempt in a row that delivers no item.
    public var multiplier: Double
    /// The longest wait (the server's `retry:` time wins when it is longer).
    public var maximumDelay: Duration
    /// The attempts in a row without an item before the stream fails; `nil` tries forever.
    public var maximumAttempts: Int?

    /// Creates a reconnection policy.
    public init(initialDelay: Duration = .seconds(3), multiplier: Double = 2, maximumDelay: Duration = .seconds(60), maximumAttempts: Int? = 10) {
        self.initialDelay = initialDelay
        self.multiplier = max(1, multiplier)
        self.maximumDelay = maximumDelay
        self.maximumAttempts = maximumAttempts
    }

    /// Three seconds to start with (as browsers wait), doubling to a minute, ten attempts.
    public static let standard = Reconnection()

    /// Never connect again: a dropped connection ends the stream with its error, and a stream the
    /// server closes ends quietly.
    public static let never = Reconnection(maximumAttempts: 0)

    private static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }

    /// The wait before attempt `attempt` (from 1), given the server's `retry:` time if it sent one.
    func delay(attempt: Int, serverTime: Duration?) -> Duration {
        let base = serverTime ?? initialDelay
        let cap = max(maximumDelay, base)
        // In seconds as a double, so that a long run of attempts cannot overflow a Duration.
        let grown = Self.seconds(base) * pow(multiplier, Double(min(max(0, attempt - 1), 64)))
        return grown >= Self.seconds(cap) ? cap : .seconds(grown)
    }
}

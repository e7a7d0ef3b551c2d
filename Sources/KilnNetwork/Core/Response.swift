import Foundation
import KilnModel

/// A decoded value with everything known about the response it came from.
///
/// ```swift
/// let response = try await client.response(for: .messages(page: 1))
/// if !response.repairs.isEmpty { logger.notice("server sent \(response.repairs.count) odd values") }
/// show(response.value)
/// ```
public struct Response<Value: Sendable>: Sendable {
    /// The decoded value.
    public var value: Value
    /// What the tolerant decoder repaired (defaulted, coerced, dropped) to produce `value`.
    public var repairs: [Repair]
    /// The HTTP status and headers of the final attempt.
    public var head: ResponseHead
    /// Time from the first attempt's start to the decoded value.
    public var duration: Duration
    /// How many attempts were made (1 when no retry happened).
    public var attempts: Int

    /// The HTTP status code.
    public var status: Int { head.status }
    /// The response headers.
    public var headers: [String: String] { head.headers }

    /// Creates a response.
    public init(value: Value, repairs: [Repair], head: ResponseHead, duration: Duration, attempts: Int) {
        self.value = value
        self.repairs = repairs
        self.head = head
        self.duration = duration
        self.attempts = attempts
    }

    /// The same response with a transformed value.
    public func map<Other: Sendable>(_ transform: (Value) throws -> Other) rethrows -> Response<Other> {
        Response<Other>(value: try transform(value), repairs: repairs, head: head, duration: duration, attempts: attempts)
    }
}

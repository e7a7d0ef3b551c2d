import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A step every request of a client goes through: change the request before it is sent, decide
/// whether a failed attempt is tried again, and observe each attempt's outcome.
///
/// Interceptors run in the order the client lists them. ``adapt(_:context:)`` runs again for every
/// attempt, starting from the endpoint's request each time, so a retried request gets a fresh
/// token, timestamp and signature. For a failed attempt, the client asks each interceptor's
/// ``retry(_:failure:context:)`` in order and follows the first answer that is not
/// ``RetryDecision/doNotRetry``.
///
/// ```swift
/// struct DeviceHeader: Interceptor {
///     func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
///         var request = request
///         request.setValue("ios-17", forHTTPHeaderField: "X-Device")
///         return request
///     }
/// }
/// ```
public protocol Interceptor: Sendable {
    /// Returns the request to send for this attempt. Throwing fails the call with that error.
    func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest

    /// Decides whether the attempt that failed with `failure` is tried again.
    func retry(_ request: URLRequest, failure: AttemptFailure, context: RequestContext) async -> RetryDecision

    /// Observes the outcome of one attempt (for logging and metrics).
    func didComplete(_ request: URLRequest, outcome: AttemptOutcome, context: RequestContext) async
}

extension Interceptor {
    /// Leaves the request as it is.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest { request }
    /// Never asks for a retry.
    public func retry(_ request: URLRequest, failure: AttemptFailure, context: RequestContext) async -> RetryDecision { .doNotRetry }
    /// Does nothing.
    public func didComplete(_ request: URLRequest, outcome: AttemptOutcome, context: RequestContext) async {}
}

/// What an interceptor knows about the call an attempt belongs to.
public struct RequestContext: Sendable {
    /// What kind of call this is.
    public enum Kind: Sendable, Hashable {
        /// A request whose response body is read into memory.
        case data
        /// A request whose body is streamed from a file (multipart uploads).
        case upload
        /// A request whose response body is streamed to a file.
        case download
        /// A request whose response body is read as it arrives (Server-Sent Events, JSON Lines).
        case stream
    }

    /// The endpoint's method.
    public var method: HTTPMethod
    /// The endpoint's path, as declared.
    public var path: String
    /// Whether the endpoint may be sent again safely.
    public var isRetrySafe: Bool
    /// The attempt number, starting at 1.
    public var attempt: Int
    /// The kind of call.
    public var kind: Kind
}

/// The status line and headers of a response.
public struct ResponseHead: Sendable, Hashable {
    /// The HTTP status code.
    public var status: Int
    /// The headers, with names as the server sent them.
    public var headers: [String: String]
    /// The URL the response came from (after redirects), when known: what relative links in
    /// its headers resolve against (``links``).
    public var url: URL?

    /// Creates a response head.
    ///
    /// ```swift
    /// let head = ResponseHead(status: 200, headers: ["Link": #"</items?page=2>; rel="next""#],
    ///                         url: URL(string: "https://api.example.com/items"))
    /// head.link("next")   // https://api.example.com/items?page=2
    /// ```
    public init(status: Int, headers: [String: String], url: URL? = nil) {
        self.status = status
        self.headers = headers
        self.url = url
    }

    /// The value of a header, matching its name case-insensitively.
    public func header(_ name: String) -> String? {
        if let exact = headers[name] { return exact }
        let lowered = name.lowercased()
        return headers.first { $0.key.lowercased() == lowered }?.value
    }

    init(_ response: HTTPURLResponse) {
        var headers: [String: String] = [:]
        for (key, value) in response.allHeaderFields {
            headers[String(describing: key)] = String(describing: value)
        }
        self.init(status: response.statusCode, headers: headers, url: response.url)
    }
}

/// A failed attempt, as shown to ``Interceptor/retry(_:failure:context:)``.
public struct AttemptFailure: Sendable {
    /// Why this attempt failed (``APIError/http(status:body:)`` or ``APIError/transport(_:)``).
    public var error: APIError
    /// The response, when the server answered.
    public var response: ResponseHead?
    /// The failures of this call so far, oldest first, including this one.
    public var history: [APIError]
}

/// What to do after a failed attempt.
public enum RetryDecision: Sendable, Hashable {
    /// Fail the call with this attempt's error (unless a later interceptor asks for a retry).
    case doNotRetry
    /// Send the request again now.
    case retry
    /// Send the request again after waiting.
    case retryAfter(Duration)
}

/// How one attempt ended, as shown to ``Interceptor/didComplete(_:outcome:context:)``.
public struct AttemptOutcome: Sendable {
    /// The response head, when the server answered.
    public var response: ResponseHead?
    /// The error, when the attempt failed below the envelope check.
    public var error: APIError?
    /// How long the attempt took.
    public var duration: Duration
}

import Foundation

/// A typed description of one API call: where it goes, what it sends, and what it returns.
///
/// `Response` is the type the envelope's `data` decodes to. The endpoint holds no value of it,
/// so any type can be named (downloads ignore it).
///
/// ```swift
/// struct Message: Decodable, Sendable { var id = 0; var title = "--" }
///
/// extension Endpoint where Response == [Message] {
///     static func messages(page: Int) -> Self {
///         .get("/messages", query: [URLQueryItem(name: "page", value: String(page))])
///     }
/// }
///
/// let messages = try await client.send(.messages(page: 1))
/// ```
public struct Endpoint<Response>: Sendable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The path, relative to the client's base URL (`"/messages"` or `"messages"`), or an
    /// absolute `http` or `https` URL, which is used as it is (see ``following(_:)``).
    public var path: String
    /// Query items appended to the URL, in order.
    public var query: [URLQueryItem]
    /// Extra headers for this request. They override the client's defaults of the same name.
    public var headers: [String: String]
    /// The request body.
    public var body: RequestBody
    /// Seconds the request may stay idle before it fails with a timeout (10 s by default).
    public var timeout: TimeInterval
    /// Whether the request may be sent again after a failure without a risk of doing something twice.
    ///
    /// Defaults to `true` for GET, HEAD, PUT and DELETE and `false` for POST and PATCH.
    /// ``RetryInterceptor`` only retries requests for which this is `true`.
    public var isRetrySafe: Bool
    /// The envelope for this endpoint, or `nil` to use the client's.
    public var envelope: Envelope?
    /// The decoder for this endpoint's value, or `nil` for the client's ``APIClient/decoder``.
    public var decoding: ResponseDecoding?
    /// Whether identical calls in flight at the same moment share one transfer and one decode
    /// (`true` by default).
    ///
    /// Two calls of one client are identical when they have the same method (`GET` or `HEAD`; other
    /// methods never share), URL, headers as the endpoint and the client's defaults set them, value
    /// type and envelope. Each caller gets the value (or the error) of the one transfer; a caller
    /// that is cancelled stops waiting without disturbing the others, and the transfer is cancelled
    /// when the last caller leaves. Interceptors run once for the shared transfer, so they must not
    /// make two callers' requests differ in what the server answers (a per-caller header belongs
    /// in the endpoint). Turn it off for calls whose answer must be a transfer of their own.
    public var sharesTransfer: Bool

    /// Creates an endpoint.
    public init(
        method: HTTPMethod,
        path: String,
        query: [URLQueryItem] = [],
        headers: [String: String] = [:],
        body: RequestBody = .none,
        timeout: TimeInterval = 10,
        isRetrySafe: Bool? = nil,
        envelope: Envelope? = nil,
        decoding: ResponseDecoding? = nil,
        sharesTransfer: Bool = true
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.timeout = timeout
        self.isRetrySafe = isRetrySafe ?? method.isIdempotent
        self.envelope = envelope
        self.decoding = decoding
        self.sharesTransfer = sharesTransfer
    }

    /// A `GET` endpoint.
    public static func get(_ path: String, query: [URLQueryItem] = [], headers: [String: String] = [:]) -> Self {
        Self(method: .get, path: path, query: query, headers: headers)
    }

    /// A `POST` endpoint; not retry-safe unless you say so.
    public static func post(_ path: String, body: RequestBody, query: [URLQueryItem] = [], headers: [String: String] = [:]) -> Self {
        Self(method: .post, path: path, query: query, headers: headers, body: body)
    }

    /// A copy with a different timeout.
    public func timeout(_ seconds: TimeInterval) -> Self {
        var copy = self
        copy.timeout = seconds
        return copy
    }

    /// A copy with a different retry safety.
    public func retrySafe(_ safe: Bool) -> Self {
        var copy = self
        copy.isRetrySafe = safe
        return copy
    }

    /// A copy using `envelope` instead of the client's.
    public func envelope(_ envelope: Envelope) -> Self {
        var copy = self
        copy.envelope = envelope
        return copy
    }

    /// A copy decoded by `decoding` instead of the client's decoder.
    ///
    /// ```swift
    /// // A type whose Decodable conformance relies on a JSONDecoder setting Kiln does not offer:
    /// let legacy = Endpoint<Report>.get("/report").decoding(.foundation { JSONDecoder() })
    /// ```
    public func decoding(_ decoding: ResponseDecoding) -> Self {
        var copy = self
        copy.decoding = decoding
        return copy
    }

    /// A copy that shares (or never shares) its transfer with identical calls in flight
    /// (see ``sharesTransfer``).
    public func sharingTransfer(_ shares: Bool) -> Self {
        var copy = self
        copy.sharesTransfer = shares
        return copy
    }

    /// The same call sent to `url`, an absolute URL a response linked to (a `rel="next"` page):
    /// the method, headers, body, envelope, decoding, timeout and sharing stay; the endpoint's
    /// query is dropped, since the link carries its own.
    ///
    /// The request still goes through the client, so its interceptors (authentication, common
    /// parameters, retries) and default headers apply to it.
    ///
    /// ```swift
    /// let first = try await client.response(for: Endpoint<[Issue]>.get("/repos/apple/swift/issues"))
    /// if let next = first.head.link("next") {
    ///     let second = try await client.send(Endpoint<[Issue]>.get("/repos/apple/swift/issues").following(next))
    /// }
    /// ```
    public func following(_ url: URL) -> Self {
        var copy = self
        copy.path = url.absoluteString
        copy.query = []
        return copy
    }

    /// The same request, declared to return another type.
    public func returning<Other>(_ type: Other.Type) -> Endpoint<Other> {
        Endpoint<Other>(
            method: method, path: path, query: query, headers: headers, body: body,
            timeout: timeout, isRetrySafe: isRetrySafe, envelope: envelope, decoding: decoding,
            sharesTransfer: sharesTransfer
        )
    }
}

/// Which decoder turns an endpoint's `data` into its value.
public enum ResponseDecoding: Sendable {
    /// The client's ``APIClient/decoder`` (Kiln's), on the document the client already read:
    /// the body is read once.
    case kiln
    /// Foundation's `JSONDecoder`, made by the closure for each response, with the client's
    /// decoding policy (`@DataModel` types stay tolerant). The body is read a second time, by
    /// Foundation: choose it for a type whose decoding relies on something only Foundation does.
    case foundation(@Sendable () -> JSONDecoder)
}

/// A response type for endpoints whose `data` carries nothing of interest.
///
/// ```swift
/// let logout = Endpoint<NoContent>.post("/logout", body: .none)
/// _ = try await client.send(logout)
/// ```
public struct NoContent: Decodable, Sendable, Hashable {
    /// Creates the empty value.
    public init() {}
    /// Decodes from anything, including a missing or `null` value.
    public init(from decoder: any Decoder) throws {}
}

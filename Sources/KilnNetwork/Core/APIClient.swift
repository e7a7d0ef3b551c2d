import Foundation
import KilnModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends typed ``Endpoint``s and turns each answer into a value or one ``APIError``.
///
/// The path a response takes: transport → HTTP status check → envelope check, when the API has
/// one (``Envelope``) → tolerant decode of the value → response cache. The body is read once, by
/// Kiln's reader: the envelope's code and message, the value decoded by ``decoder`` and the bytes
/// a ``responseCache`` stores all come from that one reading.
///
/// By default the whole body is the value, as public JSON APIs send it, and an error status
/// carries the server's message when its body is JSON (``APIError/serverMessage``).
///
/// ```swift
/// let client = APIClient(
///     baseURL: URL(string: "https://api.example.com")!,
///     interceptors: [
///         CommonParametersInterceptor(["service_code": "blog"]),
///         RetryInterceptor(),
///         LoggingInterceptor(logger: Logger(label: "api")),
///     ]
/// )
/// let messages: [Message] = try await client.send(.get("/messages"))
/// ```
///
/// ## Topics
/// - ``send(_:)``
/// - ``response(for:)``
/// - ``data(for:)``
/// - ``decode(_:for:)``
/// - ``upload(_:)``
/// - ``download(_:to:)``
public struct APIClient: Sendable {
    /// The URL endpoint paths are resolved against.
    public var baseURL: URL
    /// How this API wraps its answers (``Envelope/none`` by default: the body is the value); an
    /// endpoint may override it.
    public var envelope: Envelope
    /// Interceptors, in the order they run.
    public var interceptors: [any Interceptor] {
        didSet { sharedTransfers = SharedTransfers() }
    }
    /// What moves the bytes.
    public var transport: any Transport {
        didSet { sharedTransfers = SharedTransfers() }
    }
    /// Headers sent with every request (endpoint headers win).
    public var defaultHeaders: [String: String]
    /// The decoder for response data: its policy (defaults, coercion, the repair log) and its
    /// strategies apply to every endpoint that does not choose ``ResponseDecoding/foundation(_:)``.
    public var decoder: KilnDecoder {
        didSet {
            decodedValues = DecodedValues()
            sharedTransfers = SharedTransfers()
        }
    }
    /// How the client waits before a retry. Replace it in tests to run retries instantly.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where responses are stored and found for ``values(for:policy:)``; `nil` keeps nothing.
    public var responseCache: (any ResponseCaching)? {
        didSet { sharedTransfers = SharedTransfers() }
    }
    /// Monitors that see each attempt's request, response or failure, timings and retries.
    public var eventMonitors: [EventMonitor]
    /// Called with the size of each body the client reads as JSON, once per read: a hook for
    /// tests and instrumentation.
    @_spi(Testing) public var onBodyRead: (@Sendable (Int) -> Void)?
    /// Values decoded from cached bytes lately, so a repeated cache hit skips the decode.
    var decodedValues = DecodedValues()
    /// Identical requests in flight, shared by every copy of this client until one of the
    /// properties that shape an answer (interceptors, transport, decoder, cache) changes.
    var sharedTransfers = SharedTransfers()

    /// The tolerant-decoding policy for response data: ``decoder``'s policy.
    public var decodingPolicy: DecodingPolicy {
        get { decoder.policy }
        set { decoder.policy = newValue }
    }

    /// Creates a client.
    public init(
        baseURL: URL,
        envelope: Envelope = .none,
        interceptors: [any Interceptor] = [],
        transport: any Transport = URLSessionTransport(),
        defaultHeaders: [String: String] = ["Accept": "application/json"],
        decoder: KilnDecoder = KilnDecoder(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        responseCache: (any ResponseCaching)? = nil,
        eventMonitors: [EventMonitor] = []
    ) {
        self.responseCache = responseCache
        self.eventMonitors = eventMonitors
        self.baseURL = baseURL
        self.envelope = envelope
        self.interceptors = interceptors
        self.transport = transport
        self.defaultHeaders = defaultHeaders
        self.decoder = decoder
        self.sleep = sleep
    }

    /// Sends `endpoint` and returns its decoded value.
    ///
    /// ```swift
    /// do throws(APIError) {
    ///     let list = try await client.send(Endpoint<[Message]>.get("/messages"))
    /// } catch .server(_, let message) {
    ///     toast(message)
    /// } catch {
    ///     toast(error.description)
    /// }
    /// ```
    ///
    /// Identical `GET` and `HEAD` calls in flight at the same moment share one transfer and one
    /// decode (see ``Endpoint/sharesTransfer``).
    public func send<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>) async throws(APIError) -> Value {
        try await shared(endpoint, operation: "send") { () async throws(APIError) -> Value in
            // Nobody sees the repair log here: it is not kept (the policy's `onRepair` still hears).
            let body = try await validatedBody(for: endpoint, progress: nil, readsValue: true)
            return try decode(body, for: endpoint, keepsRepairs: false).value
        }
    }

    /// Sends `endpoint` and returns its decoded value with the repair log, status, headers,
    /// duration and attempt count.
    public func response<Value: Decodable & Sendable>(for endpoint: Endpoint<Value>) async throws(APIError) -> Response<Value> {
        try await shared(endpoint, operation: "response") { () async throws(APIError) -> Response<Value> in
            let body = try await validatedBody(for: endpoint, progress: nil, readsValue: true)
            let decoded = try decode(body, for: endpoint)
            return body.response(decoded.value, repairs: decoded.repairs)
        }
    }

    /// Sends `endpoint` and returns the bytes of the envelope's `data` exactly as the server sent
    /// them, after the HTTP and envelope checks passed. This is what a cache stores; turn it into
    /// a value with ``decode(_:for:)``.
    public func data<Value>(for endpoint: Endpoint<Value>) async throws(APIError) -> Response<Data> {
        try await shared(endpoint, operation: "data") { () async throws(APIError) -> Response<Data> in
            let body = try await validatedBody(for: endpoint, progress: nil, readsValue: false)
            return body.response(try body.payloadBytes(), repairs: [])
        }
    }

    /// Sends `endpoint` and lets `read` build the value from the checked document, for values a
    /// `Decodable` type cannot express alone (a `ModelRegistry` list, several parts of one
    /// response). `read` gets the document the client read and the path of the envelope's `data`
    /// (`nil` when the whole body is the data); the body is still read once.
    ///
    /// ```swift
    /// let tickets = try await client.response(for: .get("/tickets")) { document, data in
    ///     try registry.decodeList(from: document, at: data, policy: client.decodingPolicy)
    /// }
    /// ```
    public func response<Value: Sendable>(
        for endpoint: Endpoint<JSONValue>,
        reading read: (JSONDocument, KilnModel.JSONPath?) throws(ModelDecodingError) -> (Value, [Repair])
    ) async throws(APIError) -> Response<Value> {
        let body = try await validatedBody(for: endpoint, progress: nil, readsValue: true)
        guard let document = body.document else { throw .decoding(path: "", repairs: []) }
        do {
            let (value, repairs) = try read(document, body.dataPath)
            return body.response(value, repairs: repairs)
        } catch {
            throw .decoding(path: error.path, repairs: [])
        }
    }

    /// Decodes bytes returned by ``data(for:)`` (for example from a cache) the way `endpoint` would.
    public func decode<Value: Decodable & Sendable>(_ data: Data, for endpoint: Endpoint<Value>) throws(APIError) -> (value: Value, repairs: [Repair]) {
        if let empty = NoContent() as? Value { return (empty, []) }
        let document: JSONDocument
        do {
            document = try read(data)
        } catch {
            throw .decoding(path: "", repairs: [])
        }
        return try decode(document, at: nil, for: endpoint)
    }

    // MARK: - Pipeline

    /// A response body that passed the HTTP and envelope checks, read once.
    struct ValidatedBody {
        /// The body as it arrived.
        var body: Data
        /// The body as Kiln's reader read it; `nil` when nothing needed reading.
        var document: JSONDocument?
        var head: ResponseHead
        var envelope: Envelope
        var attempts: Int
        var start: ContinuousClock.Instant

        /// Where the value sits inside the body.
        var dataPath: KilnModel.JSONPath? { envelope.dataPath.map(Envelope.jsonPath) }

        /// The bytes of the envelope's `data`, as they arrived.
        func payloadBytes() throws(APIError) -> Data {
            guard let dataPath else { return body }
            guard let bytes = document?.rawJSON(at: dataPath) else {
                throw .decoding(path: envelope.dataPath ?? "", repairs: [])
            }
            return bytes
        }

        func response<Value>(_ value: Value, repairs: [Repair]) -> Response<Value> {
            Response(value: value, repairs: repairs, head: head, duration: ContinuousClock.now - start, attempts: attempts)
        }
    }

    /// Runs the attempts, reads the final body once and checks its envelope.
    ///
    /// The body is read when the envelope needs it (a code to check, a `data` to find) or when
    /// `readsValue` and the endpoint expects a value; a bare body nobody reads may be anything.
    ///
    /// With `acceptsNotModified`, a `304` is an answer: it comes back with an empty body, unread.
    func validatedBody<Value>(
        for endpoint: Endpoint<Value>,
        progress: (@Sendable (TransferProgress) -> Void)?,
        readsValue: Bool,
        acceptsNotModified: Bool = false
    ) async throws(APIError) -> ValidatedBody {
        let start = ContinuousClock.now
        let envelope = endpoint.envelope ?? self.envelope
        let exchange: Exchange
        do {
            exchange = try await self.exchange(for: endpoint, kind: .data, progress: progress, acceptsNotModified: acceptsNotModified)
        } catch {
            // A refusal in the API's own envelope is the server's answer, whatever the status.
            if case .http(_, let errorBody) = error, let refusal = refusal(in: errorBody, envelope: envelope) { throw refusal }
            throw error
        }
        guard case .memory(let body) = exchange.payload else {
            throw .transport(TransportError(.other, detail: "unexpected file payload"))
        }
        if exchange.head.status == 304 {
            return ValidatedBody(body: Data(), document: nil, head: exchange.head, envelope: envelope, attempts: exchange.attempts, start: start)
        }
        var document: JSONDocument?
        if envelope.codePath != nil || envelope.dataPath != nil || (readsValue && !(Value.self is NoContent.Type)) {
            do {
                document = try read(body)
            } catch {
                throw .decoding(path: "", repairs: [])
            }
        }
        if let document {
            switch envelope.verdict(for: document) {
            case .success: break
            case .failure(let code, let message): throw .server(code: code, message: message)
            case .missingCode(let path): throw .decoding(path: path, repairs: [])
            }
        }
        return ValidatedBody(body: body, document: document, head: exchange.head, envelope: envelope, attempts: exchange.attempts, start: start)
    }

    /// The server's refusal when an error body is the API's envelope with a failure code
    /// (`400 {"code": "1001", "msg": "…"}`); `nil` for any other body.
    func refusal(in errorBody: Data, envelope: Envelope) -> APIError? {
        guard envelope.codePath != nil, let document = try? read(errorBody),
            case .failure(let code, let message) = envelope.verdict(for: document)
        else { return nil }
        return .server(code: code, message: message)
    }

    /// The one place a body is read as JSON.
    func read(_ body: Data) throws(ModelDecodingError) -> JSONDocument {
        onBodyRead?(body.count)
        return try JSONDocument(parsing: body, options: decoder.readerOptions)
    }

    /// Decodes the value of a checked body with the endpoint's decoder.
    func decode<Value: Decodable & Sendable>(
        _ body: ValidatedBody, for endpoint: Endpoint<Value>, keepsRepairs: Bool = true
    ) throws(APIError) -> (value: Value, repairs: [Repair]) {
        if let empty = NoContent() as? Value { return (empty, []) }
        guard let document = body.document else { throw .decoding(path: "", repairs: []) }
        return try decode(document, at: body.dataPath, for: endpoint, keepsRepairs: keepsRepairs)
    }

    func decode<Value: Decodable & Sendable>(
        _ document: JSONDocument, at path: KilnModel.JSONPath?, for endpoint: Endpoint<Value>, keepsRepairs: Bool = true
    ) throws(APIError) -> (value: Value, repairs: [Repair]) {
        do {
            switch endpoint.decoding ?? .kiln {
            case .kiln where keepsRepairs:
                return try decoder.decodeWithRepairs(Value.self, from: document, at: path)
            case .kiln:
                return (try decoder.decode(Value.self, from: document, at: path), [])
            case .foundation(let makeDecoder):
                // The endpoint chose Foundation's decoder: it reads the bytes again, as it would alone.
                return try makeDecoder().decodeWithRepairs(Value.self, from: document.rawJSON, at: path, policy: decoder.policy)
            }
        } catch {
            // `"data": null` (or no data) is a valid answer when the caller asked for an optional.
            if case .pathNotFound = error, let optional = Value.self as? any OptionalDecodable.Type,
                let none = optional.absent as? Value
            {
                return (none, [])
            }
            throw .decoding(path: error.path, repairs: [])
        }
    }
}

/// Lets the client produce `nil` for an optional `Response` whose data is `null` or absent.
protocol OptionalDecodable {
    static var absent: Self { get }
}

extension Optional: OptionalDecodable {
    static var absent: Self { nil }
}

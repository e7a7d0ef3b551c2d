import Foundation
import KilnModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Sends typed ``Endpoint``s and turns each answer into a value or one ``APIError``.
///
/// The path a response takes: transport → HTTP status check → envelope check (`code`, `msg`) →
/// tolerant decode of `data` with KilnModel's `decodeWithRepairs`.
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
    /// The envelope of this API; an endpoint may override it.
    public var envelope: Envelope
    /// Interceptors, in the order they run.
    public var interceptors: [any Interceptor]
    /// What moves the bytes.
    public var transport: any Transport
    /// Headers sent with every request (endpoint headers win).
    public var defaultHeaders: [String: String]
    /// The tolerant-decoding policy for response data.
    public var decodingPolicy: DecodingPolicy
    /// How the client waits before a retry. Replace it in tests to run retries instantly.
    public var sleep: @Sendable (Duration) async throws -> Void
    /// Where responses are stored and found for ``values(for:policy:)``; `nil` keeps nothing.
    public var responseCache: ResponseCache?

    /// Creates a client.
    public init(
        baseURL: URL,
        envelope: Envelope = .standard,
        interceptors: [any Interceptor] = [],
        transport: any Transport = URLSessionTransport(),
        defaultHeaders: [String: String] = ["Accept": "application/json"],
        decodingPolicy: DecodingPolicy = DecodingPolicy(),
        sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) },
        responseCache: ResponseCache? = nil
    ) {
        self.responseCache = responseCache
        self.baseURL = baseURL
        self.envelope = envelope
        self.interceptors = interceptors
        self.transport = transport
        self.defaultHeaders = defaultHeaders
        self.decodingPolicy = decodingPolicy
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
    public func send<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>) async throws(APIError) -> Value {
        try await response(for: endpoint).value
    }

    /// Sends `endpoint` and returns its decoded value with the repair log, status, headers,
    /// duration and attempt count.
    public func response<Value: Decodable & Sendable>(for endpoint: Endpoint<Value>) async throws(APIError) -> Response<Value> {
        let raw = try await validatedBody(for: endpoint, progress: nil)
        let decoded = try decode(raw.value, as: Value.self, at: raw.envelope.dataPath)
        return Response(value: decoded.value, repairs: decoded.repairs, head: raw.head, duration: .zero, attempts: raw.attempts)
            .withDuration(since: raw.start)
    }

    /// Sends `endpoint` and returns the bytes of the envelope's `data` (re-encoded as JSON), after
    /// the HTTP and envelope checks passed. This is what a cache stores; turn it into a value with
    /// ``decode(_:for:)``.
    public func data<Value>(for endpoint: Endpoint<Value>) async throws(APIError) -> Response<Data> {
        let raw = try await validatedBody(for: endpoint, progress: nil)
        let payload = try extractData(from: raw.value, envelope: raw.envelope)
        return Response(value: payload, repairs: [], head: raw.head, duration: .zero, attempts: raw.attempts)
            .withDuration(since: raw.start)
    }

    /// Decodes bytes returned by ``data(for:)`` (for example from a cache) the way `endpoint` would.
    public func decode<Value: Decodable & Sendable>(_ data: Data, for endpoint: Endpoint<Value>) throws(APIError) -> (value: Value, repairs: [Repair]) {
        try decode(data, as: Value.self, at: nil)
    }

    // MARK: - Pipeline

    struct ValidatedBody {
        var value: Data
        var head: ResponseHead
        var envelope: Envelope
        var attempts: Int
        var start: ContinuousClock.Instant
    }

    /// Runs the attempts, then checks the envelope of the final body.
    func validatedBody<Value>(
        for endpoint: Endpoint<Value>,
        progress: (@Sendable (TransferProgress) -> Void)?
    ) async throws(APIError) -> ValidatedBody {
        let start = ContinuousClock.now
        let exchange = try await exchange(for: endpoint, kind: .data, progress: progress)
        guard case .memory(let body) = exchange.payload else {
            throw .transport(TransportError(.other, detail: "unexpected file payload"))
        }
        let envelope = endpoint.envelope ?? self.envelope
        try check(body, against: envelope)
        return ValidatedBody(value: body, head: exchange.head, envelope: envelope, attempts: exchange.attempts, start: start)
    }

    func check(_ body: Data, against envelope: Envelope) throws(APIError) {
        guard let codePath = envelope.codePath else { return }
        // Only the code and message are read: the data is decoded once, into its real type.
        let decoder = JSONDecoder()
        decoder.userInfo[EnvelopeHead.pathsKey] = [codePath, envelope.messagePath].compactMap { $0 }
        guard let head = try? decoder.decode(EnvelopeHead.self, from: body) else {
            throw .decoding(path: "", repairs: [])
        }
        switch envelope.verdict(for: head.root) {
        case .success: return
        case .failure(let code, let message): throw .server(code: code, message: message)
        case .missingCode(let path): throw .decoding(path: path, repairs: [])
        }
    }

    func extractData(from body: Data, envelope: Envelope) throws(APIError) -> Data {
        guard let dataPath = envelope.dataPath else { return body }
        guard let root = try? JSONDecoder().decode(JSONValue.self, from: body),
              let payload = Envelope.lookup(dataPath, in: root),
              let bytes = try? JSONEncoder().encode(payload)
        else {
            throw .decoding(path: dataPath, repairs: [])
        }
        return bytes
    }

    func decode<Value: Decodable>(_ data: Data, as type: Value.Type, at keyPath: String?) throws(APIError) -> (value: Value, repairs: [Repair]) {
        if let empty = NoContent() as? Value { return (empty, []) }
        var path: KilnModel.JSONPath?
        if let keyPath {
            do {
                path = try KilnModel.JSONPath(parsing: keyPath)
            } catch {
                throw .decoding(path: keyPath, repairs: [])
            }
        }
        do {
            let result = try JSONDecoder().decodeWithRepairs(Value.self, from: data, at: path, policy: decodingPolicy)
            return (result.value, result.repairs)
        } catch {
            // `"data": null` (or no data) is a valid answer when the caller asked for an optional.
            if case .pathNotFound = error, let optional = Value.self as? any OptionalDecodable.Type,
               let none = optional.absent as? Value {
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

extension Response {
    func withDuration(since start: ContinuousClock.Instant) -> Response {
        var copy = self
        copy.duration = ContinuousClock.now - start
        return copy
    }
}

import FlyingFox
import FlyingSocks
import Foundation
import KilnNetwork

/// A real HTTP server on 127.0.0.1 for tests and demos: routes from closures or JSON files,
/// latency, fault injection and request capture.
///
/// ```swift
/// let server = try await FixtureServer.start()
/// server.route(.get, "/messages", .envelope(data: ["list": [["id": 1, "title": "Hello"]]]))
/// let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
/// let page = try await client.send(Endpoint<MessagePage>.get("/messages"))
/// #expect(server.requests(to: "/messages").count == 1)
/// await server.stop()
/// ```
///
/// Routes match the method (or any method when `nil`) and the path exactly, or a prefix when the
/// route's path ends in `*`. The most recently added matching route wins, so a test can replace
/// a route. Unmatched requests get a 404.
public final class FixtureServer: Sendable {
    /// `http://127.0.0.1:<port>`
    public let baseURL: URL
    /// The port the server listens on.
    public let port: UInt16

    let store: FixtureStore
    private let server: HTTPServer
    private let task: Task<Void, any Error>

    private init(baseURL: URL, port: UInt16, store: FixtureStore, server: HTTPServer, task: Task<Void, any Error>) {
        self.baseURL = baseURL
        self.port = port
        self.store = store
        self.server = server
        self.task = task
    }

    /// Starts a server on 127.0.0.1 and returns once it accepts connections.
    ///
    /// - Parameter port: the port, or 0 (the default) for any free port.
    public static func start(port: UInt16 = 0) async throws -> FixtureServer {
        let store = FixtureStore()
        let address = try sockaddr_in.inet(ip4: "127.0.0.1", port: port)
        let config = HTTPServer.Configuration(
            address: address, timeout: 120, pool: NoDelaySocketPool(base: HTTPServer.defaultPool()), logger: .disabled)
        let server = HTTPServer(config: config, handler: FixtureHandler(store: store))
        let task = Task { try await server.run() }
        do {
            try await server.waitUntilListening(timeout: 10)
        } catch {
            task.cancel()
            throw error
        }
        guard case .ip4(_, let actualPort)? = await server.listeningAddress,
            let url = URL(string: "http://127.0.0.1:\(actualPort)")
        else {
            task.cancel()
            throw FixtureServerError(reason: "the server did not report a listening address")
        }
        return FixtureServer(baseURL: url, port: actualPort, store: store, server: server, task: task)
    }

    /// Stops listening and closes all connections.
    public func stop() async {
        await server.stop(timeout: 0)
        task.cancel()
    }

    deinit {
        task.cancel()
    }
}

/// The fixture server failed to start.
public struct FixtureServerError: Error, Sendable, CustomStringConvertible {
    /// What went wrong.
    public var reason: String
    /// A sentence a person can read.
    public var description: String { "Fixture server: \(reason)" }
}

/// Turns FlyingFox requests into ``FixtureRequest``s and ``FixtureResponse``s into bytes.
struct FixtureHandler: HTTPHandler {
    let store: FixtureStore

    func handleRequest(_ request: HTTPRequest) async throws -> HTTPResponse {
        var headers: [String: String] = [:]
        for (name, value) in request.headers { headers[name.rawValue] = value }
        let captured = FixtureRequest(
            method: request.method.rawValue,
            path: request.path,
            query: request.query.map { URLQueryItem(name: $0.name, value: $0.value) },
            headers: headers,
            body: try await request.bodyData
        )
        let response = try await store.respond(to: captured)
        if response.latency > .zero {
            try await Task.sleep(for: response.latency)
        }
        return Self.encode(response)
    }

    static func encode(_ response: FixtureResponse) -> HTTPResponse {
        var headers = HTTPHeaders()
        for (name, value) in response.headers { headers[HTTPHeader(name)] = value }
        let status = HTTPStatusCode(response.status, phrase: HTTPURLPhrase.phrase(for: response.status))

        switch (response.body, response.fault) {
        case (.data(let data), nil):
            return HTTPResponse(statusCode: status, headers: headers, body: data)
        case (.file(let url), nil):
            if let body = try? HTTPBodySequence(file: url, suggestedBufferSize: 64 * 1024) {
                return HTTPResponse(statusCode: status, headers: headers, body: body)
            }
            return HTTPResponse(statusCode: HTTPStatusCode(404, phrase: "Not Found"))
        default:
            let source: FaultyBytes.Source
            switch response.body {
            case .data(let data): source = .data(data)
            case .generated(let count, let seed): source = .generated(count: count, seed: seed)
            case .file(let url): source = .data((try? Data(contentsOf: url)) ?? Data())
            }
            let bytes = FaultyBytes(source: source, fault: response.fault)
            let body = HTTPBodySequence(from: bytes, count: source.count, suggestedBufferSize: 64 * 1024)
            return HTTPResponse(statusCode: status, headers: headers, body: body)
        }
    }
}

enum HTTPURLPhrase {
    static func phrase(for status: Int) -> String {
        switch status {
        case 200: "OK"
        case 201: "Created"
        case 204: "No Content"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Status \(status)"
        }
    }
}

/// A body that is produced while it is sent, and that can stall or break on purpose.
struct FaultyBytes: AsyncBufferedSequence {
    typealias Element = UInt8

    enum Source: Sendable {
        case data(Data)
        case generated(count: Int, seed: UInt64)

        var count: Int {
            switch self {
            case .data(let data): data.count
            case .generated(let count, _): count
            }
        }

        func bytes(in range: Range<Int>) -> Data {
            switch self {
            case .data(let data): Data(data[(data.startIndex + range.lowerBound)..<(data.startIndex + range.upperBound)])
            case .generated(_, let seed): GeneratedBytes.data(in: range, seed: seed)
            }
        }
    }

    let source: Source
    let fault: FixtureResponse.Fault?

    func makeAsyncIterator() -> Iterator {
        Iterator(source: source, fault: fault)
    }

    struct Iterator: AsyncBufferedIteratorProtocol {
        let source: Source
        let fault: FixtureResponse.Fault?
        var offset = 0

        mutating func next() async throws -> UInt8? {
            try await nextBuffer(suggested: 1)?.first
        }

        mutating func nextBuffer(suggested count: Int) async throws -> Data? {
            var limit = source.count
            var chunk = Swift.max(1, count)
            if case .dropConnection(let after) = fault {
                limit = Swift.min(limit, after)
            }
            if case .slowBody(let size, let interval) = fault {
                chunk = Swift.min(chunk, size)
                if offset > 0, offset < limit { try await Task.sleep(for: interval) }
            }
            guard offset < limit else {
                if case .dropConnection = fault, offset < source.count {
                    throw FixtureServerError(reason: "connection dropped on purpose after \(offset) bytes")
                }
                return nil
            }
            let end = Swift.min(limit, offset + chunk)
            defer { offset = end }
            return source.bytes(in: offset..<end)
        }
    }
}

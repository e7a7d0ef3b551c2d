import Foundation
import KilnNetwork
import KilnSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A KilnNetwork `Transport` that answers from canned responses, for unit tests of view models.
///
/// Routes match method and path (a trailing `*` matches a prefix); the most recent matching stub
/// wins. Unmatched requests get a 404. Every request is captured.
///
/// ```swift
/// let stub = StubTransport()
/// stub.on(.get, "/messages", .envelope(data: ["list": []]))
/// stub.on(.get, "/offline", failure: URLError(.notConnectedToInternet))
/// let client = APIClient(baseURL: URL(string: "https://stub.local")!, envelope: .codeMessageData, transport: stub)
/// let viewModel = MessagesViewModel(client: client)
/// await viewModel.load()
/// #expect(stub.requests.map(\.path) == ["/messages"])
/// ```
public final class StubTransport: Transport, @unchecked Sendable {
    private enum Answer {
        case response(FixtureResponse)
        case failure(any Error)
        case handler(@Sendable (FixtureRequest) async throws -> FixtureResponse)
    }

    private struct Stub {
        var method: String?
        var path: String
        var answer: Answer
    }

    private struct State {
        var stubs: [Stub] = []
        var captured: [FixtureRequest] = []
    }

    private let state = LockedValue(State())

    /// Creates a transport with no stubs.
    public init() {}

    /// Answers `method` at `path` with `response` (its status, headers and body; latency is
    /// honoured, connection faults are not simulated).
    public func on(_ method: KilnNetwork.HTTPMethod?, _ path: String, _ response: FixtureResponse) {
        add(Stub(method: method?.rawValue, path: path, answer: .response(response)))
    }

    /// Fails `method` at `path` with `error` (for example `URLError(.timedOut)`).
    public func on(_ method: KilnNetwork.HTTPMethod?, _ path: String, failure error: any Error & Sendable) {
        add(Stub(method: method?.rawValue, path: path, answer: .failure(error)))
    }

    /// Answers `method` at `path` with a closure.
    public func on(_ method: KilnNetwork.HTTPMethod?, _ path: String, handler: @escaping @Sendable (FixtureRequest) async throws -> FixtureResponse) {
        add(Stub(method: method?.rawValue, path: path, answer: .handler(handler)))
    }

    /// The requests received, oldest first.
    public var requests: [FixtureRequest] { state.withLock { $0.captured } }

    private func add(_ stub: Stub) { state.withLock { $0.stubs.append(stub) } }

    // MARK: Transport

    /// Answers from the stubs.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await answer(request, body: request.httpBody ?? Data())
    }

    /// Answers from the stubs, reporting the file's size as sent.
    public func upload(
        _ request: URLRequest, fromFile file: URL, progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (Data, HTTPURLResponse) {
        let body = try Data(contentsOf: file)
        progress(TransferProgress(completed: Int64(body.count), total: Int64(body.count)))
        return try await answer(request, body: body)
    }

    /// Answers from the stubs, writing the body to a temporary file.
    public func download(_ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> (URL, HTTPURLResponse) {
        let (data, response) = try await answer(request, body: request.httpBody ?? Data())
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-stub-\(UUID().uuidString).part")
        try data.write(to: file)
        progress(TransferProgress(completed: Int64(data.count), total: Int64(data.count)))
        return (file, response)
    }

    private func answer(_ request: URLRequest, body: Data) async throws -> (Data, HTTPURLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let fixture = FixtureRequest(
            method: request.httpMethod ?? "GET",
            path: components?.path ?? url.path,
            query: components?.queryItems ?? [],
            headers: request.allHTTPHeaderFields ?? [:],
            body: body
        )
        let stub = state.withLock { state -> Stub? in
            state.captured.append(fixture)
            return state.stubs.last { stub in
                if let method = stub.method, method != fixture.method { return false }
                if stub.path.hasSuffix("*") { return fixture.path.hasPrefix(String(stub.path.dropLast())) }
                return stub.path == fixture.path
            }
        }
        let response: FixtureResponse
        switch stub?.answer {
        case nil: response = .status(404)
        case .failure(let error)?: throw error
        case .response(let canned)?: response = canned
        case .handler(let handler)?: response = try await handler(fixture)
        }
        if response.latency > .zero { try await Task.sleep(for: response.latency) }
        let data = response.bodyData()
        var headers = response.headers
        headers["Content-Length"] = String(data.count)
        guard let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw URLError(.badServerResponse)
        }
        return (data, http)
    }
}

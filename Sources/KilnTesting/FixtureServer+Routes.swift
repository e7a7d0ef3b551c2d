import Foundation
import KilnModel
import KilnNetwork
import KilnSupport

extension FixtureServer {
    /// Answers `method` (any method when `nil`) at `path` with a closure.
    ///
    /// ```swift
    /// server.route(.post, "/upload") { request in
    ///     let parts = try request.multipartParts()
    ///     return .envelope(data: .int(Int64(parts.count)))
    /// }
    /// ```
    public func route(
        _ method: KilnNetwork.HTTPMethod?,
        _ path: String,
        latency: Duration = .zero,
        _ handler: @escaping @Sendable (FixtureRequest) async throws -> FixtureResponse
    ) {
        store.add(FixtureRoute(method: method?.rawValue, path: path, latency: latency, handler: handler))
    }

    /// Answers `method` at `path` with a fixed response.
    public func route(_ method: KilnNetwork.HTTPMethod?, _ path: String, _ response: FixtureResponse) {
        route(method, path) { _ in response }
    }

    /// Answers with `responses` in turn, repeating the last one: for example two 503s, then a 200.
    public func route(_ method: KilnNetwork.HTTPMethod?, _ path: String, sequence responses: [FixtureResponse]) {
        let counter = FixtureCounter()
        route(method, path) { _ in
            let index = counter.next()
            return responses.isEmpty ? .status(204) : responses[min(index, responses.count - 1)]
        }
    }

    /// Serves every `*.json` file of `directory` at `prefix/<name without .json>`, wrapped in a
    /// success envelope when `envelope` is true.
    public func routeJSONFiles(in directory: URL, at prefix: String = "", envelope: Bool = true) throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".json") }
        for name in names.sorted() {
            let url = directory.appendingPathComponent(name)
            let path = prefix + "/" + String(name.dropLast(".json".count))
            route(.get, path, envelope ? try .envelope(dataFile: url) : .jsonFile(url))
        }
    }

    /// Every request received, oldest first.
    public var requests: [FixtureRequest] { store.requests }

    /// The requests received at `path` (any method), oldest first.
    public func requests(to path: String) -> [FixtureRequest] {
        store.requests.filter { $0.path == path }
    }

    /// Forgets the captured requests.
    public func clearRequests() { store.clearRequests() }
}

struct FixtureRoute: Sendable {
    var method: String?
    var path: String
    var latency: Duration
    var handler: @Sendable (FixtureRequest) async throws -> FixtureResponse

    func matches(_ request: FixtureRequest) -> Bool {
        if let method, method != request.method { return false }
        if path.hasSuffix("*") { return request.path.hasPrefix(String(path.dropLast())) }
        return path == request.path
    }
}

/// Routes and captured requests, shared between the server's connection tasks.
final class FixtureStore: Sendable {
    private struct State {
        var routes: [FixtureRoute] = []
        var captured: [FixtureRequest] = []
    }

    private let state = LockedValue(State())

    func add(_ route: FixtureRoute) {
        state.withLock { $0.routes.append(route) }
    }

    var requests: [FixtureRequest] { state.withLock { $0.captured } }

    func clearRequests() { state.withLock { $0.captured.removeAll() } }

    func respond(to request: FixtureRequest) async throws -> FixtureResponse {
        let route = state.withLock { state -> FixtureRoute? in
            state.captured.append(request)
            return state.routes.last { $0.matches(request) }
        }
        guard let route else { return .status(404, body: "no fixture route for \(request.method) \(request.path)") }
        if route.latency > .zero { try await Task.sleep(for: route.latency) }
        return try await route.handler(request)
    }
}

/// A thread-safe counter for routes that change their answer over time.
public final class FixtureCounter: Sendable {
    private let value = LockedValue(0)

    /// Creates a counter at zero.
    public init() {}

    /// Returns the current count and increments it.
    public func next() -> Int {
        value.withLock { value in
            defer { value += 1 }
            return value
        }
    }

    /// The current count.
    public var count: Int { value.current }
}

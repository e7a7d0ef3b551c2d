import Foundation
import KilnSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The attempt loop shared by `send`, `upload` and `download`: build the request, run the
/// interceptors, send, check the HTTP status, and retry when an interceptor asks.
extension APIClient {
    /// What one successful exchange produced.
    enum Payload {
        case memory(Data)
        case file(URL)
        /// A body still arriving (``RequestContext/Kind/stream``).
        case stream(AsyncThrowingStream<Data, any Error>)
    }

    struct Exchange {
        var payload: Payload
        var head: ResponseHead
        var attempts: Int
    }

    /// Largest error body kept in ``APIError/http(status:body:)``.
    static let errorBodyLimit = 64 * 1024

    /// Runs the attempts of one call. With `acceptsNotModified` (a conditional request the
    /// client made itself), a `304 Not Modified` is a successful answer.
    func exchange<Value>(
        for endpoint: Endpoint<Value>,
        kind requestedKind: RequestContext.Kind,
        progress: (@Sendable (TransferProgress) -> Void)?,
        acceptsNotModified: Bool = false
    ) async throws(APIError) -> Exchange {
        do {
            return try await performExchange(for: endpoint, kind: requestedKind, progress: progress, acceptsNotModified: acceptsNotModified)
        } catch {
            if Task.isCancelled { throw .cancelled }
            throw APIError(error)
        }
    }

    private func performExchange<Value>(
        for endpoint: Endpoint<Value>,
        kind requestedKind: RequestContext.Kind,
        progress: (@Sendable (TransferProgress) -> Void)?,
        acceptsNotModified: Bool
    ) async throws -> Exchange {
        var base = try makeRequest(for: endpoint)
        var bodyFile: URL?
        defer { if let bodyFile { try? FileManager.default.removeItem(at: bodyFile) } }
        var kind = requestedKind
        if case .multipart(let form) = endpoint.body {
            let file = FileManager.default.temporaryDirectory
                .appendingPathComponent("kiln-upload-\(UUID().uuidString).multipart")
            bodyFile = file
            let length = try form.writeBody(to: file)
            base.setValue(String(length), forHTTPHeaderField: "Content-Length")
            if kind == .data { kind = .upload }
        }

        let reporter = progress.map(MonotonicProgress.init)
        var history: [APIError] = []
        var attempt = 0
        while true {
            attempt += 1
            try Task.checkCancellation()
            let context = RequestContext(
                method: endpoint.method, path: endpoint.path, isRetrySafe: endpoint.isRetrySafe,
                attempt: attempt, kind: kind
            )
            var request = base
            for interceptor in interceptors {
                request = try await interceptor.adapt(request, context: context)
            }

            report(.requestWillSend(request, attempt: attempt))
            let recorder = eventMonitors.isEmpty ? nil : MetricsRecorder()
            let started = ContinuousClock.now
            var head: ResponseHead?
            let failure: APIError
            do {
                let (payload, response) = try await MetricsRecorder.$current.withValue(recorder) {
                    try await send(request, kind: kind, bodyFile: bodyFile, progress: reporter)
                }
                let responseHead = ResponseHead(response)
                head = responseHead
                let duration = ContinuousClock.now - started
                report(.responseReceived(request, responseHead, attempt: attempt, duration: duration, metrics: recorder?.metrics))
                if (200..<300).contains(response.statusCode) || (acceptsNotModified && response.statusCode == 304) {
                    let outcome = AttemptOutcome(response: responseHead, error: nil, duration: duration)
                    for interceptor in interceptors {
                        await interceptor.didComplete(request, outcome: outcome, context: context)
                    }
                    return Exchange(payload: payload, head: responseHead, attempts: attempt)
                }
                failure = .http(status: response.statusCode, body: await Self.errorBody(of: payload))
            } catch {
                failure = Task.isCancelled ? .cancelled : APIError(error)
            }

            let duration = ContinuousClock.now - started
            report(.attemptFailed(request, failure, attempt: attempt, duration: duration, metrics: recorder?.metrics))
            let outcome = AttemptOutcome(response: head, error: failure, duration: duration)
            for interceptor in interceptors {
                await interceptor.didComplete(request, outcome: outcome, context: context)
            }
            if failure == .cancelled { throw failure }

            history.append(failure)
            let attemptFailure = AttemptFailure(error: failure, response: head, history: history)
            var decision = RetryDecision.doNotRetry
            for interceptor in interceptors {
                decision = await interceptor.retry(request, failure: attemptFailure, context: context)
                if decision != .doNotRetry { break }
            }
            switch decision {
            case .doNotRetry:
                throw failure
            case .retry:
                report(.retryScheduled(request, after: nil, attempt: attempt))
                continue
            case .retryAfter(let delay):
                report(.retryScheduled(request, after: delay, attempt: attempt))
                try await sleep(delay)
            }
        }
    }

    /// Hands `event` to every monitor.
    func report(_ event: @autoclosure () -> APIEvent) {
        guard !eventMonitors.isEmpty else { return }
        let event = event()
        for monitor in eventMonitors { monitor.receive(event) }
    }

    private func send(
        _ request: URLRequest,
        kind: RequestContext.Kind,
        bodyFile: URL?,
        progress: MonotonicProgress?
    ) async throws -> (Payload, HTTPURLResponse) {
        let report: @Sendable (TransferProgress) -> Void = { progress?.report($0) }
        switch kind {
        case .download:
            let (file, response) = try await transport.download(request, progress: report)
            return (.file(file), response)
        case .stream:
            let (body, response) = try await transport.stream(request)
            return (.stream(body), response)
        case .upload, .data:
            if let bodyFile {
                let (data, response) = try await transport.upload(request, fromFile: bodyFile, progress: report)
                return (.memory(data), response)
            }
            let (data, response) = try await transport.send(request)
            return (.memory(data), response)
        }
    }

    /// The start of an error body; a downloaded error body is read from its file, which is
    /// removed, and a streamed one up to the limit, after which the transfer is dropped.
    static func errorBody(of payload: Payload) async -> Data {
        switch payload {
        case .memory(let data):
            return data.prefix(errorBodyLimit)
        case .stream(let body):
            var collected = Data()
            do {
                for try await chunk in body {
                    collected.append(chunk)
                    if collected.count >= errorBodyLimit { break }
                }
            } catch {
                // What arrived before the body broke off is what there is.
            }
            return collected.prefix(errorBodyLimit)
        case .file(let url):
            defer { try? FileManager.default.removeItem(at: url) }
            guard let handle = try? FileHandle(forReadingFrom: url) else { return Data() }
            defer { try? handle.close() }
            return (try? handle.read(upToCount: errorBodyLimit)) ?? Data()
        }
    }

    /// Builds the endpoint's request before interceptors run.
    func makeRequest<Value>(for endpoint: Endpoint<Value>) throws -> URLRequest {
        let url = try resolve(endpoint.path, query: endpoint.query)
        var request = URLRequest(url: url)
        request.httpMethod = endpoint.method.rawValue
        request.timeoutInterval = endpoint.timeout
        for (name, value) in defaultHeaders { request.setValue(value, forHTTPHeaderField: name) }
        if let contentType = endpoint.body.contentType {
            request.setValue(contentType, forHTTPHeaderField: "Content-Type")
        }
        for (name, value) in endpoint.headers { request.setValue(value, forHTTPHeaderField: name) }
        switch endpoint.body {
        case .none, .multipart: break
        case .jsonData(let data), .raw(let data, _): request.httpBody = data
        case .form(let items): request.httpBody = RequestBody.encodeForm(items)
        }
        return request
    }

    /// Joins the base URL and a path (an absolute URL is used as is) and appends query items.
    func resolve(_ path: String, query: [URLQueryItem]) throws -> URL {
        let joined: String
        let scheme = path.prefix(8).lowercased()
        if scheme.hasPrefix("http://") || scheme.hasPrefix("https://") {
            joined = path
        } else {
            var base = baseURL.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            joined = path.isEmpty ? base : base + "/" + path.drop { $0 == "/" }
        }
        guard var components = URLComponents(string: joined) else {
            throw TransportError(.invalidRequest, detail: "not a URL: \(joined)")
        }
        if !query.isEmpty {
            let encoded = query.map { "\(RequestBody.formEscape($0.name))=\(RequestBody.formEscape($0.value ?? ""))" }
            components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + encoded).joined(separator: "&")
        }
        guard let url = components.url else {
            throw TransportError(.invalidRequest, detail: "not a URL: \(joined)")
        }
        return url
    }
}

/// Forwards progress only when it moves forward, so a retried transfer never makes a bar jump back.
final class MonotonicProgress: @unchecked Sendable {
    private struct State {
        var last: Int64 = -1
        var total: Int64?
    }

    private let state = LockedValue(State())
    private let sink: @Sendable (TransferProgress) -> Void

    init(_ sink: @escaping @Sendable (TransferProgress) -> Void) { self.sink = sink }

    func report(_ progress: TransferProgress) {
        // Under the lock so that events from different threads cannot overtake each other.
        state.withLock { state in
            if let newTotal = progress.total { state.total = max(state.total ?? 0, newTotal) }
            guard progress.completed > state.last else { return }
            state.last = progress.completed
            sink(progress)
        }
    }

    /// Reports `total` of `total` when the last report fell short (the transfer is known complete).
    func completeIfNeeded(byteCount: Int64? = nil) {
        state.withLock { state in
            let final = byteCount ?? state.total ?? max(state.last, 0)
            guard final > state.last else { return }
            state.last = final
            sink(TransferProgress(completed: final, total: final))
        }
    }
}

import Foundation
import KilnSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The default ``Transport``: a `URLSession` driven through its delegate, so that progress is
/// reported and cancelling the calling task cancels the request, on Apple platforms and on Linux.
///
/// Downloads are streamed from a data task into a temporary file (not a download task), which
/// behaves the same on every platform and never needs resume data.
///
/// ```swift
/// let client = APIClient(baseURL: url, transport: URLSessionTransport())
/// ```
public final class URLSessionTransport: Transport {
    private let session: URLSession
    private let delegate: SessionDelegate
    /// Requests wait here for one of a host's connections (Linux), so that waiting is not idling.
    private let slots: HostSlots?

    /// Creates a transport with its own session.
    ///
    /// - Parameters:
    ///   - configuration: the session configuration; the default is ephemeral (no shared
    ///     cookies). The transport turns the session's URL cache off: HTTP caching is the
    ///     client's ``ResponseCaching`` store, which revalidates with the server itself. Do not
    ///     enable `waitsForConnectivity` or background sessions on Linux.
    ///   - challenges: answers authentication challenges; the default rejects HTTP authentication
    ///     (a `401` reaches the client as a response) and leaves server trust to the system.
    public init(configuration: URLSessionConfiguration = .ephemeral, challenges: ChallengeResponder = .standard) {
        let delegate = SessionDelegate(challenges: challenges)
        // URLSession's own cache would answer or rewrite the conditional requests the client
        // makes for its response cache.
        let configuration = configuration.copy() as? URLSessionConfiguration ?? configuration
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        #if canImport(FoundationNetworking)
        // Linux's URLSession queues requests beyond a host's connections inside the task, where
        // the wait counts against the timeout; the transport queues them itself instead.
        slots = HostSlots(limit: configuration.httpMaximumConnectionsPerHost)
        #else
        // Apple's URLSession starts a request's timeout when a connection takes it (and
        // multiplexes HTTP/2): no queue of the transport's own.
        slots = nil
        #endif
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        queue.name = "Kiln.URLSessionTransport"
        self.delegate = delegate
        self.session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    deinit {
        session.finishTasksAndInvalidate()
    }

    /// Sends `request` and collects the whole body in memory.
    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let state = TaskState(sink: .memory)
        let response = try await run(state, request) { $0.dataTask(with: $1) }
        return (state.collected, response)
    }

    /// Sends `request` with its body streamed from `file`.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (Data, HTTPURLResponse) {
        let state = TaskState(sink: .memory, progress: progress)
        let response = try await run(state, request) { $0.uploadTask(with: $1, fromFile: file) }
        return (state.collected, response)
    }

    /// Streams the response body of `request` into a new temporary file.
    public func download(
        _ request: URLRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (URL, HTTPURLResponse) {
        let file = FileManager.default.temporaryDirectory
            .appendingPathComponent("kiln-download-\(UUID().uuidString).part")
        guard FileManager.default.createFile(atPath: file.path, contents: nil) else {
            throw TransportError(.localFile, detail: "cannot create \(file.path)")
        }
        do {
            let handle = try FileHandle(forWritingTo: file)
            let state = TaskState(sink: .file(handle), progress: progress)
            let response = try await run(state, request) { $0.dataTask(with: $1) }
            return (file, response)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    /// Sends `request` and returns when the response's head arrived; the body follows as it
    /// comes off the network.
    ///
    /// The request keeps one of its host's connections until the body ends or the caller stops
    /// iterating, which cancels the transfer. The request's `timeoutInterval` is how long the
    /// body may stay silent.
    public func stream(_ request: URLRequest) async throws -> (AsyncThrowingStream<Data, any Error>, HTTPURLResponse) {
        let body = StreamedBody()
        let state = TaskState(sink: .stream(body))
        let task = state.task
        #if canImport(FoundationNetworking)
        // Linux's suspend() neither pauses a running transfer nor resumes it cleanly (see StreamedBody).
        body.attach(pause: {}, resume: {}, cancel: { task.cancel() })
        #else
        body.attach(pause: { task.suspend() }, resume: { task.resume() }, cancel: { task.cancel() })
        #endif
        let host = HostSlots.key(for: request.url)
        // The connection is the stream's until it ends, so its slot is too (Linux).
        if let slots { try await slots.acquire(host) }
        let release = ReleaseOnce { [slots] in slots?.release(host) }
        do {
            let response = try await run(state, request, holdsSlot: true) { $0.dataTask(with: $1) }
            return (body.asyncStream { release.run() }, response)
        } catch {
            body.cancel()
            release.run()
            throw error
        }
    }

    /// The most redirects one call follows, as on Apple platforms.
    static let redirectLimit = 20

    private func run(
        _ state: TaskState,
        _ request: URLRequest,
        holdsSlot: Bool = false,
        makeTask: (URLSession, URLRequest) -> URLSessionTask
    ) async throws -> HTTPURLResponse {
        var request = request
        for _ in 0...Self.redirectLimit {
            switch try await runOnce(state, request, holdsSlot: holdsSlot, makeTask: makeTask) {
            case .response(let response):
                return response
            case .redirect(let next):
                // Followed here because the platform would drop the body: start again.
                try state.reset()
                request = next
            }
        }
        throw URLError(.httpTooManyRedirects)
    }

    private func runOnce(
        _ state: TaskState,
        _ request: URLRequest,
        holdsSlot: Bool,
        makeTask: (URLSession, URLRequest) -> URLSessionTask
    ) async throws -> TaskOutcome {
        guard let slots, !holdsSlot else { return try await startTask(state, request, makeTask: makeTask) }
        return try await slots.withSlot(for: HostSlots.key(for: request.url)) {
            try await startTask(state, request, makeTask: makeTask)
        }
    }

    private func startTask(
        _ state: TaskState,
        _ request: URLRequest,
        makeTask: (URLSession, URLRequest) -> URLSessionTask
    ) async throws -> TaskOutcome {
        let handle = state.task
        let session = session
        let delegate = delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<TaskOutcome, any Error>) in
                let task = makeTask(session, request)
                delegate.register(task, state: state, continuation: continuation)
                handle.attach(task)
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// How one URLSession task ended.
private enum TaskOutcome {
    /// The final response.
    case response(HTTPURLResponse)
    /// A redirect the transport follows itself, with the request to send next.
    case redirect(URLRequest)
}

/// Cancels a URLSession task even when cancellation arrives before the task exists.
private final class CancellableTask: @unchecked Sendable {
    private struct State {
        var task: URLSessionTask?
        var isCancelled = false
    }

    private let state = LockedValue(State())

    func attach(_ task: URLSessionTask) {
        let cancelNow = state.withLock { state in
            state.task = task
            return state.isCancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = state.withLock { state in
            state.isCancelled = true
            return state.task
        }
        task?.cancel()
    }

    /// Pauses the transfer (flow control of a streamed body).
    func suspend() {
        state.withLock { $0.task }?.suspend()
    }

    /// Lets a paused transfer go on.
    func resume() {
        state.withLock { $0.task }?.resume()
    }
}

/// Runs a closure the first time ``run()`` is called, and never again.
private final class ReleaseOnce: @unchecked Sendable {
    private let action: LockedValue<(@Sendable () -> Void)?>

    init(_ action: @escaping @Sendable () -> Void) { self.action = LockedValue(action) }

    func run() {
        let action = self.action.withLock { action in
            defer { action = nil }
            return action
        }
        action?()
    }
}

/// Where a task's body goes.
private enum Sink {
    case memory
    case file(FileHandle)
    /// To the caller as it arrives; the head is handed over as soon as it is known.
    case stream(StreamedBody)
}

/// Per-task bookkeeping. Mutated only on the session's serial delegate queue; read by the
/// awaiting caller only after the continuation resumed (which orders the accesses).
private final class TaskState: @unchecked Sendable {
    let sink: Sink
    let progress: (@Sendable (TransferProgress) -> Void)?
    var collected = Data()
    var received: Int64 = 0
    var writeError: (any Error)?
    /// The `401`/`407` whose challenge was declined, where the platform can only decline by
    /// cancelling the task: it is the task's answer, not the cancellation.
    var declined: HTTPURLResponse?
    /// Where this call's metrics go, if the client asked for them.
    let metrics = MetricsRecorder.current
    /// A redirect to follow with a new task (see ``SessionDelegate/keepsBody(_:after:task:)``).
    var redirect: URLRequest?
    /// The URLSession task of the current hop, to cancel.
    let task = CancellableTask()

    init(sink: Sink, progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.sink = sink
        self.progress = progress
    }

    /// Forgets what a redirect's body left, before the next hop's task starts.
    func reset() throws {
        collected = Data()
        received = 0
        redirect = nil
        if case .file(let handle) = sink {
            try handle.truncate(atOffset: 0)
        }
    }
}

private final class SessionDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// FoundationNetworking reports a body cut short by the server as `URLError(.unknown)`:
    /// when headers arrived and fewer bytes than their `Content-Length` followed, say so.
    static func classify(_ error: any Error, task: URLSessionTask, received: Int64) -> any Error {
        guard let urlError = error as? URLError, urlError.code == .unknown,
            let response = task.response as? HTTPURLResponse,
            response.expectedContentLength > received
        else { return error }
        return URLError(.networkConnectionLost)
    }

    private struct Entry {
        let state: TaskState
        /// Resumed once: at the end of the task, or for a stream when its head arrived.
        var continuation: CheckedContinuation<TaskOutcome, any Error>?
    }

    /// The tasks in flight, by task identifier.
    private let entries = LockedValue([Int: Entry]())
    private let challenges: ChallengeResponder

    init(challenges: ChallengeResponder) {
        self.challenges = challenges
    }

    func register(_ task: URLSessionTask, state: TaskState, continuation: CheckedContinuation<TaskOutcome, any Error>) {
        entries.withLock { $0[task.taskIdentifier] = Entry(state: state, continuation: continuation) }
    }

    private func entry(for task: URLSessionTask) -> Entry? {
        entries.withLock { $0[task.taskIdentifier] }
    }

    /// Hands a stream's head to its caller, once; the body goes on arriving after it.
    private func deliverHead(of task: URLSessionTask, _ response: URLResponse?) {
        guard let http = response as? HTTPURLResponse else { return }
        let continuation: CheckedContinuation<TaskOutcome, any Error>? = entries.withLock { entries in
            guard let entry = entries[task.taskIdentifier], case .stream = entry.state.sink,
                entry.state.redirect == nil, entry.state.declined == nil
            else { return nil }
            defer { entries[task.taskIdentifier]?.continuation = nil }
            return entry.continuation
        }
        continuation?.resume(returning: .response(http))
    }

    func urlSession(
        _ session: URLSession,
        dataTask: URLSessionDataTask,
        didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        deliverHead(of: dataTask, response)
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = entry(for: dataTask)?.state else { return }
        switch state.sink {
        case .stream(let body):
            deliverHead(of: dataTask, dataTask.response)
            state.received += Int64(data.count)
            body.append(data)
        case .memory:
            state.collected.append(data)
            state.received += Int64(data.count)
        case .file(let handle):
            guard state.writeError == nil else { return }
            do {
                try handle.write(contentsOf: data)
                state.received += Int64(data.count)
                let expected = dataTask.response?.expectedContentLength ?? -1
                state.progress?(TransferProgress(completed: state.received, total: expected >= 0 ? expected : nil))
            } catch {
                state.writeError = error
                dataTask.cancel()
            }
        }
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didSendBodyData bytesSent: Int64,
        totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        guard let state = entry(for: task)?.state else { return }
        state.progress?(
            TransferProgress(
                completed: totalBytesSent,
                total: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil
            ))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didFinishCollecting metrics: URLSessionTaskMetrics) {
        guard let recorder = entry(for: task)?.state.metrics else { return }
        recorder.record(TransferMetrics(metrics))
    }

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        didReceive challenge: URLAuthenticationChallenge,
        completionHandler: @escaping @Sendable (URLSession.AuthChallengeDisposition, URLCredential?) -> Void
    ) {
        // Unanswered, a challenge hangs the request; "use credential" with none crashes Linux's
        // Foundation. Every challenge gets an answer, and a credential only with a password.
        let asked = AuthenticationChallenge(challenge)
        let answer = challenges.answer(asked)
        #if canImport(FoundationNetworking)
        // Linux's URLSession has no way to decline a challenge and go on: "reject" cancels the
        // task and "default handling" without a stored credential never ends it. So a declined
        // challenge cancels, and the cancellation is turned back into the response that asked.
        if Self.isDeclined(answer, for: asked.kind),
            let response = (challenge.failureResponse ?? task.response) as? HTTPURLResponse,
            let state = entry(for: task)?.state
        {
            state.declined = response
            completionHandler(.cancelAuthenticationChallenge, nil)
            return
        }
        #endif
        let (disposition, credential) = ChallengeResponder.disposition(for: answer, challenge: asked)
        completionHandler(disposition, credential)
    }

    #if canImport(FoundationNetworking)
    /// Whether `answer` leaves an HTTP challenge unanswered on Linux, where only Basic credentials
    /// can be sent (its Foundation stops the process on a Digest credential).
    static func isDeclined(_ answer: ChallengeAnswer, for kind: AuthenticationChallenge.Kind) -> Bool {
        switch answer {
        case .reject, .performDefaultHandling: return true
        case .cancel: return false
        case .credential: return kind != .basic
        }
    }
    #endif

    func urlSession(
        _ session: URLSession,
        task: URLSessionTask,
        willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        var next = Self.redirect(request, after: response, original: task.originalRequest)
        #if canImport(FoundationNetworking)
        // Linux's URLSession follows a redirect before storing the cookies its response set,
        // so the next hop of the same call would go without them.
        Self.carryCookies(from: response, to: &next, configuration: session.configuration)
        // It also sends no body on the next hop: a redirect that keeps the body ends this task,
        // and the transport sends the next request itself.
        if Self.keepsBody(next, after: response, task: task), let state = entry(for: task)?.state {
            state.redirect = next
            completionHandler(nil)
            return
        }
        #endif
        completionHandler(next)
    }

    /// The request to send after a redirect, as RFC 9110 says and browsers do: `307` and `308`
    /// keep the method and the body; `303` turns every method but `HEAD` into a `GET` without a
    /// body, and `301` and `302` do so for `POST`.
    static func redirect(_ proposed: URLRequest, after response: HTTPURLResponse, original: URLRequest?) -> URLRequest {
        var next = proposed
        let method = (original?.httpMethod ?? proposed.httpMethod ?? "GET").uppercased()
        switch response.statusCode {
        case 307, 308:
            next.httpMethod = method
            if next.httpBody == nil, let body = original?.httpBody { next.httpBody = body }
            if next.value(forHTTPHeaderField: "Content-Type") == nil, let type = original?.value(forHTTPHeaderField: "Content-Type") {
                next.setValue(type, forHTTPHeaderField: "Content-Type")
            }
        case 301, 302, 303:
            let becomesGet = response.statusCode == 303 ? method != "HEAD" : method == "POST"
            guard becomesGet else {
                next.httpMethod = method
                if next.httpBody == nil, let body = original?.httpBody { next.httpBody = body }
                break
            }
            next.httpMethod = "GET"
            next.httpBody = nil
            next.setValue(nil, forHTTPHeaderField: "Content-Type")
            next.setValue(nil, forHTTPHeaderField: "Content-Length")
        default:
            break
        }
        return next
    }

    #if canImport(FoundationNetworking)
    /// Whether `next` should carry a body: a body-keeping redirect of a request that had one.
    static func keepsBody(_ next: URLRequest, after response: HTTPURLResponse, task: URLSessionTask) -> Bool {
        let hadBody = task is URLSessionUploadTask || task.originalRequest?.httpBody != nil
        let method = next.httpMethod?.uppercased() ?? "GET"
        return hadBody && method != "GET" && method != "HEAD" && [301, 302, 307, 308].contains(response.statusCode)
    }

    static func carryCookies(from response: HTTPURLResponse, to next: inout URLRequest, configuration: URLSessionConfiguration) {
        guard configuration.httpShouldSetCookies, let storage = configuration.httpCookieStorage,
            let from = response.url, let to = next.url
        else { return }
        var fields: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { fields[name] = value }
        }
        let set = HTTPCookie.cookies(withResponseHeaderFields: fields, for: from)
        guard !set.isEmpty else { return }
        storage.setCookies(set, for: from, mainDocumentURL: nil)
        let header = HTTPCookie.requestHeaderFields(with: storage.cookies(for: to) ?? [])
        for (name, value) in header { next.setValue(value, forHTTPHeaderField: name) }
    }
    #endif

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = entries.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        if case .file(let handle) = entry.state.sink, entry.state.redirect == nil || error != nil {
            try? handle.close()
        }
        let failure = error.map { Self.classify($0, task: task, received: entry.state.received) }
        guard let continuation = entry.continuation else {
            // A stream whose head was delivered: its body ends here. FoundationNetworking reports
            // a chunked body cut short as `URLError(.unknown)`: after the head, that is a lost
            // connection.
            if case .stream(let body) = entry.state.sink {
                let lost = (failure as? URLError)?.code == .unknown ? URLError(.networkConnectionLost) : failure
                body.finish(throwing: lost)
            }
            return
        }
        if case .stream(let body) = entry.state.sink, entry.state.redirect == nil || error != nil {
            if entry.state.declined != nil {
                body.finish()
            } else if error == nil, let response = task.response as? HTTPURLResponse {
                // A head that came with the end of the task: the body is already in the stream.
                body.finish()
                continuation.resume(returning: .response(response))
                return
            }
            body.finish(throwing: failure)
        }
        if let writeError = entry.state.writeError {
            continuation.resume(throwing: TransportError(.localFile, detail: String(describing: writeError)))
        } else if let declined = entry.state.declined {
            continuation.resume(returning: .response(declined))
        } else if error == nil, let next = entry.state.redirect {
            continuation.resume(returning: .redirect(next))
        } else if let failure {
            continuation.resume(throwing: failure)
        } else if let response = task.response as? HTTPURLResponse {
            continuation.resume(returning: .response(response))
        } else {
            continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

import Foundation
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

    /// Creates a transport with its own session.
    ///
    /// - Parameter configuration: the session configuration; the default is ephemeral (no shared
    ///   cookies or URL cache). Do not enable `waitsForConnectivity` or background sessions on Linux.
    public init(configuration: URLSessionConfiguration = .ephemeral) {
        let delegate = SessionDelegate()
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
        let response = try await run(state) { $0.dataTask(with: request) }
        return (state.collected, response)
    }

    /// Sends `request` with its body streamed from `file`.
    public func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (Data, HTTPURLResponse) {
        let state = TaskState(sink: .memory, progress: progress)
        let response = try await run(state) { $0.uploadTask(with: request, fromFile: file) }
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
            let response = try await run(state) { $0.dataTask(with: request) }
            return (file, response)
        } catch {
            try? FileManager.default.removeItem(at: file)
            throw error
        }
    }

    private func run(_ state: TaskState, makeTask: (URLSession) -> URLSessionTask) async throws -> HTTPURLResponse {
        let handle = CancellableTask()
        let session = session
        let delegate = delegate
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<HTTPURLResponse, any Error>) in
                let task = makeTask(session)
                delegate.register(task, state: state, continuation: continuation)
                handle.attach(task)
                task.resume()
            }
        } onCancel: {
            handle.cancel()
        }
    }
}

/// Cancels a URLSession task even when cancellation arrives before the task exists.
private final class CancellableTask: @unchecked Sendable {
    private let lock = NSLock()
    private var task: URLSessionTask?
    private var isCancelled = false

    func attach(_ task: URLSessionTask) {
        let cancelNow = lock.withLock {
            self.task = task
            return isCancelled
        }
        if cancelNow { task.cancel() }
    }

    func cancel() {
        let task = lock.withLock {
            isCancelled = true
            return self.task
        }
        task?.cancel()
    }
}

/// Where a task's body goes.
private enum Sink {
    case memory
    case file(FileHandle)
}

/// Per-task bookkeeping. Mutated only on the session's serial delegate queue; read by the
/// awaiting caller only after the continuation resumed (which orders the accesses).
private final class TaskState: @unchecked Sendable {
    let sink: Sink
    let progress: (@Sendable (TransferProgress) -> Void)?
    var collected = Data()
    var received: Int64 = 0
    var writeError: (any Error)?

    init(sink: Sink, progress: (@Sendable (TransferProgress) -> Void)? = nil) {
        self.sink = sink
        self.progress = progress
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
        let continuation: CheckedContinuation<HTTPURLResponse, any Error>
    }

    private let lock = NSLock()
    private var entries: [Int: Entry] = [:]

    func register(_ task: URLSessionTask, state: TaskState, continuation: CheckedContinuation<HTTPURLResponse, any Error>) {
        lock.withLock { entries[task.taskIdentifier] = Entry(state: state, continuation: continuation) }
    }

    private func entry(for task: URLSessionTask) -> Entry? {
        lock.withLock { entries[task.taskIdentifier] }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let state = entry(for: dataTask)?.state else { return }
        switch state.sink {
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
        state.progress?(TransferProgress(
            completed: totalBytesSent,
            total: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil
        ))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let entry = lock.withLock({ entries.removeValue(forKey: task.taskIdentifier) }) else { return }
        if case .file(let handle) = entry.state.sink {
            try? handle.close()
        }
        if let writeError = entry.state.writeError {
            entry.continuation.resume(throwing: TransportError(.localFile, detail: String(describing: writeError)))
        } else if let error {
            entry.continuation.resume(throwing: Self.classify(error, task: task, received: entry.state.received))
        } else if let response = task.response as? HTTPURLResponse {
            entry.continuation.resume(returning: response)
        } else {
            entry.continuation.resume(throwing: URLError(.badServerResponse))
        }
    }
}

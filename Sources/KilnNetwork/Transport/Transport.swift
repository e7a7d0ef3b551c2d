import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Moves bytes: sends a `URLRequest` and returns what came back, knowing nothing of envelopes,
/// retries or models. ``URLSessionTransport`` is the real one; `StubTransport` (in KilnTesting)
/// answers from canned responses.
///
/// A transport returns any HTTP status as a response (a 500 is not an error here) and throws only
/// when no complete response arrived: a `URLError`, a ``TransportError`` or `CancellationError`.
///
/// ```swift
/// struct RecordingTransport: Transport {
///     let base: any Transport
///     func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
///         print(request.url?.absoluteString ?? "")
///         return try await base.send(request)
///     }
///     // upload and download forward the same way
/// }
/// ```
public protocol Transport: Sendable {
    /// Sends a request with its in-memory body and returns the whole response body.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends a request whose body is read from `file`, reporting bytes sent.
    func upload(
        _ request: URLRequest,
        fromFile file: URL,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (Data, HTTPURLResponse)

    /// Receives a response body into a new temporary file, reporting bytes received.
    ///
    /// The caller owns the returned file: it moves it into place or deletes it.
    func download(
        _ request: URLRequest,
        progress: @escaping @Sendable (TransferProgress) -> Void
    ) async throws -> (URL, HTTPURLResponse)

    /// Sends a request and returns as soon as the response's head arrived, with the body as the
    /// pieces come off the network (Server-Sent Events, JSON Lines, any long answer).
    ///
    /// Ending the iteration early, or cancelling the task that iterates, ends the transfer: the
    /// server sees the connection close. A body cut short ends the sequence with the transport's
    /// error. The default implementation sends the request with ``send(_:)`` and delivers the
    /// whole body as one piece, for transports that cannot stream.
    func stream(_ request: URLRequest) async throws -> (AsyncThrowingStream<Data, any Error>, HTTPURLResponse)
}

extension Transport {
    /// Sends `request` with ``send(_:)`` and delivers its whole body as one piece.
    public func stream(_ request: URLRequest) async throws -> (AsyncThrowingStream<Data, any Error>, HTTPURLResponse) {
        let (data, response) = try await send(request)
        let (body, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        if !data.isEmpty { continuation.yield(data) }
        continuation.finish()
        return (body, response)
    }
}

/// How far a transfer has come.
///
/// ```swift
/// for try await event in client.download(.file("big.bin"), to: destination) {
///     if case .progress(let p) = event { bar.value = p.fraction ?? 0 }
/// }
/// ```
public struct TransferProgress: Sendable, Hashable, CustomStringConvertible {
    /// Bytes transferred so far.
    public var completed: Int64
    /// Bytes expected in total, when known.
    public var total: Int64?

    /// Creates a progress value.
    public init(completed: Int64, total: Int64?) {
        self.completed = completed
        self.total = total.flatMap { $0 >= 0 ? $0 : nil }
    }

    /// `completed / total` in `0...1`, or `nil` when the total is unknown.
    public var fraction: Double? {
        guard let total else { return nil }
        guard total > 0 else { return 1 }
        return min(1, Double(completed) / Double(total))
    }

    /// `"512 KB of 2 MB (25%)"`-style text.
    public var description: String {
        let done = ByteCountFormatter.string(fromByteCount: completed, countStyle: .file)
        guard let total, let fraction else { return done }
        let all = ByteCountFormatter.string(fromByteCount: total, countStyle: .file)
        return "\(done) of \(all) (\(Int(fraction * 100))%)"
    }
}

/// One event of an upload or download: progress, then exactly one `finished` with the result.
///
/// ```swift
/// for try await event in client.upload(.avatar(form)) {
///     switch event {
///     case .progress(let progress): bar.value = progress.fraction ?? 0
///     case .finished(let user): self.user = user
///     }
/// }
/// ```
public enum TransferEvent<Value: Sendable>: Sendable {
    /// Bytes moved so far.
    case progress(TransferProgress)
    /// The transfer completed with this value; no event follows.
    case finished(Value)

    /// The finished value, if this is the last event.
    public var value: Value? {
        if case .finished(let value) = self { return value }
        return nil
    }
}

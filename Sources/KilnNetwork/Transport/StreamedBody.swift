import Foundation
import KilnSupport

/// The body of a streamed response on its way from URLSession's delegate to the caller, with
/// flow control where the platform has it: when more than ``highWater`` bytes wait unread, the
/// transfer is paused (the server's writes then wait on TCP), and it goes on when the reader has
/// caught up to ``lowWater``. A reader slower than the network then costs a bounded buffer, not
/// the whole body.
///
/// On Linux, FoundationNetworking's `URLSessionTask.suspend()` does not pause a transfer in
/// progress (seen here: the bytes kept arriving and, after `resume()`, part of the body came
/// twice), so there the transport does not pause: the buffer holds what the reader has not read
/// yet.
final class StreamedBody: @unchecked Sendable {
    /// Unread bytes above which the transfer is paused.
    static let highWater = 1 << 20
    /// Unread bytes under which a paused transfer goes on.
    static let lowWater = 256 << 10

    private struct State {
        var chunks: [Data] = []
        var head = 0
        var buffered = 0
        var paused = false
        var ended = false
        var failure: (any Error)?
        var waiter: CheckedContinuation<Data?, any Error>?
        /// Pauses, resumes and cancels the transfer (set when its task exists).
        var control: (pause: @Sendable () -> Void, resume: @Sendable () -> Void, cancel: @Sendable () -> Void)?
    }

    private let state = LockedValue(State())

    /// Connects the body to the transfer it comes from.
    func attach(pause: @escaping @Sendable () -> Void, resume: @escaping @Sendable () -> Void, cancel: @escaping @Sendable () -> Void) {
        state.withLock { $0.control = (pause, resume, cancel) }
    }

    /// Adds bytes that arrived (delegate queue).
    func append(_ data: Data) {
        guard !data.isEmpty else { return }
        let (waiting, pause): (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?) = state.withLock { state in
            guard !state.ended else { return (nil, nil) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, nil)
            }
            state.chunks.append(data)
            state.buffered += data.count
            guard state.buffered > Self.highWater, !state.paused else { return (nil, nil) }
            state.paused = true
            return (nil, state.control?.pause)
        }
        waiting?.resume(returning: data)
        pause?()
    }

    /// Ends the body: the bytes still unread are delivered first, then `nil` or `error`.
    func finish(throwing error: (any Error)? = nil) {
        let waiting: CheckedContinuation<Data?, any Error>? = state.withLock { state in
            guard !state.ended else { return nil }
            state.ended = true
            state.failure = error
            defer { state.waiter = nil }
            return state.waiter
        }
        if let error { waiting?.resume(throwing: error) } else { waiting?.resume(returning: nil) }
    }

    /// The next piece of the body; `nil` at its end.
    func next() async throws -> Data? {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data?, any Error>) in
                let (outcome, resume): (Result<Data?, any Error>?, (@Sendable () -> Void)?) = state.withLock { state in
                    if state.head < state.chunks.count {
                        let chunk = state.chunks[state.head]
                        state.head += 1
                        if state.head == state.chunks.count {
                            state.chunks.removeAll(keepingCapacity: true)
                            state.head = 0
                        }
                        state.buffered -= chunk.count
                        if state.paused, state.buffered <= Self.lowWater, !state.ended {
                            state.paused = false
                            return (.success(chunk), state.control?.resume)
                        }
                        return (.success(chunk), nil)
                    }
                    if state.ended { return (state.failure.map { .failure($0) } ?? .success(nil), nil) }
                    if Task.isCancelled { return (.failure(CancellationError()), nil) }
                    state.waiter = continuation
                    return (nil, nil)
                }
                resume?()
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            cancel()
        }
    }

    /// Stops the transfer and ends the body with `CancellationError` (the reader went away).
    func cancel() {
        let (waiting, cancelTransfer): (CheckedContinuation<Data?, any Error>?, (@Sendable () -> Void)?) = state.withLock { state in
            let waiting = state.waiter
            state.waiter = nil
            guard !state.ended else { return (waiting, nil) }
            state.ended = true
            state.failure = CancellationError()
            state.chunks = []
            state.head = 0
            state.buffered = 0
            return (waiting, state.control?.cancel)
        }
        cancelTransfer?()
        waiting?.resume(throwing: CancellationError())
    }

    /// The body as an `AsyncThrowingStream`; dropping the stream (and its iterator) before the
    /// end cancels the transfer.
    func asyncStream(onEnd: @escaping @Sendable () -> Void) -> AsyncThrowingStream<Data, any Error> {
        let reader = Reader(body: self, onEnd: onEnd)
        return AsyncThrowingStream { try await reader.next() }
    }

    /// Held only by the stream: when the caller lets go of it, the transfer is cancelled.
    private final class Reader: Sendable {
        let body: StreamedBody
        let onEnd: @Sendable () -> Void

        init(body: StreamedBody, onEnd: @escaping @Sendable () -> Void) {
            self.body = body
            self.onEnd = onEnd
        }

        func next() async throws -> Data? {
            do {
                let chunk = try await body.next()
                if chunk == nil { onEnd() }
                return chunk
            } catch {
                onEnd()
                throw error
            }
        }

        deinit {
            body.cancel()
            onEnd()
        }
    }
}

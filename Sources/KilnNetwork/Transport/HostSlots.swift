import Foundation
import KilnSupport

/// A limit on the requests to one host that run at once, with the rest waiting their turn here.
///
/// Linux's URLSession opens at most `httpMaximumConnectionsPerHost` connections to a host and
/// queues further tasks inside itself, where the queued time counts against the request's
/// timeout: twenty slow downloads from one host would time out without ever being idle. Started
/// only when a connection is free, a task's timeout measures the transfer alone. Waiting here
/// ends at once when the calling task is cancelled.
final class HostSlots: @unchecked Sendable {
    private struct Host {
        var running = 0
        var waiting: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
    }

    private struct State {
        var hosts: [String: Host] = [:]
        var nextID: UInt64 = 0
    }

    private let limit: Int
    private let state = LockedValue(State())

    init(limit: Int) {
        self.limit = max(1, limit)
    }

    /// The key requests to the same host share: scheme, host and port.
    static func key(for url: URL?) -> String {
        guard let url else { return "" }
        return "\(url.scheme ?? "")://\(url.host ?? ""):\(url.port ?? -1)"
    }

    /// Runs `body` once a slot for `host` is free.
    func withSlot<T>(for host: String, _ body: () async throws -> T) async throws -> T {
        try await acquire(host)
        defer { release(host) }
        return try await body()
    }

    /// Waits for a slot for `host`; throws `CancellationError` when the caller is cancelled first.
    func acquire(_ host: String) async throws {
        let id: UInt64 = state.withLock { state in
            state.nextID &+= 1
            return state.nextID
        }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                // nil: queued, resumed by `release` or the cancellation handler.
                let answer: Bool? = state.withLock { state in
                    if Task.isCancelled { return false }
                    if state.hosts[host, default: Host()].running < limit {
                        state.hosts[host, default: Host()].running += 1
                        return true
                    }
                    state.hosts[host, default: Host()].waiting.append((id, continuation))
                    return nil
                }
                if let answer { continuation.resume(returning: answer) }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
                guard let index = state.hosts[host]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return state.hosts[host]?.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        if !granted { throw CancellationError() }
    }

    /// Gives back a slot ``acquire(_:)`` granted.
    func release(_ host: String) {
        let next: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard var entry = state.hosts[host] else { return nil }
            if entry.waiting.isEmpty {
                entry.running -= 1
                state.hosts[host] = entry.running == 0 ? nil : entry
                return nil
            }
            // The slot passes straight to the next waiter.
            let next = entry.waiting.removeFirst().continuation
            state.hosts[host] = entry
            return next
        }
        next?.resume(returning: true)
    }
}

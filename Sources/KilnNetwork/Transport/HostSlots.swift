import Foundation

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

    private let limit: Int
    private let lock = NSLock()
    private var hosts: [String: Host] = [:]
    private var nextID: UInt64 = 0

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
        let id: UInt64 = lock.withLock {
            nextID &+= 1
            return nextID
        }
        let granted = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                lock.lock()
                if Task.isCancelled {
                    lock.unlock()
                    continuation.resume(returning: false)
                } else if hosts[host, default: Host()].running < limit {
                    hosts[host, default: Host()].running += 1
                    lock.unlock()
                    continuation.resume(returning: true)
                } else {
                    hosts[host, default: Host()].waiting.append((id, continuation))
                    lock.unlock()
                }
            }
        } onCancel: {
            let waiter: CheckedContinuation<Bool, Never>? = lock.withLock {
                guard let index = hosts[host]?.waiting.firstIndex(where: { $0.id == id }) else { return nil }
                return hosts[host]?.waiting.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
        if !granted { throw CancellationError() }
    }

    /// Gives back a slot ``acquire(_:)`` granted.
    func release(_ host: String) {
        let next: CheckedContinuation<Bool, Never>? = lock.withLock {
            guard var entry = hosts[host] else { return nil }
            if entry.waiting.isEmpty {
                entry.running -= 1
                hosts[host] = entry.running == 0 ? nil : entry
                return nil
            }
            // The slot passes straight to the next waiter.
            let next = entry.waiting.removeFirst().continuation
            hosts[host] = entry
            return next
        }
        next?.resume(returning: true)
    }
}

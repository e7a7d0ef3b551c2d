import Foundation
import KilnSupport
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Identical requests in flight at the same time, each run once for all its callers.
///
/// The first caller of a key starts the work in a task of its own; later callers of the same
/// key wait for its result. A caller that is cancelled stops waiting at once (its call ends in
/// ``APIError/cancelled``) and leaves the others waiting; the work is cancelled when the last
/// waiting caller leaves. The entry is gone when the work ends, so a call made after that starts
/// a new transfer.
final class SharedTransfers: @unchecked Sendable {
    /// What makes two calls the same: the operation, the request as the endpoint builds it and
    /// the type its value decodes to.
    struct Key: Hashable {
        var operation: String
        var method: String
        var url: URL
        var headers: [String: String]
        var value: ObjectIdentifier
        var envelope: Envelope
        var timeout: TimeInterval
    }

    /// One run and its callers; changed only inside `state.withLock`.
    private final class Flight: @unchecked Sendable {
        var waiters: [UInt64: CheckedContinuation<Result<any Sendable, APIError>, Never>] = [:]
        var callers = 0
        var task: Task<Void, Never>?
    }

    private struct State {
        var flights: [Key: Flight] = [:]
        var nextWaiter: UInt64 = 0
    }

    private let state = LockedValue(State())

    /// The callers waiting for shared work, over every key (for tests).
    var waitingCallers: Int { state.withLock { $0.flights.values.reduce(0) { $0 + $1.waiters.count } } }

    /// Runs `work` for `key`, or waits for the run already in flight.
    ///
    /// `finished` is called once per run, when its work ends, with the number of callers that
    /// shared it.
    func run<Value: Sendable>(
        _ key: Key,
        finished: @escaping @Sendable (Int) -> Void,
        work: @escaping @Sendable () async throws(APIError) -> Value
    ) async throws(APIError) -> Value {
        let waiter = state.withLock { state in
            state.nextWaiter &+= 1
            return state.nextWaiter
        }
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<any Sendable, APIError>, Never>) in
                join(key, waiter: waiter, continuation: continuation, finished: finished, work: work)
            }
        } onCancel: {
            leave(key, waiter: waiter)
        }
        switch result {
        case .success(let value):
            guard let value = value as? Value else { throw .cancelled }
            return value
        case .failure(let error):
            throw error
        }
    }

    private func join<Value: Sendable>(
        _ key: Key,
        waiter: UInt64,
        continuation: CheckedContinuation<Result<any Sendable, APIError>, Never>,
        finished: @escaping @Sendable (Int) -> Void,
        work: @escaping @Sendable () async throws(APIError) -> Value
    ) {
        let joined = state.withLock { state -> Bool in
            // Cancelled before joining: the cancellation handler found nothing to remove.
            if Task.isCancelled { return false }
            if let flight = state.flights[key] {
                flight.waiters[waiter] = continuation
                flight.callers += 1
                return true
            }
            let flight = Flight()
            flight.waiters[waiter] = continuation
            flight.callers = 1
            state.flights[key] = flight
            // Started under the lock, so that a caller leaving finds the task to cancel.
            flight.task = Task { [weak self] in
                let result: Result<any Sendable, APIError>
                do throws(APIError) {
                    result = .success(try await work())
                } catch {
                    result = .failure(error)
                }
                guard let self else { return }
                let (waiters, callers) = self.state.withLock { state in
                    if state.flights[key] === flight { state.flights[key] = nil }
                    let waiters = flight.waiters
                    flight.waiters = [:]
                    return (waiters, flight.callers)
                }
                finished(callers)
                for continuation in waiters.values { continuation.resume(returning: result) }
            }
            return true
        }
        if !joined { continuation.resume(returning: .failure(.cancelled)) }
    }

    private func leave(_ key: Key, waiter: UInt64) {
        let (continuation, abandoned): (CheckedContinuation<Result<any Sendable, APIError>, Never>?, Task<Void, Never>?) = state.withLock { state in
            guard let flight = state.flights[key], let continuation = flight.waiters.removeValue(forKey: waiter) else { return (nil, nil) }
            guard flight.waiters.isEmpty else { return (continuation, nil) }
            // The last caller left: nobody waits for the transfer any more.
            state.flights[key] = nil
            return (continuation, flight.task)
        }
        abandoned?.cancel()
        continuation?.resume(returning: .failure(.cancelled))
    }
}

extension APIClient {
    /// How many calls are waiting for a shared transfer now: a hook for tests.
    package var callersWaitingForSharedTransfers: Int { sharedTransfers.waitingCallers }

    /// Runs `work` once for every identical call of `endpoint` in flight, or at once when the
    /// endpoint does not share its transfer.
    func shared<Value, Result: Sendable>(
        _ endpoint: Endpoint<Value>,
        operation: String,
        work: @escaping @Sendable () async throws(APIError) -> Result
    ) async throws(APIError) -> Result {
        guard let (key, request) = transferKey(for: endpoint, operation: operation) else { return try await work() }
        let monitors = eventMonitors
        return try await sharedTransfers.run(
            key,
            finished: { callers in
                guard callers > 1, !monitors.isEmpty else { return }
                for monitor in monitors { monitor.receive(.transferShared(request, callers: callers)) }
            }, work: work)
    }

    /// What makes calls of `endpoint` the same call, or `nil` when they may not share a
    /// transfer: not a `GET` or `HEAD`, a body, Foundation's decoder (its closure cannot be
    /// compared), or ``Endpoint/sharesTransfer`` turned off.
    func transferKey<Value>(for endpoint: Endpoint<Value>, operation: String) -> (SharedTransfers.Key, URLRequest)? {
        guard endpoint.sharesTransfer, endpoint.method == .get || endpoint.method == .head,
            endpoint.decoding == nil, case .none = endpoint.body,
            let request = try? makeRequest(for: endpoint), let url = request.url
        else { return nil }
        let key = SharedTransfers.Key(
            operation: operation, method: endpoint.method.rawValue, url: url,
            headers: request.allHTTPHeaderFields ?? [:], value: ObjectIdentifier(Value.self),
            envelope: endpoint.envelope ?? envelope, timeout: endpoint.timeout
        )
        return (key, request)
    }
}

import Foundation
import KilnModel

extension APIClient {
    /// The values `policy` delivers for `endpoint`, each tagged with its origin: for
    /// example the cached list at once, then the fresh one.
    ///
    /// ```swift
    /// for try await page in client.values(for: .messages, policy: .cacheThenNetwork) {
    ///     render(page.value, note: page.origin.isCached ? "updating…" : nil)
    /// }
    /// ```
    ///
    /// Successful network answers are stored in ``responseCache`` (when set). The sequence throws
    /// ``APIError`` values; with `.cacheThenNetwork`, a network failure is thrown after the cached
    /// value was delivered, so the caller keeps it. Ending the iteration cancels the request.
    public func values<Value: Decodable & Sendable>(
        for endpoint: Endpoint<Value>, policy: CachePolicy
    ) -> AsyncThrowingStream<Sourced<Value>, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(APIError) {
                    try await deliver(endpoint, policy: policy) { continuation.yield($0) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The last value `policy` delivers for `endpoint` (for `.cacheThenNetwork`, the network's):
    /// for callers that want one answer. Use ``values(for:policy:)`` to see a cached value first.
    public func send<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>, policy: CachePolicy) async throws(APIError) -> Sourced<Value> {
        var last: Sourced<Value>?
        try await deliver(endpoint, policy: policy) { last = $0 }
        guard let last else { throw .notCached }
        return last
    }

    func deliver<Value: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, policy: CachePolicy, yield: (Sourced<Value>) -> Void
    ) async throws(APIError) {
        switch policy {
        case .networkOnly:
            yield(try await fetchAndStore(endpoint))
        case .cacheOnly:
            guard let cached = await cachedValue(for: endpoint, maxAge: nil) else { throw .notCached }
            yield(cached)
        case .cacheElseNetwork(let maxAge):
            if let cached = await cachedValue(for: endpoint, maxAge: maxAge) {
                yield(cached)
            } else {
                yield(try await fetchAndStore(endpoint))
            }
        case .networkElseCache:
            do throws(APIError) {
                yield(try await fetchAndStore(endpoint))
            } catch {
                guard Self.allowsOfflineFallback(error), let cached = await cachedValue(for: endpoint, maxAge: nil) else { throw error }
                yield(cached)
            }
        case .cacheThenNetwork:
            if let cached = await cachedValue(for: endpoint, maxAge: nil) { yield(cached) }
            if Task.isCancelled { throw .cancelled }
            yield(try await fetchAndStore(endpoint))
        }
    }

    /// The network answers with a value; only an answer that passed the HTTP and envelope checks
    /// and decoded is stored, as the bytes of its `data` exactly as they arrived.
    func fetchAndStore<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>) async throws(APIError) -> Sourced<Value> {
        let body = try await validatedBody(for: endpoint, progress: nil, readsValue: true)
        let decoded = try decode(body, for: endpoint)
        if let responseCache, let request = cacheableRequest(for: endpoint) {
            let bytes = try body.payloadBytes()
            await responseCache.store(bytes, for: request)
            // The network's bytes are what the next hit reads: its decode is already done.
            if endpoint.decoding == nil {
                decodedValues.keep(decoded.value, repairs: decoded.repairs, for: request, bytes: bytes)
            } else {
                decodedValues.forget(request)
            }
        }
        return Sourced(value: decoded.value, origin: .network, repairs: decoded.repairs)
    }

    /// The cached value, if there is one younger than `maxAge` that still decodes; an entry that
    /// no longer decodes is removed and counts as a miss. Bytes decoded before (and unchanged
    /// since) are not decoded again.
    func cachedValue<Value: Decodable & Sendable>(for endpoint: Endpoint<Value>, maxAge: TimeInterval?) async -> Sourced<Value>? {
        guard let responseCache, let request = cacheableRequest(for: endpoint),
              let cached = await responseCache.cachedResponse(for: request)
        else { return nil }
        let age = max(0, cached.age)
        if let maxAge, age > maxAge { return nil }
        if let kept = decodedValues.value(Value.self, for: request, bytes: cached.data) {
            return Sourced(value: kept.value, origin: .cache(age: age), repairs: kept.repairs)
        }
        guard var decoded = try? decode(cached.data, for: endpoint) else {
            decodedValues.forget(request)
            await responseCache.removeResponse(for: request)
            return nil
        }
        // Repairs name paths in the server's response, wherever the value came from.
        decoded.repairs = Self.inResponse(decoded.repairs, dataPath: (endpoint.envelope ?? envelope).dataPath.map(Envelope.jsonPath))
        if endpoint.decoding == nil {
            decodedValues.keep(decoded.value, repairs: decoded.repairs, for: request, bytes: cached.data)
        }
        return Sourced(value: decoded.value, origin: .cache(age: age), repairs: decoded.repairs)
    }

    /// Repairs of a decode of the envelope's `data` alone, named by their path in the whole
    /// response (`list[3].id` → `data.list[3].id`).
    static func inResponse(_ repairs: [Repair], dataPath: KilnModel.JSONPath?) -> [Repair] {
        guard let dataPath else { return repairs }
        return repairs.map { $0.under(dataPath) }
    }

    /// What identifies `endpoint` to the response cache: its method, full URL and body; `nil`
    /// when its URL cannot be built (the network call then fails on its own).
    public func cacheableRequest<Value>(for endpoint: Endpoint<Value>) -> CacheableRequest? {
        guard let url = try? resolve(endpoint.path, query: endpoint.query) else { return nil }
        var request = CacheableRequest(method: endpoint.method, url: url)
        switch endpoint.body {
        case .form(let fields): request.formFields = fields
        case .jsonData(let body), .raw(let body, _): request.body = body
        case .none, .multipart: break
        }
        return request
    }

    /// Network trouble (and server-side HTTP failures) fall back to the cache; a server that
    /// answered "no" does not.
    static func allowsOfflineFallback(_ error: APIError) -> Bool {
        switch error {
        case .transport: true
        case .http(let status, _): status >= 500
        case .server, .decoding, .cancelled, .notCached: false
        }
    }
}

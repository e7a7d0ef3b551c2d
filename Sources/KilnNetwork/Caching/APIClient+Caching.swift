import Foundation
@_spi(KilnInternal) import KilnModel

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
    /// Successful network answers are stored in ``responseCache`` (when set), with what their
    /// headers say about reusing them; see ``CachePolicy`` for what each policy does. The sequence throws
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
    /// With `.staleWhileRevalidate` it returns the stored value at once and revalidates it in the
    /// background, for the next call.
    public func send<Value: Decodable & Sendable>(_ endpoint: Endpoint<Value>, policy: CachePolicy) async throws(APIError) -> Sourced<Value> {
        var last: Sourced<Value>?
        try await deliver(endpoint, policy: policy, revalidatesInBackground: true) { last = $0 }
        guard let last else { throw .notCached }
        return last
    }

    /// A stored entry, with the request it was found for.
    struct StoredEntry: Sendable {
        var request: CacheableRequest
        var response: CachedResponse

        /// Whether the server forbids serving it without revalidation now.
        var forbidsStaleUse: Bool {
            guard let info = response.info else { return false }
            return info.mustRevalidate && !info.isFresh(residentFor: response.age)
        }
    }

    func deliver<Value: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, policy: CachePolicy, revalidatesInBackground: Bool = false, yield: (Sourced<Value>) -> Void
    ) async throws(APIError) {
        let stored = await storedEntry(for: endpoint)
        switch policy {
        case .networkOnly:
            yield(try await fetchAndStore(endpoint, revalidating: stored))
        case .cacheOnly:
            guard let stored, let cached = await cachedValue(stored, for: endpoint) else { throw .notCached }
            yield(cached)
        case .cacheElseNetwork(let maxAge):
            if let stored, stored.response.age <= maxAge, let cached = await cachedValue(stored, for: endpoint) {
                yield(cached)
            } else {
                yield(try await fetchAndStore(endpoint, revalidating: stored))
            }
        case .networkElseCache:
            do throws(APIError) {
                yield(try await fetchAndStore(endpoint, revalidating: stored))
            } catch {
                guard Self.allowsOfflineFallback(error), let stored, !stored.forbidsStaleUse,
                    let cached = await cachedValue(stored, for: endpoint)
                else { throw error }
                yield(cached)
            }
        case .cacheThenNetwork:
            let usable = await usableEntry(stored, for: endpoint, yield: yield)
            if Task.isCancelled { throw .cancelled }
            yield(try await fetchAndStore(endpoint, revalidating: usable))
        case .followServer:
            if let stored, stored.response.isFresh, let cached = await cachedValue(stored, for: endpoint) {
                yield(cached)
                return
            }
            yield(try await fetchAndStore(endpoint, revalidating: stored))
        case .staleWhileRevalidate:
            guard let usable = await usableEntry(stored, for: endpoint, yield: yield) else {
                yield(try await fetchAndStore(endpoint, revalidating: nil))
                return
            }
            if usable.response.isFresh { return }
            if revalidatesInBackground {
                let client = self
                Task { _ = try? await client.fetchAndStore(endpoint, revalidating: usable) }
                return
            }
            if Task.isCancelled { throw .cancelled }
            yield(try await fetchAndStore(endpoint, revalidating: usable))
        }
    }

    /// Yields the stored value when it decodes, and returns the entry to revalidate: `nil` when
    /// there was none or it no longer decodes (it was removed).
    private func usableEntry<Value: Decodable & Sendable>(
        _ stored: StoredEntry?, for endpoint: Endpoint<Value>, yield: (Sourced<Value>) -> Void
    ) async -> StoredEntry? {
        guard let stored, let cached = await cachedValue(stored, for: endpoint) else { return nil }
        yield(cached)
        return stored
    }

    /// The entry stored for `endpoint`, if its `Vary` headers match the request's.
    func storedEntry<Value>(for endpoint: Endpoint<Value>) async -> StoredEntry? {
        guard let responseCache, let request = cacheableRequest(for: endpoint),
            let response = await responseCache.cachedResponse(for: request)
        else { return nil }
        if let info = response.info, !info.matches(requestHeaders: requestHeaders(for: endpoint)) { return nil }
        return StoredEntry(request: request, response: response)
    }

    /// The headers `endpoint` is sent with before interceptors run: what `Vary` compares.
    func requestHeaders<Value>(for endpoint: Endpoint<Value>) -> [String: String] {
        (try? makeRequest(for: endpoint))?.allHTTPHeaderFields ?? [:]
    }

    /// The network answers with a value, identical calls in flight sharing one request. A stored
    /// entry with a validator makes the request conditional: a `304` serves the stored value
    /// (decoded before, or decoded now) and renews its freshness. A new answer that passed the
    /// HTTP and envelope checks and decoded is stored, as the bytes of its value exactly as they
    /// arrived, unless its headers say `no-store` (then what was stored goes).
    func fetchAndStore<Value: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, revalidating stored: StoredEntry? = nil
    ) async throws(APIError) -> Sourced<Value> {
        try await shared(endpoint, operation: "store") { () async throws(APIError) -> Sourced<Value> in
            try await fetchAndStoreOnce(endpoint, revalidating: stored)
        }
    }

    private func fetchAndStoreOnce<Value: Decodable & Sendable>(
        _ endpoint: Endpoint<Value>, revalidating stored: StoredEntry?
    ) async throws(APIError) -> Sourced<Value> {
        var sent = endpoint
        let conditional = stored?.response.info?.conditionalHeaders ?? [:]
        for (name, value) in conditional { sent.headers[name] = value }
        let requestTime = Date()
        let body = try await validatedBody(for: sent, progress: nil, readsValue: true, acceptsNotModified: !conditional.isEmpty)
        let responseTime = Date()
        let headers = requestHeaders(for: endpoint)

        if body.head.status == 304, let stored, let responseCache {
            guard let kept = await cachedValue(stored, for: endpoint) else {
                // The stored bytes no longer decode (and were removed): ask for the whole answer.
                return try await fetchAndStoreOnce(endpoint, revalidating: nil)
            }
            if let renewed = stored.response.info?.updated(by: body.head, requestHeaders: headers, responseTime: responseTime, requestTime: requestTime) {
                await responseCache.store(CachedResponse(data: stored.response.data, age: 0, info: renewed), for: stored.request)
            } else {
                await responseCache.removeResponse(for: stored.request)
            }
            return Sourced(value: kept.value, origin: .revalidated, repairs: kept.repairs)
        }

        let decoded = try decode(body, for: endpoint)
        if let responseCache, let request = cacheableRequest(for: endpoint) {
            if let info = HTTPCacheInfo(head: body.head, requestHeaders: headers, responseTime: responseTime, requestTime: requestTime) {
                let bytes = try body.payloadBytes()
                await responseCache.store(CachedResponse(data: bytes, age: 0, info: info), for: request)
                // The network's bytes are what the next hit reads: its decode is already done.
                if endpoint.decoding == nil {
                    decodedValues.keep(decoded.value, repairs: decoded.repairs, for: request, bytes: bytes)
                } else {
                    decodedValues.forget(request)
                }
            } else {
                // `no-store`: the answer is not kept, and neither is an older one.
                decodedValues.forget(request)
                await responseCache.removeResponse(for: request)
            }
        }
        return Sourced(value: decoded.value, origin: .network, repairs: decoded.repairs)
    }

    /// The value of a stored entry, if it still decodes; an entry that no longer decodes is
    /// removed and counts as a miss. Bytes decoded before (and unchanged since) are not decoded
    /// again.
    func cachedValue<Value: Decodable & Sendable>(_ stored: StoredEntry, for endpoint: Endpoint<Value>) async -> Sourced<Value>? {
        guard let responseCache else { return nil }
        let request = stored.request
        let cached = stored.response
        let age = max(0, cached.age)
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

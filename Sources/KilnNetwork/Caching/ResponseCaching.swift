import Foundation

/// Where an ``APIClient`` keeps the data of successful responses for its cache policies.
///
/// The client calls it and knows nothing of how bytes are stored: it hands over the value's bytes
/// exactly as the server sent them (the envelope's `data`, or the whole body), after the HTTP and
/// envelope checks passed and the value decoded, with what the server said about reusing them
/// (``HTTPCacheInfo``: validators and freshness), and asks for both back by request.
/// `ResponseCache` (in the `KilnNetworkCache` module, part of `Kiln`) implements it over
/// KilnCache's memory and disk caches; implement it yourself to keep responses anywhere else.
///
/// ```swift
/// struct Remembered: ResponseCaching {
///     let store: Storage
///     func cachedResponse(for request: CacheableRequest) async -> CachedResponse? {
///         await store.read(request.url.absoluteString).map { CachedResponse(data: $0.bytes, age: $0.age, info: $0.info) }
///     }
///     func store(_ response: CachedResponse, for request: CacheableRequest) async {
///         await store.write(response.data, info: response.info, for: request.url.absoluteString)
///     }
///     func removeResponse(for request: CacheableRequest) async {
///         await store.delete(request.url.absoluteString)
///     }
/// }
/// ```
public protocol ResponseCaching: Sendable {
    /// The data stored for `request`, with its age and cache information, or `nil` when there
    /// is none that can be used.
    func cachedResponse(for request: CacheableRequest) async -> CachedResponse?

    /// Stores `response` for `request`, replacing what was there; its ``CachedResponse/age`` is
    /// 0 (the age starts now). A revalidated entry (`304 Not Modified`) is stored again with its
    /// renewed ``CachedResponse/info`` and the same data.
    func store(_ response: CachedResponse, for request: CacheableRequest) async

    /// Forgets what is stored for `request`: the client calls it when stored data no longer
    /// decodes into the endpoint's type, and when the server answers with `no-store`.
    func removeResponse(for request: CacheableRequest) async
}

/// What identifies a request to a ``ResponseCaching`` store: where it goes and what it sends.
public struct CacheableRequest: Sendable, Hashable {
    /// The HTTP method.
    public var method: HTTPMethod
    /// The full URL the endpoint resolves to (the client's base URL, the path and the query),
    /// before interceptors add their parameters.
    public var url: URL
    /// The form fields of a form body, in order; empty for other bodies.
    public var formFields: [URLQueryItem]
    /// The bytes of a JSON or raw body, or `nil`.
    public var body: Data?

    /// Describes a request.
    public init(method: HTTPMethod, url: URL, formFields: [URLQueryItem] = [], body: Data? = nil) {
        self.method = method
        self.url = url
        self.formFields = formFields
        self.body = body
    }

    /// The query items of ``url``, in order.
    public var queryItems: [URLQueryItem] {
        URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems ?? []
    }
}

/// Data a ``ResponseCaching`` store keeps, how old it is, and what the server said about reusing it.
public struct CachedResponse: Sendable, Hashable {
    /// The value's bytes, as the server sent them.
    public var data: Data
    /// Seconds since the data was stored or last revalidated.
    public var age: TimeInterval
    /// Validators and freshness from the response's headers; `nil` for data stored without
    /// them (it is never fresh by the server's rules, and is fetched again rather than revalidated).
    public var info: HTTPCacheInfo?

    /// Describes stored data.
    public init(data: Data, age: TimeInterval, info: HTTPCacheInfo? = nil) {
        self.data = data
        self.age = age
        self.info = info
    }

    /// Whether the server's freshness still covers the data (see ``HTTPCacheInfo/isFresh(residentFor:)``).
    public var isFresh: Bool { info?.isFresh(residentFor: age) ?? false }
}

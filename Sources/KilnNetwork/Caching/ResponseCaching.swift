import Foundation

/// Where an ``APIClient`` keeps the data of successful responses for its cache policies.
///
/// The client calls it and knows nothing of how bytes are stored: it hands over the envelope's
/// `data` exactly as the server sent it, after the HTTP and envelope checks passed and the value
/// decoded, and asks for those bytes back by request. `ResponseCache` (in the `KilnNetworkCache`
/// module, part of `Kiln`) implements it over KilnCache's memory and disk caches; implement it
/// yourself to keep responses anywhere else.
///
/// ```swift
/// struct Remembered: ResponseCaching {
///     let store: Storage
///     func cachedResponse(for request: CacheableRequest) async -> CachedResponse? {
///         await store.read(request.url.absoluteString).map { CachedResponse(data: $0.bytes, age: $0.age) }
///     }
///     func store(_ data: Data, for request: CacheableRequest) async {
///         await store.write(data, for: request.url.absoluteString)
///     }
///     func removeResponse(for request: CacheableRequest) async {
///         await store.delete(request.url.absoluteString)
///     }
/// }
/// ```
public protocol ResponseCaching: Sendable {
    /// The data stored for `request`, with its age, or `nil` when there is none that can be used.
    func cachedResponse(for request: CacheableRequest) async -> CachedResponse?

    /// Stores `data` (the envelope's `data`, as sent) for `request`, replacing what was there.
    func store(_ data: Data, for request: CacheableRequest) async

    /// Forgets what is stored for `request`: the client calls it when stored data no longer
    /// decodes into the endpoint's type.
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

/// Data a ``ResponseCaching`` store found, and how old it is.
public struct CachedResponse: Sendable, Hashable {
    /// The envelope's `data`, as stored.
    public var data: Data
    /// Seconds since the data was stored.
    public var age: TimeInterval

    /// Describes stored data.
    public init(data: Data, age: TimeInterval) {
        self.data = data
        self.age = age
    }
}

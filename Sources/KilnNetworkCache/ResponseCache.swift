import Crypto
import Foundation
import KilnCache
import KilnNetwork

/// An `APIClient` response cache over one of KilnCache's stores: the key rules and the
/// entries' lifetime.
///
/// ```swift
/// let disk = DiskCache(directory: cachesFolder.appendingPathComponent("api"))
/// var client = APIClient(baseURL: base)
/// client.responseCache = ResponseCache(LayeredCache(disk: disk), expiry: .after(7 * 24 * 3600))
/// ```
///
/// What is stored is the value's bytes exactly as the server sent them, after the HTTP and
/// envelope checks and a successful decode, with the response's validators and freshness
/// (`HTTPCacheInfo`, in the entry's metadata): a server refusal or unreadable data never
/// replaces a good cached value. ``expiry`` is how long an entry is kept at all; whether a kept
/// entry is fresh is the server's word, read by the client's cache policy.
///
/// Keys name the request's method, scheme, host, port and path, its query and form parameters
/// sorted by name (volatile ones left out) and a digest of a JSON or raw body: two clients for
/// two hosts never share entries, and the order parameters came in does not matter.
public struct ResponseCache: ResponseCaching {
    /// The parameter names left out of keys unless told otherwise:
    /// `timestamp`, `ts`, `nonce`, `sign`, `signature` and `_`.
    public static let defaultVolatileParameters: Set<String> = ["timestamp", "ts", "nonce", "sign", "signature", "_"]

    /// Where entries live.
    public var cache: any Cache
    /// Bump it when the shape of cached values changes: entries of other versions are misses.
    public var schemaVersion: Int
    /// How long stored entries stay usable.
    public var expiry: CacheExpiry
    /// Parameters left out of keys (timestamps, nonces, signatures), compared case-insensitively.
    public var volatileParameters: Set<String>
    /// Put in front of every key: a user id keeps two accounts' caches apart.
    public var namespace: String
    /// The time, for entry ages; replace it in tests.
    public var clock: CacheClock

    /// A response cache over `cache`.
    public init(
        _ cache: any Cache,
        schemaVersion: Int = 0,
        expiry: CacheExpiry = .never,
        volatileParameters: Set<String> = ResponseCache.defaultVolatileParameters,
        namespace: String = "",
        clock: CacheClock = .system
    ) {
        self.cache = cache
        self.schemaVersion = schemaVersion
        self.expiry = expiry
        self.volatileParameters = volatileParameters
        self.namespace = namespace
        self.clock = clock
    }

    public func cachedResponse(for request: CacheableRequest) async -> CachedResponse? {
        guard let entry = await cache.entry(forKey: key(for: request), schemaVersion: schemaVersion) else { return nil }
        let info = entry.metadata[Self.infoKey].flatMap { try? JSONDecoder().decode(HTTPCacheInfo.self, from: Data($0.utf8)) }
        return CachedResponse(data: entry.value, age: entry.age(at: clock.now()), info: info)
    }

    public func store(_ response: CachedResponse, for request: CacheableRequest) async {
        var metadata: [String: String] = [:]
        if let info = response.info, let encoded = try? JSONEncoder().encode(info) {
            metadata[Self.infoKey] = String(decoding: encoded, as: UTF8.self)
        }
        await cache.set(response.data, forKey: key(for: request), expiry: expiry, schemaVersion: schemaVersion, metadata: metadata)
    }

    /// The metadata entry that holds a response's ``HTTPCacheInfo``.
    static let infoKey = "http-cache"

    public func removeResponse(for request: CacheableRequest) async {
        await cache.remove(forKey: key(for: request))
    }

    /// The key `request` is stored under.
    ///
    /// ```swift
    /// // GET https://api.example.com/feed?b=2&a=1&nonce=x
    /// cache.key(for: request).rawValue   // "GET https://api.example.com/feed?a=1&b=2"
    /// ```
    public func key(for request: CacheableRequest) -> CacheKey {
        let volatile = Set(volatileParameters.map { $0.lowercased() })
        let kept = (request.queryItems + request.formFields)
            .filter { !volatile.contains($0.name.lowercased()) }
            .map { (Self.encode($0.name), $0.value.map(Self.encode)) }
            .sorted { lhs, rhs in
                if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
                return (lhs.1 ?? "") < (rhs.1 ?? "")
            }
        var raw = request.method.rawValue + " " + Self.location(of: request.url)
        if !kept.isEmpty {
            raw += "?" + kept.map { name, value in value.map { name + "=" + $0 } ?? name }.joined(separator: "&")
        }
        if let body = request.body {
            // Bodies take part as a digest: the same body is the same request.
            raw += "#" + Self.digest(body)
        }
        return CacheKey(namespace.isEmpty ? raw : namespace + "|" + raw)
    }

    /// Scheme, host, port and path, without query or fragment.
    static func location(of url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url.absoluteString }
        components.query = nil
        components.fragment = nil
        return components.string ?? url.absoluteString
    }

    /// Percent-encodes everything but unreserved characters, so `&`, `=` and `?` inside names
    /// and values cannot make two different requests collide.
    static func encode(_ string: String) -> String {
        string.addingPercentEncoding(withAllowedCharacters: unreserved) ?? string
    }

    private static let unreserved = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")

    /// The SHA-256 of a request body (Base64), for keys: two bodies never share an entry.
    static func digest(_ data: Data) -> String {
        Data(SHA256.hash(data: data)).base64EncodedString()
    }
}

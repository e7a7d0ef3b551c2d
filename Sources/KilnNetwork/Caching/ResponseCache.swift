import Foundation
import KilnCache

/// How an ``APIClient`` stores and finds responses: the cache, the key rules and the entries'
/// lifetime.
///
/// ```swift
/// let disk = DiskCache(directory: cachesFolder.appendingPathComponent("api"))
/// var client = APIClient(baseURL: base)
/// client.responseCache = ResponseCache(LayeredCache(disk: disk), expiry: .after(7 * 24 * 3600))
/// ```
///
/// What is stored is the envelope's `data`, after the HTTP and envelope checks and a successful
/// decode: a server refusal or unreadable data never replaces a good cached value.
public struct ResponseCache: Sendable {
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
        volatileParameters: Set<String> = CacheKey.defaultVolatileParameters,
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

    /// The key of `endpoint`: its method, path, query and form parameters, volatile ones left out,
    /// so two identical requests hit the same entry.
    public func key<Value>(for endpoint: Endpoint<Value>) -> CacheKey {
        var items = endpoint.query
        if case .form(let fields) = endpoint.body { items += fields }
        var key = CacheKey(method: endpoint.method.rawValue, path: endpoint.path, queryItems: items, volatileParameters: volatileParameters)
        if case .jsonData(let body) = endpoint.body {
            // JSON bodies take part as a digest: the same body is the same request.
            key = CacheKey(key.rawValue + "#" + Self.digest(body))
        }
        return namespace.isEmpty ? key : CacheKey(namespace + "|" + key.rawValue)
    }

    /// A short stable digest (FNV-1a, 64 bits) of a request body, for keys.
    static func digest(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}

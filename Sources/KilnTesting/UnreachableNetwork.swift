import Foundation
import KilnNetwork
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An interceptor that sends every request to an address where nothing answers, so calls fail
/// the way they do with no network while endpoints keep their own URLs — and so their
/// response-cache entries.
///
/// ```swift
/// var offline = client
/// offline.interceptors.append(UnreachableNetwork())
/// let cached = try await offline.send(.messages, policy: .networkElseCache)   // from the cache
/// ```
///
/// The default address is port 9 on loopback (the discard port, closed on ordinary machines):
/// the connection is refused at once. Pass the URL of a server you stopped to be sure.
public struct UnreachableNetwork: Interceptor {
    /// Where requests go instead: only its scheme, host and port are used.
    public var address: URL

    /// Sends requests to `address` instead of their own host.
    public init(address: URL = URL(string: "http://127.0.0.1:9") ?? URL(fileURLWithPath: "/")) {
        self.address = address
    }

    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        guard let url = request.url, var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return request }
        components.scheme = address.scheme
        components.host = address.host
        components.port = address.port
        var redirected = request
        redirected.url = components.url
        return redirected
    }
}

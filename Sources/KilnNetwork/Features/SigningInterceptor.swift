import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A hook that signs or encrypts each request just before it is sent.
///
/// Put it last in the interceptor list so it sees the final query, body and headers. It runs
/// again for every retry, so a signature over a timestamp stays fresh. (Multipart uploads stream
/// their body from a file: `httpBody` is `nil` there, so sign the query and headers.)
///
/// ```swift
/// import Crypto
///
/// let signing = SigningInterceptor { request in
///     var request = request
///     let message = (request.url?.query ?? "") + String(decoding: request.httpBody ?? Data(), as: UTF8.self)
///     let mac = HMAC<SHA256>.authenticationCode(for: Data(message.utf8), using: key)
///     request.setValue(Data(mac).base64EncodedString(), forHTTPHeaderField: "X-Signature")
///     return request
/// }
/// ```
public struct SigningInterceptor: Interceptor {
    private let transform: @Sendable (URLRequest) async throws -> URLRequest

    /// Creates the hook from a function that returns the signed (or encrypted) request.
    public init(_ transform: @escaping @Sendable (URLRequest) async throws -> URLRequest) {
        self.transform = transform
    }

    /// Applies the hook.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        try await transform(request)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Adds the same parameters to every request: public ones such as a `service_code`, and
/// per-request private ones (timestamps, device ids).
///
/// Where they go: the query string for requests without a body (GET, HEAD, DELETE) and for
/// multipart uploads; form fields for form bodies; top-level keys for JSON object bodies. A
/// parameter the endpoint already sets is left as the endpoint set it.
///
/// ```swift
/// let common = CommonParametersInterceptor(["service_code": "blog", "app_version": "2.1"])
/// let timed = CommonParametersInterceptor { ["ts": String(Int(Date().timeIntervalSince1970))] }
/// let client = APIClient(baseURL: url, interceptors: [common, timed])
/// ```
public struct CommonParametersInterceptor: Interceptor {
    private let provider: @Sendable () async throws -> [(String, String)]

    /// Adds fixed parameters, sorted by name.
    public init(_ parameters: [String: String]) {
        let sorted = parameters.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        self.provider = { sorted }
    }

    /// Adds parameters computed for each attempt, in the order returned.
    public init(_ provider: @escaping @Sendable () async throws -> [(String, String)]) {
        self.provider = provider
    }

    /// Adds the parameters to `request`.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        let parameters = try await provider()
        guard !parameters.isEmpty else { return request }
        var request = request
        let contentType = (request.value(forHTTPHeaderField: "Content-Type") ?? "").lowercased()
        if let body = request.httpBody, contentType.hasPrefix("application/x-www-form-urlencoded") {
            request.httpBody = Self.addingFormFields(parameters, to: body)
        } else if let body = request.httpBody, contentType.hasPrefix("application/json"),
            let merged = Self.addingJSONFields(parameters, to: body)
        {
            request.httpBody = merged
        } else if let url = request.url {
            request.url = Self.addingQueryItems(parameters, to: url)
        }
        return request
    }

    static func addingQueryItems(_ parameters: [(String, String)], to url: URL) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        let existing = Set((components.queryItems ?? []).map(\.name))
        let added = parameters.filter { !existing.contains($0.0) }
            .map { "\(RequestBody.formEscape($0.0))=\(RequestBody.formEscape($0.1))" }
        guard !added.isEmpty else { return url }
        components.percentEncodedQuery = ([components.percentEncodedQuery].compactMap { $0 } + added).joined(separator: "&")
        return components.url ?? url
    }

    static func addingFormFields(_ parameters: [(String, String)], to body: Data) -> Data {
        let text = String(decoding: body, as: UTF8.self)
        let existing = Set(
            text.split(separator: "&").compactMap { $0.split(separator: "=", maxSplits: 1).first }
                .map { String($0).removingPercentEncoding ?? String($0) })
        let added = parameters.filter { !existing.contains($0.0) }.map { URLQueryItem(name: $0.0, value: $0.1) }
        guard !added.isEmpty else { return body }
        let extra = RequestBody.encodeForm(added)
        return text.isEmpty ? extra : body + Data("&".utf8) + extra
    }

    static func addingJSONFields(_ parameters: [(String, String)], to body: Data) -> Data? {
        guard var object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any] else { return nil }
        for (name, value) in parameters where object[name] == nil {
            object[name] = value
        }
        return try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])
    }
}

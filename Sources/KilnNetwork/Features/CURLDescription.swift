import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// The request as a `curl` command line: method, URL, headers and a UTF-8 body, each quoted
    /// for a POSIX shell, so that pasting it into a terminal sends the same request.
    ///
    /// ```swift
    /// print(request.cURLDescription)
    /// // curl -X POST 'https://api.example.com/articles?page=1' \
    /// //   -H 'Content-Type: application/json' \
    /// //   --data-binary '{"title":"Hello"}'
    /// ```
    ///
    /// A body that is not UTF-8 text, or one streamed from a file, is named in a comment line
    /// instead of written out. Headers the URL Loading System adds on its own (cookies, `Accept-Encoding`) are not shown.
    public var cURLDescription: String {
        var command = "curl"
        let method = httpMethod?.uppercased() ?? "GET"
        switch method {
        case "GET" where httpBody == nil: break
        case "HEAD": command += " --head"
        default: command += " -X \(method)"
        }
        var parts = [command + " " + Self.shellQuoted(url?.absoluteString ?? "")]
        for (name, value) in (allHTTPHeaderFields ?? [:]).sorted(by: { $0.key.lowercased() < $1.key.lowercased() }) {
            parts.append("-H " + Self.shellQuoted("\(name): \(value)"))
        }
        if let body = httpBody, !body.isEmpty {
            if let text = String(data: body, encoding: .utf8) {
                parts.append("--data-binary " + Self.shellQuoted(text))
            } else {
                parts.append("# body: \(body.count) bytes, not UTF-8 text")
            }
        } else if httpBodyStream != nil {
            parts.append("# body: streamed, not shown")
        }
        return parts.joined(separator: " \\\n  ")
    }

    /// `text` in single quotes, with each single quote written as `'\''`.
    static func shellQuoted(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }
}

extension APIClient {
    /// The request `endpoint` would send on its first attempt, after the interceptors adapted it,
    /// as a `curl` command line (see `URLRequest.cURLDescription`).
    ///
    /// Interceptors run as for a real call: a signing interceptor signs, an auth interceptor may
    /// fetch a token. Nothing is sent.
    ///
    /// ```swift
    /// print(try await client.cURLDescription(for: .articles(page: 1)))
    /// ```
    public func cURLDescription<Value>(for endpoint: Endpoint<Value>) async throws(APIError) -> String {
        do {
            var request = try makeRequest(for: endpoint)
            let context = RequestContext(
                method: endpoint.method, path: endpoint.path, isRetrySafe: endpoint.isRetrySafe, attempt: 1, kind: .data)
            for interceptor in interceptors {
                request = try await interceptor.adapt(request, context: context)
            }
            return request.cURLDescription
        } catch {
            throw APIError(error)
        }
    }
}

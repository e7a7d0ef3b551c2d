import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Logs one line per attempt through swift-log: method, path, status and duration, never secrets.
///
/// Query values and headers named in ``redactedKeys`` (and always `Authorization`) are shown as
/// `<redacted>`. Headers are logged at `.trace` only.
///
/// ```swift
/// LoggingInterceptor(logger: Logger(label: "kiln.api"), redactedKeys: ["token", "sign"])
/// // info: GET /messages?page=1&token=<redacted> → 200 in 12 ms
/// ```
public struct LoggingInterceptor: Interceptor {
    /// Where the lines go.
    public var logger: Logger
    /// Names (case-insensitive) of query items and headers whose values are never logged.
    public var redactedKeys: Set<String>

    /// Creates the interceptor.
    public init(logger: Logger, redactedKeys: Set<String> = ["token", "access_token", "password", "sign", "signature"]) {
        self.logger = logger
        self.redactedKeys = Set((redactedKeys.union(["authorization", "cookie", "proxy-authorization"])).map { $0.lowercased() })
    }

    /// Logs the attempt.
    public func didComplete(_ request: URLRequest, outcome: AttemptOutcome, context: RequestContext) async {
        let milliseconds = Int(outcome.duration / .milliseconds(1))
        let target = redactedTarget(of: request) ?? context.path
        let method = request.httpMethod ?? context.method.rawValue
        let attempt = context.attempt > 1 ? " (attempt \(context.attempt))" : ""
        if let error = outcome.error {
            let status = outcome.response.map { "\($0.status)" } ?? "failed"
            logger.warning("\(method) \(target) → \(status) in \(milliseconds) ms\(attempt): \(error)")
        } else {
            logger.info("\(method) \(target) → \(outcome.response?.status ?? 0) in \(milliseconds) ms\(attempt)")
        }
        if logger.logLevel <= .trace {
            let headers = (request.allHTTPHeaderFields ?? [:]).sorted { $0.key < $1.key }
                .map { "\($0.key): \(isRedacted($0.key) ? "<redacted>" : $0.value)" }
            logger.trace("headers: \(headers.joined(separator: "; "))")
        }
    }

    /// Path and query of the request with redacted values replaced.
    func redactedTarget(of request: URLRequest) -> String? {
        guard let url = request.url, let components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return nil }
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        guard let items = components.queryItems, !items.isEmpty else { return path }
        let query = items.map { "\($0.name)=\(isRedacted($0.name) ? "<redacted>" : ($0.value ?? ""))" }
        return path + "?" + query.joined(separator: "&")
    }

    func isRedacted(_ name: String) -> Bool {
        redactedKeys.contains(name.lowercased())
    }
}

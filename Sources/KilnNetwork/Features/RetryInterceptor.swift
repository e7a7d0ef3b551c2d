import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Retries retry-safe requests after transport failures and after 5xx/429 answers, waiting with
/// exponential backoff and jitter, and honouring `Retry-After`.
///
/// Requests whose endpoint is not retry-safe (POST by default) are never retried. Delays go
/// through the client's `sleep`, so tests can make them instant.
///
/// ```swift
/// let retry = RetryInterceptor(policy: RetryPolicy(maxRetries: 3, baseDelay: .milliseconds(200)))
/// let client = APIClient(baseURL: url, interceptors: [retry])
/// ```
public struct RetryInterceptor: Interceptor {
    /// When and how long to wait.
    public var policy: RetryPolicy

    /// Creates the interceptor.
    public init(policy: RetryPolicy = RetryPolicy()) {
        self.policy = policy
    }

    /// Asks for a retry with a delay when the failure is retryable and retries remain.
    public func retry(_ request: URLRequest, failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
        guard context.isRetrySafe, context.attempt <= policy.maxRetries, policy.isRetryable(failure.error) else {
            return .doNotRetry
        }
        let retryAfter = failure.response?.header("Retry-After").flatMap(RetryPolicy.parseRetryAfter)
        return .retryAfter(policy.delay(forRetry: context.attempt, retryAfter: retryAfter))
    }
}

/// The numbers behind ``RetryInterceptor``.
public struct RetryPolicy: Sendable {
    /// Retries after the first attempt (so at most `maxRetries + 1` attempts).
    public var maxRetries: Int
    /// The wait before the first retry; doubled (times ``multiplier``) for each further one.
    public var baseDelay: Duration
    /// Growth factor between retries.
    public var multiplier: Double
    /// The longest wait, including one asked for by `Retry-After`.
    public var maxDelay: Duration
    /// Fraction of the delay that is random, in `0...1` (0.5: between 50% and 100% of it).
    public var jitter: Double
    /// HTTP statuses that are retried.
    public var retryableStatuses: Set<Int>
    /// Transport failures that are retried.
    public var retryableReasons: Set<TransportError.Reason>

    /// Creates a policy.
    public init(
        maxRetries: Int = 2,
        baseDelay: Duration = .milliseconds(300),
        multiplier: Double = 2,
        maxDelay: Duration = .seconds(10),
        jitter: Double = 0.5,
        retryableStatuses: Set<Int> = [408, 429, 500, 502, 503, 504],
        retryableReasons: Set<TransportError.Reason> = [.timedOut, .connectionLost, .cannotConnect, .offline, .cannotFindHost]
    ) {
        self.maxRetries = maxRetries
        self.baseDelay = baseDelay
        self.multiplier = multiplier
        self.maxDelay = maxDelay
        self.jitter = min(max(jitter, 0), 1)
        self.retryableStatuses = retryableStatuses
        self.retryableReasons = retryableReasons
    }

    /// Whether a failure is worth another attempt.
    public func isRetryable(_ error: APIError) -> Bool {
        switch error {
        case .http(let status, _): retryableStatuses.contains(status)
        case .transport(let failure): retryableReasons.contains(failure.reason)
        default: false
        }
    }

    /// The wait before retry number `retry` (1 for the first retry).
    public func delay(forRetry retry: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter { return min(retryAfter, maxDelay) }
        let exponential = baseDelay * pow(multiplier, Double(max(retry - 1, 0)))
        let capped = min(exponential, maxDelay)
        let factor = 1 - jitter * Double.random(in: 0...1)
        return capped * factor
    }

    /// Parses `Retry-After` as seconds or as an HTTP date.
    public static func parseRetryAfter(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        if let seconds = Double(trimmed), seconds >= 0 { return .milliseconds(Int64(seconds * 1000)) }
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: trimmed) else { return nil }
        return .milliseconds(Int64(max(0, date.timeIntervalSinceNow) * 1000))
    }
}

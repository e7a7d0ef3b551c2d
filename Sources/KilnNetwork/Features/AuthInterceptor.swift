import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Holds the current access token and refreshes it at most once for any number of requests that
/// find it expired at the same time.
///
/// ```swift
/// let session = AuthSession(token: storedToken) {
///     try await authClient.send(.refresh(refreshToken)).accessToken
/// }
/// let client = APIClient(baseURL: url, interceptors: [AuthInterceptor(session: session)])
/// ```
public actor AuthSession {
    private var token: String?
    private var refreshing: Task<String, any Error>?
    private let refresh: @Sendable () async throws -> String
    /// How many refreshes have completed successfully.
    public private(set) var refreshCount = 0

    /// Creates a session.
    ///
    /// - Parameters:
    ///   - token: the token to start with, if one is stored.
    ///   - refresh: fetches a new token; called once per expiry, however many requests wait.
    public init(token: String?, refresh: @escaping @Sendable () async throws -> String) {
        self.token = token
        self.refresh = refresh
    }

    /// The token to send now, refreshing first if there is none.
    public func currentToken() async throws -> String {
        if let refreshing { return try await refreshing.value }
        if let token { return token }
        return try await refreshToken(replacing: nil)
    }

    /// Replaces `rejected` with a fresh token. When another request already replaced it, returns
    /// the replacement without refreshing again; concurrent callers share one refresh.
    public func refreshToken(replacing rejected: String?) async throws -> String {
        try await refreshToken(rejectedIf: { $0 == rejected })
    }

    /// Refreshes unless the current token is not the rejected one (`isRejected` returns `false`
    /// for it), in which case another request already refreshed and that token is returned.
    public func refreshToken(rejectedIf isRejected: @Sendable (String) -> Bool) async throws -> String {
        if let refreshing { return try await refreshing.value }
        if let token, !isRejected(token) { return token }
        let task = Task { [refresh] in try await refresh() }
        refreshing = task
        defer { refreshing = nil }
        do {
            let fresh = try await task.value
            token = fresh
            refreshCount += 1
            return fresh
        } catch {
            token = nil
            throw error
        }
    }

    /// Sets the token (after a login) or clears it (after a logout).
    public func setToken(_ token: String?) {
        self.token = token
    }
}

/// Sends `Authorization: Bearer <token>` and, when the server answers 401, refreshes the token
/// once (shared by every request that got the 401) and tries the request again.
///
/// A request is retried after a 401 at most ``maxRefreshes`` times. If the refresh itself fails,
/// the request fails with its 401.
///
/// ```swift
/// let auth = AuthInterceptor(session: AuthSession(token: nil) { try await login() })
/// ```
public struct AuthInterceptor: Interceptor {
    /// The shared token holder.
    public let session: AuthSession
    /// The header the token goes in.
    public var header: String
    /// Builds the header value from the token.
    public var format: @Sendable (String) -> String
    /// How many 401s one call may recover from.
    public var maxRefreshes: Int

    /// Creates the interceptor.
    public init(
        session: AuthSession,
        header: String = "Authorization",
        maxRefreshes: Int = 1,
        format: @escaping @Sendable (String) -> String = { "Bearer \($0)" }
    ) {
        self.session = session
        self.header = header
        self.format = format
        self.maxRefreshes = maxRefreshes
    }

    /// Adds the current token.
    public func adapt(_ request: URLRequest, context: RequestContext) async throws -> URLRequest {
        var request = request
        request.setValue(format(try await session.currentToken()), forHTTPHeaderField: header)
        return request
    }

    /// Refreshes and retries after a 401.
    public func retry(_ request: URLRequest, failure: AttemptFailure, context: RequestContext) async -> RetryDecision {
        guard case .http(401, _) = failure.error else { return .doNotRetry }
        let unauthorized = failure.history.filter { if case .http(401, _) = $0 { true } else { false } }.count
        guard unauthorized <= maxRefreshes else { return .doNotRetry }
        let sent = request.value(forHTTPHeaderField: header)
        let format = format
        do {
            _ = try await session.refreshToken(rejectedIf: { format($0) == sent })
            return .retry
        } catch {
            return .doNotRetry
        }
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request for credentials during a request: an HTTP authentication scheme (Basic, Digest…)
/// asking who you are, or (on Apple platforms) the server's certificate asking to be trusted.
///
/// ``URLSessionTransport`` hands each one to its ``ChallengeResponder``. The default responder
/// rejects HTTP authentication, so a `401` reaches the client as a response (and an
/// ``AuthInterceptor`` can refresh a token), and leaves server trust to the system.
public struct AuthenticationChallenge: Sendable, Hashable {
    /// What the challenge asks for.
    public enum Kind: Sendable, Hashable {
        /// HTTP Basic authentication.
        case basic
        /// HTTP Digest authentication.
        case digest
        /// NTLM or Negotiate (Kerberos) authentication.
        case windows
        /// A client certificate.
        case clientCertificate
        /// The server's certificate, to be trusted or not (Apple platforms).
        case serverTrust
        /// Another scheme, by its authentication method name.
        case other(String)
    }

    /// What is asked for.
    public var kind: Kind
    /// The host that asks.
    public var host: String
    /// The port of that host.
    public var port: Int
    /// The realm the server named, if any.
    public var realm: String?
    /// How many answers to this challenge already failed during this request.
    public var previousFailureCount: Int

    /// Describes a challenge.
    public init(kind: Kind, host: String, port: Int, realm: String? = nil, previousFailureCount: Int = 0) {
        self.kind = kind
        self.host = host
        self.port = port
        self.realm = realm
        self.previousFailureCount = previousFailureCount
    }

    /// The kind of a URL Loading System authentication method.
    static func kind(of method: String) -> Kind {
        switch method {
        case NSURLAuthenticationMethodHTTPBasic: return .basic
        case NSURLAuthenticationMethodHTTPDigest: return .digest
        case NSURLAuthenticationMethodNTLM, NSURLAuthenticationMethodNegotiate: return .windows
        default: break
        }
        #if canImport(FoundationNetworking)
        // Linux's Foundation has no certificate or server-trust challenges (TLS is libcurl's).
        return .other(method)
        #else
        switch method {
        case NSURLAuthenticationMethodClientCertificate: return .clientCertificate
        case NSURLAuthenticationMethodServerTrust: return .serverTrust
        default: return .other(method)
        }
        #endif
    }

    init(_ challenge: URLAuthenticationChallenge) {
        let space = challenge.protectionSpace
        self.init(
            kind: Self.kind(of: space.authenticationMethod),
            host: space.host, port: space.port, realm: space.realm, previousFailureCount: challenge.previousFailureCount)
    }
}

/// How to answer an ``AuthenticationChallenge``.
public enum ChallengeAnswer: Sendable, Hashable {
    /// Sign in with a user and password (Basic, Digest, NTLM), for this request only.
    ///
    /// On Linux, Foundation's URLSession can send Basic credentials only: a credential for any
    /// other scheme is handled as ``reject``, so the `401` arrives as a response.
    case credential(user: String, password: String)
    /// Decline: the server's answer (usually `401`) reaches the client as a response.
    case reject
    /// Let the system decide, as if no one were asked (for server trust: its usual evaluation).
    case performDefaultHandling
    /// Stop the request: it fails with a transport error.
    case cancel
}

/// Answers the authentication challenges of a ``URLSessionTransport``.
///
/// ```swift
/// let transport = URLSessionTransport(challenges: ChallengeResponder { challenge in
///     guard challenge.kind == .basic || challenge.kind == .digest,
///           challenge.host == "api.example.com", challenge.previousFailureCount == 0
///     else { return ChallengeResponder.standard.answer(challenge) }
///     return .credential(user: keychain.user, password: keychain.password)
/// })
/// ```
///
/// A credential that already failed is offered again only if the responder says so: answer
/// `.reject` when ``AuthenticationChallenge/previousFailureCount`` is above zero, or the server
/// and the client ask and answer forever.
public struct ChallengeResponder: Sendable {
    /// Gives the answer to one challenge.
    public var answer: @Sendable (AuthenticationChallenge) -> ChallengeAnswer

    /// A responder that answers with `answer`.
    public init(_ answer: @escaping @Sendable (AuthenticationChallenge) -> ChallengeAnswer) {
        self.answer = answer
    }

    /// Rejects every HTTP authentication (the `401` becomes the client's to handle) and leaves
    /// server trust and client certificates to the system.
    public static let standard = ChallengeResponder { challenge in
        switch challenge.kind {
        case .serverTrust, .clientCertificate: .performDefaultHandling
        case .basic, .digest, .windows, .other: .reject
        }
    }

    /// Signs in with `user` and `password` when `host` asks by Basic or Digest authentication,
    /// once per request; everything else as ``standard``.
    public static func credential(user: String, password: String, for host: String) -> ChallengeResponder {
        ChallengeResponder { challenge in
            guard challenge.kind == .basic || challenge.kind == .digest, challenge.host == host else {
                return standard.answer(challenge)
            }
            return challenge.previousFailureCount == 0 ? .credential(user: user, password: password) : .reject
        }
    }

    /// What URLSession is told for `answer`. A `.credential` answer to a challenge that takes no
    /// password (server trust, client certificates) is handled as `.performDefaultHandling`.
    static func disposition(for answer: ChallengeAnswer, challenge: AuthenticationChallenge) -> (URLSession.AuthChallengeDisposition, URLCredential?) {
        switch answer {
        case .credential(let user, let password):
            switch challenge.kind {
            case .basic, .digest, .windows, .other:
                return (.useCredential, URLCredential(user: user, password: password, persistence: .none))
            case .serverTrust, .clientCertificate:
                return (.performDefaultHandling, nil)
            }
        case .reject: return (.rejectProtectionSpace, nil)
        case .performDefaultHandling: return (.performDefaultHandling, nil)
        case .cancel: return (.cancelAuthenticationChallenge, nil)
        }
    }
}

import Foundation
import KilnModel
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a call failed. Every call ends in a value or exactly one of these.
///
/// ```swift
/// do throws(APIError) {
///     let messages = try await client.send(.messages(page: 1))
///     show(messages)
/// } catch .server(let code, let message) {
///     showAlert(message)                       // the server answered and said no
/// } catch .transport(let failure) where failure.reason == .offline {
///     showOfflineBanner()
/// } catch {
///     showAlert(error.localizedDescription)
/// }
/// ```
public enum APIError: Error, Sendable, Hashable {
    /// The server answered and said no: the envelope's code is not a success code. An error
    /// status whose body is the API's envelope with a failure code (`400 {"code": "1001", …}`)
    /// ends here too, with the server's own code and message.
    case server(code: String, message: String)
    /// The server answered with an HTTP status outside 200–299 and no refusal in the API's
    /// envelope. `body` is what it sent (at most 64 KiB); ``serverMessage`` and ``problem`` read
    /// a JSON error body (RFC 9457 problem details, `{"message": …}`, `{"error": …}`).
    case http(status: Int, body: Data)
    /// The request never got a complete answer: offline, refused, timed out, TLS, connection lost.
    case transport(TransportError)
    /// The answer arrived but could not be turned into the expected type.
    ///
    /// `path` is where decoding stopped (for example `data.list.3.id`); `repairs` is what the
    /// tolerant decoder repaired before it gave up.
    case decoding(path: String, repairs: [Repair])
    /// The caller cancelled the call (its task was cancelled).
    case cancelled
    /// A `.cacheOnly` call found nothing usable in the cache (absent, expired, or written with
    /// another schema version).
    case notCached
}

/// A network-level failure, with a typed reason.
public struct TransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of network failure this was.
    public enum Reason: String, Sendable, Hashable {
        /// The device has no network connection.
        case offline
        /// The host was found but refused or could not accept the connection.
        case cannotConnect
        /// The host name could not be resolved.
        case cannotFindHost
        /// No data arrived within the request's timeout.
        case timedOut
        /// The TLS handshake or certificate check failed.
        case secureConnection
        /// The connection closed before the full response arrived.
        case connectionLost
        /// The request could not be built (a malformed URL or an unreadable body).
        case invalidRequest
        /// A local file for an upload or download could not be read or written.
        case localFile
        /// Any other failure.
        case other
    }

    /// The kind of failure.
    public var reason: Reason
    /// The underlying error's description, for logs.
    public var detail: String
    /// The underlying `URLError` code, if there was one.
    public var code: Int?

    /// Creates a transport error.
    public init(_ reason: Reason, detail: String = "", code: Int? = nil) {
        self.reason = reason
        self.detail = detail
        self.code = code
    }

    /// A sentence a person can read.
    public var description: String {
        let base: String =
            switch reason {
            case .offline: "You appear to be offline."
            case .cannotConnect: "Could not connect to the server."
            case .cannotFindHost: "The server could not be found."
            case .timedOut: "The request timed out."
            case .secureConnection: "A secure connection to the server could not be made."
            case .connectionLost: "The network connection was lost before the response was complete."
            case .invalidRequest: "The request could not be built."
            case .localFile: "A local file could not be read or written."
            case .other: "The network request failed."
            }
        return detail.isEmpty ? base : "\(base) (\(detail))"
    }
}

extension APIError: LocalizedError, CustomStringConvertible {
    /// A sentence a person can read.
    public var errorDescription: String? { description }

    /// A sentence a person can read: what happened and, where it helps, what to do.
    public var description: String {
        switch self {
        case .server(let code, let message):
            message.isEmpty ? "The server refused the request (code \(code))." : "\(message) (code \(code))"
        case .http(let status, _):
            if let message = serverMessage {
                "HTTP \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status))): \(message)"
            } else {
                "The server answered with HTTP \(status) (\(HTTPURLResponse.localizedString(forStatusCode: status)))."
            }
        case .transport(let failure):
            failure.description
        case .decoding(let path, let repairs):
            "The response could not be read at \(path.isEmpty ? "the top level" : "‘\(path)’")"
                + (repairs.isEmpty ? "." : " (after \(repairs.count) repair\(repairs.count == 1 ? "" : "s")).")
        case .cancelled:
            "The request was cancelled."
        case .notCached:
            "Nothing is saved for this yet; connect to load it."
        }
    }

    /// Whether the failure was a transport failure of the given reason.
    public func isTransport(_ reason: TransportError.Reason) -> Bool {
        if case .transport(let failure) = self { return failure.reason == reason }
        return false
    }

    /// Maps any error thrown below the client to the case that names its cause.
    init(_ error: any Error) {
        switch error {
        case let error as APIError:
            self = error
        case is CancellationError:
            self = .cancelled
        case let error as URLError:
            self = APIError(urlError: error)
        case let error as TransportError:
            self = .transport(error)
        case let error as DecodingError:
            self = .decoding(path: Self.path(of: error), repairs: [])
        default:
            let nsError = error as NSError
            // `Code(rawValue:)` is failable on Linux only; the optional binding covers both.
            let urlCode: URLError.Code? = URLError.Code(rawValue: nsError.code)
            if nsError.domain == NSURLErrorDomain, let urlCode {
                self = APIError(urlError: URLError(urlCode))
            } else if nsError.domain == NSCocoaErrorDomain || nsError.domain == NSPOSIXErrorDomain {
                self = .transport(TransportError(.localFile, detail: String(describing: error)))
            } else {
                self = .transport(TransportError(.other, detail: String(describing: error)))
            }
        }
    }

    init(urlError: URLError) {
        let reason: TransportError.Reason
        switch urlError.code {
        case .cancelled:
            self = .cancelled
            return
        case .notConnectedToInternet, .dataNotAllowed, .internationalRoamingOff:
            reason = .offline
        case .cannotConnectToHost:
            reason = .cannotConnect
        case .cannotFindHost, .dnsLookupFailed:
            reason = .cannotFindHost
        case .timedOut:
            reason = .timedOut
        case .secureConnectionFailed, .serverCertificateHasBadDate, .serverCertificateUntrusted,
            .serverCertificateHasUnknownRoot, .serverCertificateNotYetValid,
            .clientCertificateRejected, .clientCertificateRequired, .appTransportSecurityRequiresSecureConnection:
            reason = .secureConnection
        case .networkConnectionLost, .badServerResponse, .cannotParseResponse, .zeroByteResource,
            .cannotDecodeRawData, .cannotDecodeContentData:
            reason = .connectionLost
        case .badURL, .unsupportedURL:
            reason = .invalidRequest
        case .cannotCreateFile, .cannotOpenFile, .cannotWriteToFile, .cannotMoveFile, .cannotRemoveFile,
            .fileDoesNotExist, .fileIsDirectory, .noPermissionsToReadFile:
            reason = .localFile
        default:
            reason = .other
        }
        self = .transport(TransportError(reason, detail: "URLError \(urlError.code.rawValue)", code: urlError.code.rawValue))
    }

    /// The dotted coding path a `DecodingError` stopped at.
    static func path(of error: DecodingError) -> String {
        let context: DecodingError.Context
        var last: String?
        switch error {
        case .typeMismatch(_, let c), .valueNotFound(_, let c): context = c
        case .keyNotFound(let key, let c):
            context = c
            last = key.intValue.map(String.init) ?? key.stringValue
        case .dataCorrupted(let c): context = c
        @unknown default: return ""
        }
        let components = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue } + (last.map { [$0] } ?? [])
        return components.joined(separator: ".")
    }
}

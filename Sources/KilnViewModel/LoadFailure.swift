import Foundation
import KilnModel
import KilnNetwork

/// Why a load failed, in the terms a view needs: the server refused, the network failed, or the
/// answer could not be used.
///
/// Besides success, the outcomes a screen shows are "the server says: …" and "you are offline". A view tells
/// them apart without knowing about HTTP or envelopes:
///
/// ```swift
/// switch list.failure {
/// case .server(_, let message)?: banner("The server says: \(message)")
/// case .network?:                banner("You are offline. Pull to retry.")
/// case let other?:               banner(other.description)
/// case nil:                      break
/// }
/// ```
///
/// Cancellation is not a failure: a cancelled load leaves the state it replaced.
public enum LoadFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The server answered and said no (the envelope's code was not a success code).
    case server(code: String, message: String)
    /// The request never got a complete answer: offline, timed out, refused, TLS, connection lost.
    case network(TransportError)
    /// The server answered with an HTTP status outside 200–299.
    case http(status: Int)
    /// The answer arrived but could not be read as the expected type; `path` is where reading stopped.
    case unreadable(path: String)
    /// The load asked for saved data only (a `.cacheOnly` policy) and nothing usable was saved:
    /// show an empty state that invites going online, not an error.
    case notCached
    /// Any other error a custom loader threw; `description` is that error's description.
    case other(String)

    /// Classifies any error a loader throws. `APIError` cases map one to one (a cancelled call,
    /// which views never show, becomes ``other(_:)``); a `TransportError` is a network failure;
    /// a `ModelDecodingError` or a `DecodingError` (from a loader that decodes bytes itself) is
    /// ``unreadable(path:)``; anything else is ``other(_:)``.
    public init(_ error: any Error) {
        switch error {
        case let failure as LoadFailure:
            self = failure
        case let error as APIError:
            switch error {
            case .server(let code, let message): self = .server(code: code, message: message)
            case .http(let status, _): self = .http(status: status)
            case .transport(let transport): self = .network(transport)
            case .decoding(let path, _): self = .unreadable(path: path)
            case .notCached: self = .notCached
            case .cancelled: self = .other(error.description)
            }
        case let transport as TransportError:
            self = .network(transport)
        case let decoding as ModelDecodingError:
            // A custom loader that decodes bytes itself (``DisplayList``, for one).
            self = .unreadable(path: decoding.path)
        case let decoding as DecodingError:
            // Foundation's, from a loader that decodes with `JSONDecoder`.
            self = .unreadable(path: Self.path(of: decoding))
        default:
            self = .other(String(describing: error))
        }
    }

    /// Where a `DecodingError` stopped, as `data.list.3.id`.
    private static func path(of error: DecodingError) -> String {
        let codingPath: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            codingPath = context.codingPath
        case .keyNotFound(let key, let context):
            codingPath = context.codingPath + [key]
        @unknown default:
            codingPath = []
        }
        return codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    /// Whether the server answered and refused (show its message).
    public var isServerRefusal: Bool {
        if case .server = self { true } else { false }
    }

    /// Whether the network failed (show "you are offline" and offer a retry).
    public var isNetworkFailure: Bool {
        if case .network = self { true } else { false }
    }

    /// A sentence a person can read: the server's own message for a refusal.
    public var description: String {
        switch self {
        case .server(let code, let message): message.isEmpty ? "The server refused the request (code \(code))." : message
        case .network(let transport): transport.description
        case .http(let status): "The server answered with HTTP \(status)."
        case .unreadable(let path): "The server's answer could not be read\(path.isEmpty ? "" : " at ‘\(path)’")."
        case .notCached: APIError.notCached.description
        case .other(let text): text
        }
    }

    /// Whether `error` means the work was cancelled (and so is no failure to show).
    static func isCancellation(_ error: any Error) -> Bool {
        if error is CancellationError { return true }
        if let error = error as? APIError, case .cancelled = error { return true }
        return false
    }
}

import Foundation
import KilnModel

/// What a server said in the body of an error answer (`4xx`/`5xx`), read from the JSON shapes
/// public APIs use.
///
/// - RFC 9457 problem details (`application/problem+json`): `type`, `title`, `status`, `detail`,
///   `instance`, and any extension members.
/// - `{"message": "…"}` (GitHub, Stripe's inner object, many others), `{"error": "…"}`,
///   `{"error": {"message": "…"}}`, `{"error_description": "…"}` (OAuth 2.0) and
///   `{"errors": [{"message": "…"}]}` (GraphQL, JSON:API's `detail`).
///
/// ```swift
/// do throws(APIError) {
///     _ = try await client.send(Endpoint<User>.get("/users/42"))
/// } catch {
///     print(error)                  // HTTP 404 (not found): User 42 does not exist.
///     if let problem = error.problem {
///         show(problem.title ?? "Error", problem.detail)      // RFC 9457 fields
///     }
/// }
/// ```
///
/// A body that is not JSON, or JSON of another shape, has no message; its bytes stay in
/// ``APIError/http(status:body:)`` for an app that knows its format
/// (``APIError/decodeBody(as:using:)``).
public struct ErrorBody: Sendable, Hashable {
    /// The whole body, as read.
    public var json: JSONValue

    /// Reads an error body; `nil` when it is not a JSON object.
    public init?(_ body: Data) {
        guard !body.isEmpty, let document = try? JSONDocument(parsing: body), case .object = document.value else { return nil }
        self.json = document.value
    }

    /// The server's own sentence for the failure: a problem's `detail` (else its `title`), or the
    /// `message`, `error`, `error_description` or first `errors[].message` member; `nil` when
    /// the body has none.
    public var message: String? {
        if let detail = text("detail") { return detail }
        if let message = text("message") { return message }
        if let error = text("error_description") { return error }
        switch json["error"] {
        case .string(let error) where !error.isEmpty: return error
        case .object: if let message = Self.text(json["error"]["message"]) { return message }
        default: break
        }
        if case .array(let errors) = json["errors"], let first = errors.first {
            if let message = Self.text(first["message"]) ?? Self.text(first["detail"]) ?? Self.text(first) { return message }
        }
        return text("title")
    }

    /// The body as RFC 9457 problem details, when it has at least one of their members
    /// (`type`, `title`, `detail`, `status`, `instance`).
    public var problem: ProblemDetails? {
        let members = ["type", "title", "detail", "status", "instance"]
        guard members.contains(where: { json[$0] != .null }) else { return nil }
        return ProblemDetails(json)
    }

    private func text(_ key: String) -> String? { Self.text(json[key]) }

    private static func text(_ value: JSONValue) -> String? {
        guard case .string(let string) = value else { return nil }
        let trimmed = string.trimmingCharacters(in: .whitespacesAndNewlines)
        return trimmed.isEmpty ? nil : trimmed
    }
}

/// An error answer in the RFC 9457 format (`application/problem+json`).
///
/// ```json
/// {"type": "https://example.com/probs/out-of-credit", "title": "You do not have enough credit.",
///  "status": 403, "detail": "Your current balance is 30, but that costs 50.", "balance": 30}
/// ```
public struct ProblemDetails: Sendable, Hashable {
    /// A URI reference that identifies the problem type; `about:blank` when absent.
    public var type: String
    /// A short summary of the problem type.
    public var title: String?
    /// The HTTP status the server gave, as written in the body.
    public var status: Int?
    /// An explanation specific to this occurrence.
    public var detail: String?
    /// A URI reference for this occurrence.
    public var instance: String?
    /// The whole object, extension members included (`problem.members["balance"]`).
    public var members: JSONValue

    /// Reads problem details from a JSON object; members of the wrong type are left out, as the
    /// RFC asks.
    public init(_ json: JSONValue) {
        func string(_ key: String) -> String? {
            if case .string(let value) = json[key] { return value }
            return nil
        }
        type = string("type") ?? "about:blank"
        title = string("title")
        detail = string("detail")
        instance = string("instance")
        switch json["status"] {
        case .int(let value): status = Int(exactly: value)
        case .double(let value): status = Int(exactly: value)
        default: status = nil
        }
        members = json
    }
}

extension APIError {
    /// The JSON body of an error status (``http(status:body:)``), if it was a JSON object.
    public var errorBody: ErrorBody? {
        guard case .http(_, let body) = self else { return nil }
        return ErrorBody(body)
    }

    /// What the server said: the message of a JSON error body (see ``ErrorBody/message``), or
    /// the message of a refusal in the API's envelope (``server(code:message:)``).
    public var serverMessage: String? {
        switch self {
        case .server(_, let message): message.isEmpty ? nil : message
        default: errorBody?.message
        }
    }

    /// The RFC 9457 problem details of an error status, when the server sent them.
    public var problem: ProblemDetails? { errorBody?.problem }

    /// Decodes the body of an error status into a type of the app's own; `nil` for other errors
    /// or a body that does not decode.
    ///
    /// ```swift
    /// struct StripeError: Decodable { struct Inner: Decodable { var code: String?; var message: String? }; var error: Inner }
    /// let code = error.decodeBody(as: StripeError.self)?.error.code
    /// ```
    public func decodeBody<Body: Decodable>(as type: Body.Type, using decoder: KilnDecoder = KilnDecoder()) -> Body? {
        guard case .http(_, let body) = self else { return nil }
        return try? decoder.decode(Body.self, from: body)
    }
}

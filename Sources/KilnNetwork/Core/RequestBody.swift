import Foundation

/// What an ``Endpoint`` sends as its request body.
///
/// ```swift
/// // JSON from any Encodable parameter model
/// let body = try RequestBody.json(LoginParameters(user: "ada", password: "…"))
/// // A form body
/// let form = RequestBody.form([("page", "1"), ("size", "20")])
/// ```
public enum RequestBody: Sendable {
    /// No body.
    case none
    /// A JSON document, already encoded. Sent as `application/json`.
    case jsonData(Data)
    /// URL-encoded form fields, in order. Sent as `application/x-www-form-urlencoded`.
    case form([URLQueryItem])
    /// Several parts of different kinds. Built into a temporary file and streamed.
    case multipart(MultipartFormData)
    /// Bytes with a content type of your choice.
    case raw(Data, contentType: String)

    /// A JSON body encoded from `value`.
    ///
    /// - Throws: the encoder's `EncodingError`, before any request is made.
    public static func json<T: Encodable>(_ value: T, encoder: JSONEncoder = JSONEncoder()) throws -> RequestBody {
        .jsonData(try encoder.encode(value))
    }

    /// A form body from `(name, value)` pairs, kept in the given order.
    public static func form(_ fields: [(String, String)]) -> RequestBody {
        .form(fields.map { URLQueryItem(name: $0.0, value: $0.1) })
    }

    /// A form body from a dictionary; fields are sorted by name so requests are reproducible.
    public static func form(_ fields: [String: String]) -> RequestBody {
        .form(fields.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value) })
    }

    /// The `Content-Type` this body is sent with, if any.
    public var contentType: String? {
        switch self {
        case .none: nil
        case .jsonData: "application/json"
        case .form: "application/x-www-form-urlencoded"
        case .multipart(let form): form.contentType
        case .raw(_, let type): type
        }
    }

    /// Percent-encodes form fields the way HTML forms do (`application/x-www-form-urlencoded`).
    static func encodeForm(_ items: [URLQueryItem]) -> Data {
        Data(items.map { "\(formEscape($0.name))=\(formEscape($0.value ?? ""))" }.joined(separator: "&").utf8)
    }

    static func formEscape(_ string: String) -> String {
        let allowed = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._*")
        return (string.addingPercentEncoding(withAllowedCharacters: allowed) ?? string)
    }
}

import Foundation

/// An HTTP request method.
///
/// ```swift
/// let method: HTTPMethod = .post
/// method.isIdempotent // false
/// ```
public struct HTTPMethod: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The method name as sent on the wire, for example `"GET"`.
    public let rawValue: String

    /// Creates a method from its wire name; the name is upper-cased.
    public init(rawValue: String) { self.rawValue = rawValue.uppercased() }

    /// `GET`
    public static let get = HTTPMethod(rawValue: "GET")
    /// `HEAD`
    public static let head = HTTPMethod(rawValue: "HEAD")
    /// `POST`
    public static let post = HTTPMethod(rawValue: "POST")
    /// `PUT`
    public static let put = HTTPMethod(rawValue: "PUT")
    /// `PATCH`
    public static let patch = HTTPMethod(rawValue: "PATCH")
    /// `DELETE`
    public static let delete = HTTPMethod(rawValue: "DELETE")

    /// Whether sending the request twice has the same effect as sending it once
    /// (GET, HEAD, PUT, DELETE, OPTIONS, TRACE). Used as an endpoint's default retry safety.
    public var isIdempotent: Bool {
        ["GET", "HEAD", "PUT", "DELETE", "OPTIONS", "TRACE"].contains(rawValue)
    }

    /// The wire name.
    public var description: String { rawValue }
}

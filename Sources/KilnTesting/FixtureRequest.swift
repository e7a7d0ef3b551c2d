import Foundation
import KilnModel
import KilnNetwork

/// A request the ``FixtureServer`` received, kept for assertions.
///
/// ```swift
/// let request = try #require(server.requests(to: "/messages").last)
/// #expect(request.parameter("service_code") == "blog")
/// #expect(request.header("Authorization") == "Bearer t1")
/// ```
public struct FixtureRequest: Sendable {
    /// The method, upper-case.
    public var method: String
    /// The path, without the query.
    public var path: String
    /// The query items, in order.
    public var query: [URLQueryItem]
    /// The headers, with lower-cased names.
    public var headers: [String: String]
    /// The body.
    public var body: Data

    /// Creates a request value.
    public init(method: String, path: String, query: [URLQueryItem], headers: [String: String], body: Data) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.body = body
    }

    /// A header's value, by case-insensitive name.
    public func header(_ name: String) -> String? { headers[name.lowercased()] }

    /// The first query item named `name`.
    public func queryValue(_ name: String) -> String? { query.first { $0.name == name }?.value }

    /// The fields of an `application/x-www-form-urlencoded` body, in order.
    public var formFields: [URLQueryItem] {
        guard (header("Content-Type") ?? "").lowercased().hasPrefix("application/x-www-form-urlencoded") else { return [] }
        let text = String(decoding: body, as: UTF8.self)
        return text.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).replacingOccurrences(of: "+", with: " ") }
            return URLQueryItem(
                name: parts[0].removingPercentEncoding ?? parts[0], value: parts.count > 1 ? (parts[1].removingPercentEncoding ?? parts[1]) : "")
        }
    }

    /// The body parsed as JSON, if it is JSON.
    public var json: JSONValue? { try? JSONDecoder().decode(JSONValue.self, from: body) }

    /// A parameter wherever it was sent: the query, a form field, or a top-level JSON string or number.
    public func parameter(_ name: String) -> String? {
        if let value = queryValue(name) { return value }
        if let value = formFields.first(where: { $0.name == name })?.value { return value }
        if case .object(let object)? = json, let value = object[name] {
            switch value {
            case .string(let string): return string
            case .int(let int): return String(int)
            case .double(let double): return String(double)
            case .bool(let bool): return String(bool)
            default: return nil
            }
        }
        return nil
    }

    /// The parts of a `multipart/form-data` body.
    ///
    /// - Throws: ``MultipartParseError`` when the body is not well-formed multipart.
    public func multipartParts() throws -> [MultipartPart] {
        guard let contentType = header("Content-Type"), contentType.lowercased().hasPrefix("multipart/form-data"),
            let boundaryRange = contentType.range(of: "boundary=")
        else { throw MultipartParseError(reason: "not multipart/form-data") }
        var boundary = String(contentType[boundaryRange.upperBound...])
        if let semicolon = boundary.firstIndex(of: ";") { boundary = String(boundary[..<semicolon]) }
        boundary = boundary.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
        return try MultipartPart.parse(body, boundary: boundary)
    }
}

/// One part of a multipart body received by the ``FixtureServer``.
public struct MultipartPart: Sendable, Hashable {
    /// The form field name.
    public var name: String
    /// The file name, for file parts.
    public var filename: String?
    /// The part's `Content-Type`.
    public var contentType: String?
    /// The part's bytes.
    public var data: Data

    /// The SHA-256 of ``data``, as hex.
    public var sha256: String { SHA256Digest.hex(of: data) }

    static func parse(_ body: Data, boundary: String) throws -> [MultipartPart] {
        let delimiter = Data("--\(boundary)".utf8)
        let separator = Data("\r\n\r\n".utf8)
        var parts: [MultipartPart] = []
        guard var cursor = body.range(of: delimiter)?.upperBound else {
            throw MultipartParseError(reason: "boundary not found")
        }
        while true {
            // After a delimiter: "--" ends the body, "\r\n" starts a part.
            let rest = body[cursor...]
            if rest.starts(with: Data("--".utf8)) { return parts }
            guard rest.starts(with: Data("\r\n".utf8)) else { throw MultipartParseError(reason: "malformed delimiter line") }
            let headerStart = cursor + 2
            guard let headerEnd = body.range(of: separator, in: headerStart..<body.endIndex) else {
                throw MultipartParseError(reason: "part headers not terminated")
            }
            let contentStart = headerEnd.upperBound
            guard let next = body.range(of: Data("\r\n".utf8) + delimiter, in: contentStart..<body.endIndex) else {
                throw MultipartParseError(reason: "part not terminated")
            }
            let headerText = String(decoding: body[headerStart..<headerEnd.lowerBound], as: UTF8.self)
            var part = MultipartPart(name: "", filename: nil, contentType: nil, data: Data(body[contentStart..<next.lowerBound]))
            for line in headerText.components(separatedBy: "\r\n") {
                let lower = line.lowercased()
                if lower.hasPrefix("content-disposition:") {
                    part.name = Self.attribute("name", in: line) ?? ""
                    part.filename = Self.attribute("filename", in: line)
                } else if lower.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                }
            }
            parts.append(part)
            cursor = next.upperBound
        }
    }

    private static func attribute(_ name: String, in line: String) -> String? {
        for piece in line.split(separator: ";") {
            let trimmed = piece.trimmingCharacters(in: .whitespaces)
            guard trimmed.hasPrefix(name + "=") else { continue }
            return String(trimmed.dropFirst(name.count + 1)).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return nil
    }
}

/// A multipart body the fixture server could not parse.
public struct MultipartParseError: Error, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// A sentence a person can read.
    public var description: String { "Malformed multipart body: \(reason)" }
}

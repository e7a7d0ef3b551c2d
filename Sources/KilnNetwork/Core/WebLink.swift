import Foundation

/// One link of an HTTP `Link` header (RFC 8288): where it points, how it relates to the response,
/// and its other parameters.
///
/// APIs that page by header (GitHub, GitLab, Mastodon and many others) name the next page with
/// `rel="next"`; read it from a response with ``ResponseHead/link(_:)``:
///
/// ```swift
/// let response = try await client.response(for: Endpoint<[Repo]>.get("/orgs/apple/repos"))
/// // Link: <https://api.github.com/organizations/10639145/repos?page=2>; rel="next", <…?page=6>; rel="last"
/// if let next = response.head.link("next") {
///     let more = try await client.send(Endpoint<[Repo]>.get("/orgs/apple/repos").following(next))
/// }
/// ```
///
/// ``parse(_:relativeTo:)`` reads a whole header value: several links, quoted and unquoted
/// values, commas and semicolons inside quotes and inside `<…>`. A piece it cannot read is
/// skipped; it never fails.
public struct WebLink: Sendable, Hashable {
    /// Where the link points, resolved against the response's URL when it was relative.
    public var url: URL
    /// The relation types (`rel`), lower-cased, one per space-separated word:
    /// `rel="next last"` gives `["next", "last"]`.
    public var relations: [String]
    /// The link's other parameters (`title`, `type`, `hreflang`, …) by lower-cased name, with
    /// quotes and escapes removed; a parameter without a value maps to `""`. The first of two
    /// parameters with one name wins; an extended value (`title*=UTF-8''…`, RFC 8187) is decoded.
    public var parameters: [String: String]

    /// Creates a link.
    ///
    /// ```swift
    /// WebLink(url: URL(string: "https://api.example.com/items?page=2")!, relations: ["next"])
    /// ```
    public init(url: URL, relations: [String] = [], parameters: [String: String] = [:]) {
        self.url = url
        self.relations = relations
        self.parameters = parameters
    }

    /// Whether the link has `relation` among its relation types, compared case-insensitively.
    ///
    /// ```swift
    /// link.hasRelation("next")
    /// ```
    public func hasRelation(_ relation: String) -> Bool {
        relations.contains(relation.lowercased())
    }

    /// The links of a `Link` header value, in order; relative targets are resolved against
    /// `base`.
    ///
    /// Several `Link` header lines arrive joined by commas, which this reads as one value.
    ///
    /// ```swift
    /// let links = WebLink.parse(#"</items?page=3>; rel="next", </items?page=1>; rel="first""#,
    ///                           relativeTo: URL(string: "https://api.example.com/items?page=2"))
    /// links.map(\.url.absoluteString)   // ["https://api.example.com/items?page=3", "https://api.example.com/items?page=1"]
    /// ```
    public static func parse(_ value: String, relativeTo base: URL? = nil) -> [WebLink] {
        var scanner = LinkScanner(value)
        var links: [WebLink] = []
        while let link = scanner.nextLink() {
            guard let url = resolve(link.target, against: base) else { continue }
            var relations: [String] = []
            var others: [String: String] = [:]
            var sawRelation = false
            for (name, value) in link.parameters {
                if name == "rel" {
                    // RFC 8288: a second `rel` is ignored.
                    guard !sawRelation else { continue }
                    sawRelation = true
                    relations = value.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
                } else if others[name] == nil {
                    others[name] = name.hasSuffix("*") ? decodeExtendedValue(value) ?? value : value
                }
            }
            links.append(WebLink(url: url, relations: relations, parameters: others))
        }
        return links
    }

    private static func resolve(_ target: String, against base: URL?) -> URL? {
        let target = target.trimmingCharacters(in: .whitespaces)
        if target.isEmpty { return base }
        return URL(string: target, relativeTo: base)?.absoluteURL
    }

    /// An RFC 8187 value (`UTF-8'en'%E2%82%AC%20rates`), or `nil` when it is not one Kiln reads.
    private static func decodeExtendedValue(_ value: String) -> String? {
        let parts = value.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0].lowercased() == "utf-8" else { return nil }
        return parts[2].removingPercentEncoding
    }
}

extension ResponseHead {
    /// The links of the response's `Link` header, with relative targets resolved against
    /// ``url``; empty when there is no header.
    ///
    /// ```swift
    /// for link in response.head.links where link.hasRelation("alternate") { print(link.url) }
    /// ```
    public var links: [WebLink] {
        guard let value = header("Link") else { return [] }
        return WebLink.parse(value, relativeTo: url)
    }

    /// The target of the first link whose relation types include `relation` (`"next"`,
    /// `"prev"`, `"last"`, …, compared case-insensitively), or `nil`.
    ///
    /// Links with an `anchor` parameter are about another resource than this response and are
    /// passed over.
    ///
    /// ```swift
    /// let next = response.head.link("next")   // the next page, or nil on the last one
    /// ```
    public func link(_ relation: String) -> URL? {
        links.first { $0.hasRelation(relation) && $0.parameters["anchor"] == nil }?.url
    }
}

/// Reads links off a `Link` header value, one at a time (RFC 8288, appendix B), skipping what it
/// cannot read.
private struct LinkScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ value: String) {
        scalars = Array(value.unicodeScalars)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }

    private static func isSpace(_ scalar: Unicode.Scalar) -> Bool {
        scalar == " " || scalar == "\t" || scalar == "\r" || scalar == "\n"
    }

    private mutating func skipSpaces() {
        while let scalar = current, Self.isSpace(scalar) { index += 1 }
    }

    /// The next link's target and parameters, or `nil` at the end of the value.
    mutating func nextLink() -> (target: String, parameters: [(String, String)])? {
        while true {
            while let scalar = current, Self.isSpace(scalar) || scalar == "," { index += 1 }
            guard let scalar = current else { return nil }
            guard scalar == "<" else {
                skipPiece()
                continue
            }
            index += 1
            guard let close = scalars[index...].firstIndex(of: ">") else {
                // An unterminated target: nothing after it can be told apart.
                index = scalars.count
                return nil
            }
            let target = String(String.UnicodeScalarView(scalars[index..<close]))
            index = close + 1
            return (target, parameters())
        }
    }

    /// The parameters after a target, up to the comma that ends the link.
    private mutating func parameters() -> [(String, String)] {
        var parameters: [(String, String)] = []
        while true {
            skipSpaces()
            guard let scalar = current, scalar != "," else { return parameters }
            guard scalar == ";" else {
                // Not a parameter: skip to the next one, or the next link.
                skipPiece(stoppingAtSemicolon: true)
                continue
            }
            index += 1
            skipSpaces()
            var name = ""
            while let scalar = current, !Self.isSpace(scalar), !"=;,".unicodeScalars.contains(scalar) {
                name.unicodeScalars.append(scalar)
                index += 1
            }
            skipSpaces()
            var value = ""
            if current == "=" {
                index += 1
                skipSpaces()
                value = current == "\"" ? quotedString() : token()
            }
            if !name.isEmpty { parameters.append((name.lowercased(), value)) }
        }
    }

    /// A quoted string, its quotes removed and its escapes undone; an unterminated one runs to
    /// the end of the value.
    private mutating func quotedString() -> String {
        var value = ""
        index += 1
        while let scalar = current {
            index += 1
            switch scalar {
            case "\\":
                if let escaped = current {
                    value.unicodeScalars.append(escaped)
                    index += 1
                }
            case "\"":
                return value
            default:
                value.unicodeScalars.append(scalar)
            }
        }
        return value
    }

    /// An unquoted value: up to the next `;` or `,`, without trailing spaces.
    private mutating func token() -> String {
        var value = ""
        while let scalar = current, scalar != ";", scalar != "," {
            value.unicodeScalars.append(scalar)
            index += 1
        }
        return value.trimmingCharacters(in: .whitespaces)
    }

    /// Skips an unreadable piece up to the comma that ends it (or the semicolon, when asked),
    /// stepping over quoted strings and `<…>` so that a comma inside them does not count.
    private mutating func skipPiece(stoppingAtSemicolon: Bool = false) {
        while let scalar = current {
            switch scalar {
            case ",": return
            case ";" where stoppingAtSemicolon: return
            case "\"": _ = quotedString()
            case "<":
                if let close = scalars[index...].firstIndex(of: ">") { index = close + 1 } else { index = scalars.count }
            default: index += 1
            }
        }
    }
}

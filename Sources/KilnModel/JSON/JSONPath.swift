import KilnSupport

/// A path into JSON: keys and array indices, written `"data.list"` or `"data.items[3].author"`.
///
/// Used by ``JSONValue`` subscripts, by `@Key("author.name")`, and to decode from inside an
/// envelope (`decode(Page.self, from: data, at: "data")`).
public struct JSONPath: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// One step of a path.
    public enum Component: Hashable, Sendable {
        /// An object member.
        case key(String)
        /// An array element.
        case index(Int)
    }

    /// The steps, outermost first.
    public var components: [Component]

    /// A path made of the given steps.
    public init(_ components: [Component]) { self.components = components }

    /// Parses `"a.b[2].c"`. Throws ``JSONPathSyntaxError`` for text such as `"a..b"` or `"a[x]"`.
    public init(parsing text: String) throws(JSONPathSyntaxError) {
        do {
            components = try KeyPathGrammar.segments(of: text).map(Component.init)
        } catch {
            throw JSONPathSyntaxError(path: text)
        }
    }

    /// A path from a literal; a malformed literal becomes a path of the single key as written.
    public init(stringLiteral value: String) {
        // A plain key (the common `@Key("cover_url")`) needs no parsing: generated code builds
        // these on every decode.
        if !value.isEmpty, KeyPathGrammar.isSingleKey(value) {
            self.components = [.key(value)]
            return
        }
        self = (try? JSONPath(parsing: value)) ?? JSONPath([.key(value)])
    }

    public var description: String { CodingPathFormatter.format(components) }

    /// `inner`, a coding path inside the value at this path, written from the document's root:
    /// `list[3].id` inside `data` is `data.list[3].id`.
    @_spi(KilnInternal) public func locating(_ inner: String) -> String {
        Self.join(description, inner)
    }

    /// Two path texts, one after the other: `items` + `[0].id` → `items[0].id`, `a` + `b` → `a.b`.
    static func join(_ outer: String, _ inner: String) -> String {
        if outer.isEmpty { return inner }
        if inner.isEmpty { return outer }
        return inner.hasPrefix("[") ? outer + inner : outer + "." + inner
    }
}

extension JSONPath.Component {
    init(_ segment: KeyPathSegment) {
        switch segment {
        case .key(let key): self = .key(key)
        case .index(let index): self = .index(index)
        }
    }
}

/// Thrown when a key path's text cannot be read, e.g. `"data..list"` or `"items[x]"`.
public struct JSONPathSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The text that could not be read.
    public var path: String
    public var description: String { "malformed key path \"\(path)\"; write keys separated by dots and indices in brackets, e.g. data.list[0].id" }
}

/// Turns coding paths into the text used in repair logs and errors: `data[3].author.followers`.
enum CodingPathFormatter {
    static func format(_ components: [JSONPath.Component]) -> String {
        var out = ""
        for component in components {
            switch component {
            case .key(let key):
                if !out.isEmpty { out += "." }
                out += key
            case .index(let index):
                out += "[\(index)]"
            }
        }
        return out
    }

    static func components(_ codingPath: [any CodingKey]) -> [JSONPath.Component] {
        codingPath.map { key in
            if let index = key.intValue, key.stringValue.isEmpty || key.stringValue.hasPrefix("Index ") || key.stringValue == String(index) {
                return .index(index)
            }
            return .key(key.stringValue)
        }
    }

    static func format(_ codingPath: [any CodingKey]) -> String { format(components(codingPath)) }
}

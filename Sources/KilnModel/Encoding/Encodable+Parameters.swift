import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How nested values become flat request parameters: `author[name]=Kai`, `tags[0]=swift`.
///
/// Objects add `[key]` and arrays add `[index]` to their parent's name (the bracket form that
/// Rails, PHP, Express and most form parsers read back into nested values); `null` and `nil`
/// are left out; booleans are `true`/`false`; numbers are written as in JSON.
public enum ParameterEncoding {
    /// Flattens a JSON value into name–value pairs, sorted by name for stable requests.
    public static func flatten(_ value: JSONValue) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        func walk(_ value: JSONValue, _ name: String) {
            switch value {
            case .null: return
            case .bool(let b): pairs.append((name, b ? "true" : "false"))
            case .int(let i): pairs.append((name, String(i)))
            case .double(let d): pairs.append((name, JSONValue.numberText(d)))
            case .string(let s): pairs.append((name, s))
            case .array(let items):
                for (index, item) in items.enumerated() { walk(item, "\(name)[\(index)]") }
            case .object(let members):
                for key in members.keys.sorted() {
                    walk(members[key, default: .null], name.isEmpty ? key : "\(name)[\(key)]")
                }
            }
        }
        walk(value, "")
        return pairs
    }

    /// `application/x-www-form-urlencoded` text for the pairs: spaces as `+`, everything but
    /// unreserved characters percent-encoded.
    public static func formURLEncoded(_ pairs: [(name: String, value: String)]) -> String {
        pairs.map { "\(escape($0.name))=\(escape($0.value))" }.joined(separator: "&")
    }

    static func escape(_ text: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~ ")
        let encoded = text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
        return encoded.replacingOccurrences(of: " ", with: "+")
    }
}

extension Encodable {
    /// The value as flat request parameters, `nil`s left out (a "parameter model").
    ///
    /// ```swift
    /// @DataModel(keyStyle: .snakeCase)
    /// struct MessageQuery { var page = 1; var keyword: String?; var serviceCode = "M01" }
    /// try MessageQuery().parameters() // ["page": "1", "service_code": "M01"]
    /// ```
    ///
    /// Keys are the ones each model declares (see ``DataModel(keyStyle:)``); `keyStyle` spells the
    /// keys of models that declare no style, which otherwise keep their Swift names. Nested values
    /// are flattened as described in ``ParameterEncoding``.
    public func parameters(keyStyle: KeyStyle? = nil) throws -> [String: String] {
        Dictionary(try parameterPairs(keyStyle: keyStyle).map { ($0.name, $0.value) }, uniquingKeysWith: { _, last in last })
    }

    /// The value as URL query items, sorted by name, `nil`s left out; keys as in
    /// ``parameters(keyStyle:)``.
    public func queryItems(keyStyle: KeyStyle? = nil) throws -> [URLQueryItem] {
        try parameterPairs(keyStyle: keyStyle).map { URLQueryItem(name: $0.name, value: $0.value) }
    }

    /// The value as an `application/x-www-form-urlencoded` body, `nil`s left out; keys as in
    /// ``parameters(keyStyle:)``.
    public func formURLEncodedBody(keyStyle: KeyStyle? = nil) throws -> Data {
        Data(ParameterEncoding.formURLEncoded(try parameterPairs(keyStyle: keyStyle)).utf8)
    }

    func parameterPairs(keyStyle: KeyStyle?) throws -> [(name: String, value: String)] {
        let userInfo: [CodingUserInfoKey: any Sendable] = keyStyle.map { [.kilnKeyStyle: $0] } ?? [:]
        return ParameterEncoding.flatten(try JSONValueEncoder(userInfo: userInfo).encode(self))
    }
}

// TEMPORARY: stand-ins for KilnModel API that lands on main soon. Delete on merge.
import Foundation

public enum JSONValue: Sendable, Hashable, Codable {
    case null, bool(Bool), int(Int64), double(Double), string(String), array([JSONValue]), object([String: JSONValue])

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        if c.decodeNil() { self = .null }
        else if let b = try? c.decode(Bool.self) { self = .bool(b) }
        else if let i = try? c.decode(Int64.self) { self = .int(i) }
        else if let d = try? c.decode(Double.self) { self = .double(d) }
        else if let s = try? c.decode(String.self) { self = .string(s) }
        else if let a = try? c.decode([JSONValue].self) { self = .array(a) }
        else { self = .object(try c.decode([String: JSONValue].self)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        switch self {
        case .null: try c.encodeNil()
        case .bool(let v): try c.encode(v)
        case .int(let v): try c.encode(v)
        case .double(let v): try c.encode(v)
        case .string(let v): try c.encode(v)
        case .array(let v): try c.encode(v)
        case .object(let v): try c.encode(v)
        }
    }

    public var string: String? { if case .string(let s) = self { return s }; return nil }
    public var int: Int64? { if case .int(let i) = self { return i }; return nil }
    public subscript(_ key: String) -> JSONValue? {
        var current = self
        for part in key.split(separator: ".") {
            guard case .object(let o) = current, let next = o[String(part)] else { return nil }
            current = next
        }
        return current
    }
}

public struct Repair: Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var description: String { path }
}

public struct DecodingPolicy: Sendable { public init() {} }

extension JSONDecoder {
    public func decodeWithRepairs<T: Decodable>(_ type: T.Type, from data: Data, at keyPath: String? = nil, policy: DecodingPolicy = DecodingPolicy()) throws -> (value: T, repairs: [Repair]) {
        guard let keyPath else { return (try decode(T.self, from: data), []) }
        let root = try decode(JSONValue.self, from: data)
        guard let sub = root[keyPath] else {
            throw DecodingError.keyNotFound(StubKey(stringValue: keyPath), .init(codingPath: [], debugDescription: "missing \(keyPath)"))
        }
        return (try decode(T.self, from: try JSONEncoder().encode(sub)), [])
    }
}

private struct StubKey: CodingKey {
    var stringValue: String
    var intValue: Int? { nil }
    init(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}

extension JSONValue: Codable {
    /// Decodes whatever JSON is there. Integers that fit `Int64` stay exact.
    public init(from decoder: any Decoder) throws {
        if let keyed = try? decoder.container(keyedBy: AnyCodingKey.self) {
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(keyed.allKeys.count)
            for key in keyed.allKeys {
                members[key.stringValue] = try keyed.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
            return
        }
        if var unkeyed = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            items.reserveCapacity(unkeyed.count ?? 0)
            while !unkeyed.isAtEnd { items.append(try unkeyed.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .int(i)
        } else if let d = try? single.decode(Double.self) {
            self = .double(d)
        } else if let s = try? single.decode(String.self) {
            self = .string(s)
        } else {
            throw DecodingError.dataCorruptedError(in: single, debugDescription: "value is not JSON")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var c = encoder.singleValueContainer()
            try c.encodeNil()
        case .bool(let b):
            var c = encoder.singleValueContainer()
            try c.encode(b)
        case .int(let i):
            var c = encoder.singleValueContainer()
            try c.encode(i)
        case .double(let d):
            var c = encoder.singleValueContainer()
            try c.encode(d)
        case .string(let s):
            var c = encoder.singleValueContainer()
            try c.encode(s)
        case .array(let items):
            var c = encoder.unkeyedContainer()
            for item in items { try c.encode(item) }
        case .object(let members):
            var c = encoder.container(keyedBy: AnyCodingKey.self)
            for (key, value) in members { try c.encode(value, forKey: AnyCodingKey(key)) }
        }
    }
}

/// A coding key made from any string or index: what Kiln uses for keys known only at run time.
public struct AnyCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int?

    /// A key for an object member.
    @inlinable public init(_ string: String) {
        self.stringValue = string
        self.intValue = nil
    }

    /// A key for an array element.
    public init(index: Int) {
        self.stringValue = String(index)
        self.intValue = index
    }

    public init?(stringValue: String) { self.init(stringValue) }
    public init?(intValue: Int) { self.init(index: intValue) }
}

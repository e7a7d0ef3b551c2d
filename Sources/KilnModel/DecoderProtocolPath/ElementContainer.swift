/// A keyed container holding one array element under its index: how a model's key path that
/// ends at an element (`@Key("tags[0]")`) is read, coerced and logged by the same code as one
/// that ends at a member.
struct ElementContainer: KeyedDecodingContainerProtocol {
    /// The element's own decoder.
    let decoder: any Decoder
    /// The element's index, the one key this container holds.
    let key: AnyCodingKey

    var codingPath: [any CodingKey] { Array(decoder.codingPath.dropLast()) }
    var allKeys: [AnyCodingKey] { [key] }

    func contains(_ key: AnyCodingKey) -> Bool { key == self.key }

    /// The element as a single value, when `key` is the element's.
    func element(_ key: AnyCodingKey) throws -> any SingleValueDecodingContainer {
        guard key == self.key else {
            throw DecodingError.keyNotFound(key, DecodingError.Context(codingPath: codingPath, debugDescription: "no element at \(key.stringValue)"))
        }
        return try decoder.singleValueContainer()
    }

    func decodeNil(forKey key: AnyCodingKey) throws -> Bool { try element(key).decodeNil() }
    func decode(_ type: Bool.Type, forKey key: AnyCodingKey) throws -> Bool { try element(key).decode(type) }
    func decode(_ type: String.Type, forKey key: AnyCodingKey) throws -> String { try element(key).decode(type) }
    func decode(_ type: Double.Type, forKey key: AnyCodingKey) throws -> Double { try element(key).decode(type) }
    func decode(_ type: Float.Type, forKey key: AnyCodingKey) throws -> Float { try element(key).decode(type) }
    func decode(_ type: Int.Type, forKey key: AnyCodingKey) throws -> Int { try element(key).decode(type) }
    func decode(_ type: Int8.Type, forKey key: AnyCodingKey) throws -> Int8 { try element(key).decode(type) }
    func decode(_ type: Int16.Type, forKey key: AnyCodingKey) throws -> Int16 { try element(key).decode(type) }
    func decode(_ type: Int32.Type, forKey key: AnyCodingKey) throws -> Int32 { try element(key).decode(type) }
    func decode(_ type: Int64.Type, forKey key: AnyCodingKey) throws -> Int64 { try element(key).decode(type) }
    func decode(_ type: UInt.Type, forKey key: AnyCodingKey) throws -> UInt { try element(key).decode(type) }
    func decode(_ type: UInt8.Type, forKey key: AnyCodingKey) throws -> UInt8 { try element(key).decode(type) }
    func decode(_ type: UInt16.Type, forKey key: AnyCodingKey) throws -> UInt16 { try element(key).decode(type) }
    func decode(_ type: UInt32.Type, forKey key: AnyCodingKey) throws -> UInt32 { try element(key).decode(type) }
    func decode(_ type: UInt64.Type, forKey key: AnyCodingKey) throws -> UInt64 { try element(key).decode(type) }
    func decode<T: Decodable>(_ type: T.Type, forKey key: AnyCodingKey) throws -> T { try element(key).decode(type) }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: AnyCodingKey) throws -> KeyedDecodingContainer<NestedKey> {
        _ = try element(key)
        return try decoder.container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: AnyCodingKey) throws -> any UnkeyedDecodingContainer {
        _ = try element(key)
        return try decoder.unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { decoder }

    func superDecoder(forKey key: AnyCodingKey) throws -> any Decoder {
        _ = try element(key)
        return decoder
    }
}

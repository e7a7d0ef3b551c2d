import Foundation

/// Reads an object's members straight from the tape: keys are compared as UTF-8 bytes, no
/// `String` is made for a key, and nothing is allocated unless a value needs a decoder of its own.
struct KilnKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let context: KilnDecodingContext
    let object: Int
    let node: KilnPathNode?

    var codingPath: [any CodingKey] { KilnPathNode.codingPath(node, in: context.tape) }

    var allKeys: [Key] {
        if context.convertsKeys {
            return context.convertedMembers(of: object, codingPath: { codingPath }).keys.compactMap { Key(stringValue: $0) }
        }
        // Each key once, at its first occurrence, and equal as Swift strings are (a precomposed
        // "é" is the same key as "e" and a combining accent), as in Foundation.
        var keys: [Key] = []
        var seen: Set<String> = []
        let tape = context.tape
        var i = object + 1
        let end = Int(tape.tokens[object].payload)
        while i < end {
            let text = tape.string(at: i)
            if seen.insert(text).inserted, let key = Key(stringValue: text) { keys.append(key) }
            i = tape.next(after: i + 1)
        }
        return keys
    }

    func contains(_ key: Key) -> Bool { lookup(key.stringValue) != nil }

    /// The value token of member `name`, after the key strategy's conversion.
    @inline(__always)
    func lookup(_ name: String) -> Int? {
        guard context.convertsKeys else { return context.member(of: object, key: name) }
        return context.convertedMembers(of: object, codingPath: { codingPath }).member(name)
    }

    @inline(__always)
    func find(_ key: Key) throws -> Int {
        guard let index = lookup(key.stringValue) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "No value associated with key \(key.stringValue)."))
        }
        return index
    }

    /// The member's value token when present and not null.
    @inline(__always)
    func present(_ key: Key) -> Int? {
        guard let index = lookup(key.stringValue), context.tape.tokens[index].kind != .null else { return nil }
        return index
    }

    /// The path step for a member: an integer key (a dictionary's `_DictionaryCodingKey` for
    /// `"138586553"`) shows as an index, as Foundation's coding paths show it.
    @inline(__always)
    func step(_ key: Key, _ index: Int) -> KilnPathNode.Step {
        // A converted key shows in paths as the coding key, as in Foundation's paths.
        if context.convertsKeys { return .key(key.stringValue) }
        if let number = key.intValue { return .integerKey(number, index - 1) }
        return .keyToken(index - 1)
    }

    func decodeNil(forKey key: Key) throws -> Bool { context.kind(try find(key)) == .null }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        let index = try find(key)
        return try context.decodeBool(at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? {
        guard let index = present(key) else { return nil }
        return try context.decodeBool(at: index, node, step(key, index))
    }

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        let index = try find(key)
        return try context.decodeString(at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? {
        guard let index = present(key) else { return nil }
        return try context.decodeString(at: index, node, step(key, index))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        let index = try find(key)
        return try context.decodeDouble(at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? {
        guard let index = present(key) else { return nil }
        return try context.decodeDouble(at: index, node, step(key, index))
    }

    func decode(_ type: Float.Type, forKey key: Key) throws -> Float {
        let index = try find(key)
        return try context.decodeFloat(at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? {
        guard let index = present(key) else { return nil }
        return try context.decodeFloat(at: index, node, step(key, index))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        let index = try find(key)
        return try context.decodeInteger(Int.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int.self, at: index, node, step(key, index))
    }

    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 {
        let index = try find(key)
        return try context.decodeInteger(Int8.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int8.self, at: index, node, step(key, index))
    }

    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 {
        let index = try find(key)
        return try context.decodeInteger(Int16.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int16.self, at: index, node, step(key, index))
    }

    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 {
        let index = try find(key)
        return try context.decodeInteger(Int32.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int32.self, at: index, node, step(key, index))
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        let index = try find(key)
        return try context.decodeInteger(Int64.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int64.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt {
        let index = try find(key)
        return try context.decodeInteger(UInt.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 {
        let index = try find(key)
        return try context.decodeInteger(UInt8.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt8.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 {
        let index = try find(key)
        return try context.decodeInteger(UInt16.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt16.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 {
        let index = try find(key)
        return try context.decodeInteger(UInt32.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt32.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 {
        let index = try find(key)
        return try context.decodeInteger(UInt64.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt64.self, at: index, node, step(key, index))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        let index = try find(key)
        return try context.decodeValue(T.self, at: index, node, step(key, index))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard let index = present(key) else { return nil }
        return try context.decodeValue(T.self, at: index, node, step(key, index))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try find(key)
        return try KilnValueDecoder(context: context, index: index, node: KilnPathNode(parent: node, step: step(key, index))).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let index = try find(key)
        return try KilnValueDecoder(context: context, index: index, node: KilnPathNode(parent: node, step: step(key, index))).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: "super", key: nil)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key.stringValue, key: key)
    }

    /// A decoder for a member; an absent member reads as `null`, as in Foundation. Its path names
    /// the coding key as ``step(_:_:)`` does (`theValues`, not the document's `the_values`, under
    /// a key strategy), so that repairs logged below it read as through Foundation.
    func superDecoder(named name: String, key: Key?) -> KilnValueDecoder {
        if let index = lookup(name) {
            let step: KilnPathNode.Step = if let key { step(key, index) } else if context.convertsKeys { .key(name) } else { .keyToken(index - 1) }
            return KilnValueDecoder(context: context, index: index, node: KilnPathNode(parent: node, step: step))
        }
        return KilnValueDecoder(context: context, index: -1, node: KilnPathNode(parent: node, step: .key(name)))
    }
}

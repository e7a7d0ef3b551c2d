/// Reads the one value a decoder stands for.
struct KilnSingleValueContainer: SingleValueDecodingContainer {
    let context: KilnDecodingContext
    let index: Int
    let node: KilnPathNode?

    var codingPath: [any CodingKey] { KilnPathNode.codingPath(node, in: context.tape) }

    func decodeNil() -> Bool { context.kind(index) == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try context.decodeBool(at: index, node, nil) }

    func decode(_ type: String.Type) throws -> String { try context.decodeString(at: index, node, nil) }

    func decode(_ type: Double.Type) throws -> Double { try context.decodeDouble(at: index, node, nil) }

    func decode(_ type: Float.Type) throws -> Float { try context.decodeFloat(at: index, node, nil) }

    func decode(_ type: Int.Type) throws -> Int { try context.decodeInteger(Int.self, at: index, node, nil) }

    func decode(_ type: Int8.Type) throws -> Int8 { try context.decodeInteger(Int8.self, at: index, node, nil) }

    func decode(_ type: Int16.Type) throws -> Int16 { try context.decodeInteger(Int16.self, at: index, node, nil) }

    func decode(_ type: Int32.Type) throws -> Int32 { try context.decodeInteger(Int32.self, at: index, node, nil) }

    func decode(_ type: Int64.Type) throws -> Int64 { try context.decodeInteger(Int64.self, at: index, node, nil) }

    func decode(_ type: UInt.Type) throws -> UInt { try context.decodeInteger(UInt.self, at: index, node, nil) }

    func decode(_ type: UInt8.Type) throws -> UInt8 { try context.decodeInteger(UInt8.self, at: index, node, nil) }

    func decode(_ type: UInt16.Type) throws -> UInt16 { try context.decodeInteger(UInt16.self, at: index, node, nil) }

    func decode(_ type: UInt32.Type) throws -> UInt32 { try context.decodeInteger(UInt32.self, at: index, node, nil) }

    func decode(_ type: UInt64.Type) throws -> UInt64 { try context.decodeInteger(UInt64.self, at: index, node, nil) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.decodeValue(T.self, at: index, node, nil) }
}

/// Reads the one value a decoder stands for. The decoder's path node is made only for an error.
struct KilnSingleValueContainer: SingleValueDecodingContainer {
    let decoder: KilnValueDecoder

    var context: KilnDecodingContext { decoder.context }
    var index: Int { decoder.index }
    var parent: KilnPathNode? { decoder.parent }
    var step: KilnPathNode.Step? { decoder.step }

    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { context.kind(index) == .null }

    func decode(_ type: Bool.Type) throws -> Bool { try context.decodeBool(at: index, parent, step) }

    func decode(_ type: String.Type) throws -> String { try context.decodeString(at: index, parent, step) }

    func decode(_ type: Double.Type) throws -> Double { try context.decodeDouble(at: index, parent, step) }

    func decode(_ type: Float.Type) throws -> Float { try context.decodeFloat(at: index, parent, step) }

    func decode(_ type: Int.Type) throws -> Int { try context.decodeInteger(Int.self, at: index, parent, step) }

    func decode(_ type: Int8.Type) throws -> Int8 { try context.decodeInteger(Int8.self, at: index, parent, step) }

    func decode(_ type: Int16.Type) throws -> Int16 { try context.decodeInteger(Int16.self, at: index, parent, step) }

    func decode(_ type: Int32.Type) throws -> Int32 { try context.decodeInteger(Int32.self, at: index, parent, step) }

    func decode(_ type: Int64.Type) throws -> Int64 { try context.decodeInteger(Int64.self, at: index, parent, step) }

    func decode(_ type: UInt.Type) throws -> UInt { try context.decodeInteger(UInt.self, at: index, parent, step) }

    func decode(_ type: UInt8.Type) throws -> UInt8 { try context.decodeInteger(UInt8.self, at: index, parent, step) }

    func decode(_ type: UInt16.Type) throws -> UInt16 { try context.decodeInteger(UInt16.self, at: index, parent, step) }

    func decode(_ type: UInt32.Type) throws -> UInt32 { try context.decodeInteger(UInt32.self, at: index, parent, step) }

    func decode(_ type: UInt64.Type) throws -> UInt64 { try context.decodeInteger(UInt64.self, at: index, parent, step) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T { try context.decodeValue(T.self, at: index, parent, step) }
}

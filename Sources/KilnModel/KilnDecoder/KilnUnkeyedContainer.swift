/// Reads an array's elements in order from the tape.
struct KilnUnkeyedContainer: UnkeyedDecodingContainer {
    let context: KilnDecodingContext
    let node: KilnPathNode?
    let end: Int
    let total: Int
    /// The token of the current element.
    var cursor: Int
    var currentIndex: Int = 0

    init(context: KilnDecodingContext, array: Int, node: KilnPathNode?) {
        self.context = context
        self.node = node
        let token = context.tape.tokens[array]
        self.end = Int(token.payload)
        self.total = Int(token.aux)
        self.cursor = array + 1
    }

    var codingPath: [any CodingKey] { KilnPathNode.codingPath(node, in: context.tape) }
    var count: Int? { total }
    var isAtEnd: Bool { cursor >= end }

    @inline(__always)
    func current<T>(_ type: T.Type) throws -> Int {
        guard cursor < end else {
            throw DecodingError.valueNotFound(
                type, .init(codingPath: context.path(node, .index(currentIndex)), debugDescription: "Unkeyed container is at end."))
        }
        return cursor
    }

    @inline(__always)
    mutating func advance() {
        cursor = context.tape.next(after: cursor)
        currentIndex += 1
    }

    mutating func decodeNil() throws -> Bool {
        let index = try current(Never.self)
        guard context.tape.tokens[index].kind == .null else { return false }
        advance()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool {
        let index = try current(type)
        let value = try context.decodeBool(at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: String.Type) throws -> String {
        let index = try current(type)
        let value = try context.decodeString(at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Double.Type) throws -> Double {
        let index = try current(type)
        let value = try context.decodeDouble(at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Float.Type) throws -> Float {
        let index = try current(type)
        let value = try context.decodeFloat(at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int.Type) throws -> Int {
        let index = try current(type)
        let value = try context.decodeInteger(Int.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int8.Type) throws -> Int8 {
        let index = try current(type)
        let value = try context.decodeInteger(Int8.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int16.Type) throws -> Int16 {
        let index = try current(type)
        let value = try context.decodeInteger(Int16.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int32.Type) throws -> Int32 {
        let index = try current(type)
        let value = try context.decodeInteger(Int32.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: Int64.Type) throws -> Int64 {
        let index = try current(type)
        let value = try context.decodeInteger(Int64.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt.Type) throws -> UInt {
        let index = try current(type)
        let value = try context.decodeInteger(UInt.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt8.Type) throws -> UInt8 {
        let index = try current(type)
        let value = try context.decodeInteger(UInt8.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt16.Type) throws -> UInt16 {
        let index = try current(type)
        let value = try context.decodeInteger(UInt16.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt32.Type) throws -> UInt32 {
        let index = try current(type)
        let value = try context.decodeInteger(UInt32.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt64.Type) throws -> UInt64 {
        let index = try current(type)
        let value = try context.decodeInteger(UInt64.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let index = try current(type)
        let value = try context.decodeValue(T.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let index = try current(KeyedDecodingContainer<NestedKey>.self)
        let container = try elementDecoder(index).container(keyedBy: type)
        advance()
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let index = try current((any UnkeyedDecodingContainer).self)
        let container = try elementDecoder(index).unkeyedContainer()
        advance()
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let index = try current((any Decoder).self)
        let decoder = elementDecoder(index)
        advance()
        return decoder
    }

    // MARK: decodeIfPresent

    /// Reads the current element unless it is `null` (skipped) or the container is at its end.
    /// Foundation counts a read at the end too: `currentIndex` moves past `count`, and code that
    /// reads until `currentIndex == count` sees what it sees with `JSONDecoder`.
    @inline(__always)
    mutating func ifPresent<T>(_ read: (inout Self) throws -> T) throws -> T? {
        guard cursor < end else {
            currentIndex += 1
            return nil
        }
        if context.tape.tokens[cursor].kind == .null {
            advance()
            return nil
        }
        return try read(&self)
    }

    mutating func decodeIfPresent(_ type: Bool.Type) throws -> Bool? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: String.Type) throws -> String? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Double.Type) throws -> Double? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Float.Type) throws -> Float? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int.Type) throws -> Int? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int8.Type) throws -> Int8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int16.Type) throws -> Int16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int32.Type) throws -> Int32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: Int64.Type) throws -> Int64? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt.Type) throws -> UInt? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt8.Type) throws -> UInt8? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt16.Type) throws -> UInt16? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt32.Type) throws -> UInt32? { try ifPresent { try $0.decode(type) } }
    mutating func decodeIfPresent(_ type: UInt64.Type) throws -> UInt64? { try ifPresent { try $0.decode(type) } }

    mutating func decodeIfPresent<T: Decodable>(_ type: T.Type) throws -> T? { try ifPresent { try $0.decode(type) } }

    func elementDecoder(_ index: Int) -> KilnValueDecoder {
        KilnValueDecoder(context: context, index: index, node: KilnPathNode(parent: node, step: .index(currentIndex)))
    }
}

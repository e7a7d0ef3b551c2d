// `Int128` and `UInt128` through every container, as Foundation's `JSONDecoder` reads them: the
// integer's digits exactly, across the whole 128-bit range. Without these the standard library's
// defaults would refuse both types.

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension KilnSingleValueContainer {
    func decode(_ type: Int128.Type) throws -> Int128 { try context.decodeInteger(Int128.self, at: index, parent, step) }

    func decode(_ type: UInt128.Type) throws -> UInt128 { try context.decodeInteger(UInt128.self, at: index, parent, step) }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension KilnKeyedContainer {
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 {
        let index = try find(key)
        return try context.decodeInteger(Int128.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(Int128.self, at: index, node, step(key, index))
    }

    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 {
        let index = try find(key)
        return try context.decodeInteger(UInt128.self, at: index, node, step(key, index))
    }

    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? {
        guard let index = present(key) else { return nil }
        return try context.decodeInteger(UInt128.self, at: index, node, step(key, index))
    }
}

@available(macOS 15, iOS 18, tvOS 18, watchOS 11, visionOS 2, *)
extension KilnUnkeyedContainer {
    mutating func decode(_ type: Int128.Type) throws -> Int128 {
        let index = try current(type)
        let value = try context.decodeInteger(Int128.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }

    mutating func decode(_ type: UInt128.Type) throws -> UInt128 {
        let index = try current(type)
        let value = try context.decodeInteger(UInt128.self, at: index, node, .index(currentIndex))
        advance()
        return value
    }
}

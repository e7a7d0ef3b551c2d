/// A decoder standing for one value of the tape (index -1: an absent value, read as `null`).
/// Three words, so it sits in an `any Decoder` without a box of its own.
struct KilnValueDecoder: Decoder {
    let context: KilnDecodingContext
    let index: Int
    let node: KilnPathNode?

    var codingPath: [any CodingKey] { KilnPathNode.codingPath(node, in: context.tape) }
    var userInfo: [CodingUserInfoKey: Any] { context.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard context.kind(index) == .object else {
            if context.kind(index) == .null {
                throw DecodingError.valueNotFound(
                    KeyedDecodingContainer<Key>.self,
                    .init(codingPath: codingPath, debugDescription: "Cannot get keyed decoding container -- found null value instead"))
            }
            throw context.mismatch([String: Any].self, at: index, path: codingPath)
        }
        return KeyedDecodingContainer(KilnKeyedContainer<Key>(context: context, object: index, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard context.kind(index) == .array else {
            if context.kind(index) == .null {
                throw DecodingError.valueNotFound(
                    (any UnkeyedDecodingContainer).self,
                    .init(codingPath: codingPath, debugDescription: "Cannot get unkeyed decoding container -- found null value instead"))
            }
            throw context.mismatch([Any].self, at: index, path: codingPath)
        }
        return KilnUnkeyedContainer(context: context, array: index, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        KilnSingleValueContainer(context: context, index: index, node: node)
    }
}

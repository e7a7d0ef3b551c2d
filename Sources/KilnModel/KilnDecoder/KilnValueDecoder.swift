/// A decoder standing for one value of the tape (index -1: an absent value, read as `null`).
/// Three words, so it sits in an `any Decoder` without a box of its own.
///
/// A member's decoder may stand below its object's path node (``init(context:member:below:)``)
/// rather than a node of its own: most values (an enum, a type of the app's own read through a
/// single value) never need their path, and the node is made when one is asked for.
struct KilnValueDecoder: Decoder {
    let context: KilnDecodingContext
    /// The value's token; for a member whose node is not made, `-2 - token`.
    private let place: Int
    /// The value's path node; for a member whose node is not made, its object's.
    let parent: KilnPathNode?

    /// The decoder for the value at `index` (-1: absent), whose path node is `node`.
    init(context: KilnDecodingContext, index: Int, node: KilnPathNode?) {
        self.context = context
        place = index
        parent = node
    }

    /// The decoder for the member whose value is the token at `index` (its key the token before
    /// it), in the object whose path node is `object`.
    init(context: KilnDecodingContext, member index: Int, below object: KilnPathNode?) {
        self.context = context
        place = -2 - index
        parent = object
    }

    /// The value's token (-1: absent).
    var index: Int { place >= -1 ? place : -2 - place }

    /// The step from ``parent`` to the value when its node is not made: the member's key.
    var step: KilnPathNode.Step? { place >= -1 ? nil : .keyToken(-3 - place) }

    /// The value's path node, made now if it was not.
    var node: KilnPathNode? { step.map { KilnPathNode(parent: parent, step: $0) } ?? parent }

    var codingPath: [any CodingKey] { context.path(parent, step) }
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
        KilnSingleValueContainer(decoder: self)
    }

    /// The value as `List`, a list of models with a fast path
    /// (``KilnDecodingContext/fastModelList(_:at:node:)``); `nil` when it is another type or holds
    /// anything but objects, or the decoder reads models through `init(from:)`.
    func fastModelList<List>(_ type: List.Type) -> List? {
        guard context.usesFastPath, let list = context.fastModelListType(List.self),
            let items = list.kilnFastList(in: context, at: index, node: node)
        else { return nil }
        return items as? List
    }
}

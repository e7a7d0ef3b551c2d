import Foundation

/// Encodes any `Encodable` into a ``JSONValue`` tree, without going through bytes.
///
/// ```swift
/// let value = try JSONValueEncoder().encode(article)
/// value["author.name"].string
/// ```
///
/// `URL`s become strings, `Date`s follow their own `Codable` form (use `@Transform` to choose a
/// date format), `Data` becomes base64 text, and non-finite doubles become `null`.
public struct JSONValueEncoder: Sendable {
    /// Passed to `encode(to:)` implementations, as with Foundation's encoders.
    public var userInfo: [CodingUserInfoKey: any Sendable]

    /// Makes an encoder.
    public init(userInfo: [CodingUserInfoKey: any Sendable] = [:]) {
        self.userInfo = userInfo
    }

    /// Encodes `value` into a ``JSONValue``.
    public func encode<T: Encodable>(_ value: T) throws -> JSONValue {
        let box = EncodingBox()
        try box.store(value, codingPath: [], userInfo: userInfo)
        return box.resolve()
    }
}

/// One node of the tree being built; a class so nested containers can write into it later.
final class EncodingBox {
    enum Content {
        case unset
        case value(JSONValue)
        case object([String: EncodingBox], order: [String])
        case array([EncodingBox])
    }

    var content: Content = .unset

    func resolve() -> JSONValue {
        switch content {
        case .unset: return .object([:])
        case .value(let value): return value
        case .object(let members, _): return .object(members.mapValues { $0.resolve() })
        case .array(let items): return .array(items.map { $0.resolve() })
        }
    }

    func store<T: Encodable>(_ value: T, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) throws {
        switch value {
        case let json as JSONValue: content = .value(json)
        case let url as URL: content = .value(.string(url.absoluteString))
        case let data as Data: content = .value(.string(data.base64EncodedString()))
        case let decimal as Decimal: content = .value(JSONValue.decimal(decimal))
        default:
            try value.encode(to: BoxEncoder(box: self, codingPath: codingPath, userInfo: userInfo))
        }
    }

    func child(forKey key: String) -> EncodingBox {
        if case .object(let members, let order) = content {
            if let existing = members[key] { return existing }
            let box = EncodingBox()
            var members = members
            members[key] = box
            content = .object(members, order: order + [key])
            return box
        }
        let box = EncodingBox()
        content = .object([key: box], order: [key])
        return box
    }

    func appendChild() -> EncodingBox {
        let box = EncodingBox()
        if case .array(let items) = content {
            content = .array(items + [box])
        } else {
            content = .array([box])
        }
        return box
    }

    func becomeObject() {
        if case .object = content { return }
        content = .object([:], order: [])
    }

    func becomeArray() {
        if case .array = content { return }
        content = .array([])
    }
}

extension JSONValue {
    static func decimal(_ value: Decimal) -> JSONValue {
        let text = NSDecimalNumber(decimal: value).stringValue
        if let int = Int64(text) { return .int(int) }
        return .double(Double(text) ?? 0)
    }

    static func double(checking value: Double) -> JSONValue { value.isFinite ? .double(value) : .null }
}

struct BoxEncoder: Encoder {
    let box: EncodingBox
    var codingPath: [any CodingKey]
    let sendableUserInfo: [CodingUserInfoKey: any Sendable]
    var userInfo: [CodingUserInfoKey: Any] { sendableUserInfo }

    init(box: EncodingBox, codingPath: [any CodingKey], userInfo: [CodingUserInfoKey: any Sendable]) {
        self.box = box
        self.codingPath = codingPath
        self.sendableUserInfo = userInfo
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        box.becomeObject()
        return KeyedEncodingContainer(BoxKeyedContainer<Key>(box: box, codingPath: codingPath, userInfo: sendableUserInfo))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        box.becomeArray()
        return BoxUnkeyedContainer(box: box, codingPath: codingPath, userInfo: sendableUserInfo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        BoxSingleContainer(box: box, codingPath: codingPath, userInfo: sendableUserInfo)
    }
}

struct BoxKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let box: EncodingBox
    var codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: any Sendable]

    mutating func encodeNil(forKey key: Key) throws { box.child(forKey: key.stringValue).content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try box.child(forKey: key.stringValue).store(value, codingPath: codingPath + [key], userInfo: userInfo)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = box.child(forKey: key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(BoxKeyedContainer<NestedKey>(box: child, codingPath: codingPath + [key], userInfo: userInfo))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = box.child(forKey: key.stringValue)
        child.becomeArray()
        return BoxUnkeyedContainer(box: child, codingPath: codingPath + [key], userInfo: userInfo)
    }
    mutating func superEncoder() -> any Encoder {
        BoxEncoder(box: box.child(forKey: "super"), codingPath: codingPath + [AnyCodingKey("super")], userInfo: userInfo)
    }
    mutating func superEncoder(forKey key: Key) -> any Encoder {
        BoxEncoder(box: box.child(forKey: key.stringValue), codingPath: codingPath + [key], userInfo: userInfo)
    }
}

struct BoxUnkeyedContainer: UnkeyedEncodingContainer {
    let box: EncodingBox
    var codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: any Sendable]
    var count: Int {
        if case .array(let items) = box.content { return items.count }
        return 0
    }

    private var nextKey: AnyCodingKey { AnyCodingKey(index: count) }

    mutating func encodeNil() throws { box.appendChild().content = .value(.null) }
    mutating func encode<T: Encodable>(_ value: T) throws {
        let key = nextKey
        try box.appendChild().store(value, codingPath: codingPath + [key], userInfo: userInfo)
    }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let child = box.appendChild()
        child.becomeObject()
        return KeyedEncodingContainer(BoxKeyedContainer<NestedKey>(box: child, codingPath: codingPath + [key], userInfo: userInfo))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let child = box.appendChild()
        child.becomeArray()
        return BoxUnkeyedContainer(box: child, codingPath: codingPath + [key], userInfo: userInfo)
    }
    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return BoxEncoder(box: box.appendChild(), codingPath: codingPath + [key], userInfo: userInfo)
    }
}

struct BoxSingleContainer: SingleValueEncodingContainer {
    let box: EncodingBox
    var codingPath: [any CodingKey]
    let userInfo: [CodingUserInfoKey: any Sendable]

    mutating func encodeNil() throws { box.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { box.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { box.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { box.content = .value(.double(checking: value)) }
    mutating func encode(_ value: Float) throws { box.content = .value(.double(checking: Double(value))) }
    mutating func encode(_ value: Int) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int8) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int16) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int32) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: Int64) throws { box.content = .value(.int(value)) }
    mutating func encode(_ value: UInt) throws { box.content = .value(Self.unsigned(UInt64(value))) }
    mutating func encode(_ value: UInt8) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { box.content = .value(.int(Int64(value))) }
    mutating func encode(_ value: UInt64) throws { box.content = .value(Self.unsigned(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try box.store(value, codingPath: codingPath, userInfo: userInfo) }

    static func unsigned(_ value: UInt64) -> JSONValue {
        if let exact = Int64(exactly: value) { return .int(exact) }
        return .double(Double(value))
    }
}

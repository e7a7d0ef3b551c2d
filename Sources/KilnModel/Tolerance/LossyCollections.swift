/// A collection that can decode keeping the elements that decode and dropping the rest.
///
/// `Array`, `Set` and `Dictionary` conform. `@DataModel` properties first decode a collection
/// strictly (the fast path); only when that fails is it decoded again element by element, with a
/// repair entry for each element coerced or dropped.
public protocol LossyDecodable {
    /// Decodes, dropping (and logging) elements that cannot be used.
    static func decodeLossy(from decoder: any Decoder) throws -> Self
}

extension Array: LossyDecodable where Element: Decodable {
    public static func decodeLossy(from decoder: any Decoder) throws -> [Element] {
        // A list of models with a fast path, read by Kiln's decoder: each element by its model's
        // reader, as it would be through the container below, without a decode per element.
        if let kiln = decoder as? KilnValueDecoder, let list = kiln.fastModelList(Self.self) { return list }
        var container = try decoder.unkeyedContainer()
        let session = DecodingSession.current(in: decoder)
        var result: [Element] = []
        result.reserveCapacity(container.count ?? 0)
        while !container.isAtEnd {
            let index = container.currentIndex
            if let element = try? container.decode(Element.self) {
                result.append(element)
                continue
            }
            // An element that is a collection itself keeps what it can, as the outer one does.
            if let lossy = LossyElement<Element>.nestedLossy, container.currentIndex == index {
                let path = CodingPathFormatter.components(decoder.codingPath) + [.index(index)]
                guard let nested = try? container.superDecoder() else { break }
                if let element = (try? lossy.decodeLossy(from: nested)) as? Element {
                    result.append(element)
                } else {
                    let raw = try? JSONValue(from: nested)
                    session?.recordIfRecording(.dropped, path: path, expected: Element.self, found: raw?.preview() ?? "an unreadable value", result: "dropped")
                }
                continue
            }
            // A failed decode leaves the index in place in Foundation's decoders; read the raw
            // value to move on. A decoder that moved on anyway gives us nothing more to read.
            let raw: JSONValue? = container.currentIndex == index ? try? container.decode(JSONValue.self) : nil
            if container.currentIndex == index { break }
            let path = CodingPathFormatter.components(decoder.codingPath) + [.index(index)]
            if let raw, let coerced = LossyElement<Element>.coerce(raw, session: session) {
                result.append(coerced)
                session?.recordIfRecording(.coerced, path: path, expected: Element.self, found: raw.preview(), result: Repair.show(coerced))
            } else {
                session?.recordIfRecording(.dropped, path: path, expected: Element.self, found: raw?.preview() ?? "an unreadable value", result: "dropped")
            }
        }
        return result
    }
}

extension Set: LossyDecodable where Element: Decodable {
    public static func decodeLossy(from decoder: any Decoder) throws -> Set<Element> {
        Set(try [Element].decodeLossy(from: decoder))
    }
}

/// Dictionaries whose keys are written as JSON object keys (`String`, `Int` and any other
/// `CodingKeyRepresentable` key): a member whose value cannot be used is dropped (or coerced),
/// the others are kept; a member whose key does not convert (`"x"` for an `Int` key) is dropped.
extension Dictionary: LossyDecodable where Key: CodingKeyRepresentable, Value: Decodable {
    public static func decodeLossy(from decoder: any Decoder) throws -> [Key: Value] {
        let container = try decoder.container(keyedBy: AnyCodingKey.self)
        let session = DecodingSession.current(in: decoder)
        var result: [Key: Value] = [:]
        result.reserveCapacity(container.allKeys.count)
        // In key order: Foundation's decoder lists keys in no set order, and the repair log
        // should read the same through every decoder.
        for member in container.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
            let path = CodingPathFormatter.components(decoder.codingPath) + [.key(member.stringValue)]
            // Integer keys arrive as text: give the key its integer too, as Foundation's does.
            let text = member.stringValue
            guard let key = Key(codingKey: AnyCodingKey(stringValue: text, intValue: Int(text))) else {
                session?.recordIfRecording(.dropped, path: path, expected: Key.self, found: JSONValue.string(text).preview(), result: "dropped")
                continue
            }
            if let value = try? container.decode(Value.self, forKey: member) {
                result[key] = value
                continue
            }
            if let lossy = LossyElement<Value>.nestedLossy, let nested = try? container.superDecoder(forKey: member),
                let value = (try? lossy.decodeLossy(from: nested)) as? Value
            {
                result[key] = value
                continue
            }
            let raw = try? container.decode(JSONValue.self, forKey: member)
            if let raw, let coerced = LossyElement<Value>.coerce(raw, session: session) {
                result[key] = coerced
                session?.recordIfRecording(.coerced, path: path, expected: Value.self, found: raw.preview(), result: Repair.show(coerced))
            } else {
                session?.recordIfRecording(.dropped, path: path, expected: Value.self, found: raw?.preview() ?? "an unreadable value", result: "dropped")
            }
        }
        return result
    }
}

extension AnyCodingKey {
    /// A key with both forms, such as a dictionary's integer key read from its text.
    init(stringValue: String, intValue: Int?) {
        self.init(stringValue)
        self.intValue = intValue
    }
}

enum LossyElement<Element> {
    /// The coercion rules for an element, an optional one's included (`[String?]` reads `3` as
    /// `"3"`).
    static func coerce(_ raw: JSONValue, session: DecodingSession?) -> Element? {
        let truncating = session?.policy.allowsFractionalTruncation ?? false
        if let target = Element.self as? any JSONCoercible.Type {
            return target.coerce(from: raw, truncating: truncating) as? Element
        }
        if let optional = Element.self as? any OptionalProtocol.Type, let target = optional.wrappedType as? any JSONCoercible.Type,
            let coerced = target.coerce(from: raw, truncating: truncating)
        {
            return optional.wrapping(coerced) as? Element
        }
        return nil
    }

    /// The element type when it is a collection that can itself be read lossily.
    static var nestedLossy: (any LossyDecodable.Type)? {
        Element.self as? any LossyDecodable.Type
    }
}

extension DecodingSession {
    func recordIfRecording<T>(_ kind: Repair.Kind, path: [JSONPath.Component], expected: T.Type, found: String, result: String) {
        guard isRecording else { return }
        record(Repair(path: CodingPathFormatter.format(path), kind: kind, expected: Repair.typeName(expected), found: found, result: result))
    }
}

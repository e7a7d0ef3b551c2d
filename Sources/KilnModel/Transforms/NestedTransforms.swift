import Foundation

/// Reads a list through another transform, element by element, keeping what can be read: an
/// element the inner transform cannot read is left out with a `dropped` repair (`dates[1]`), as
/// in any lossy array.
///
/// ```swift
/// @Transform(.each(.iso8601)) var reminders: [Date] = []
/// // ["2024-05-01T09:00:00Z", "soon", 1714554000] → two dates; "soon" is logged as dropped
/// ```
///
/// A value that is not an array is not read (the property keeps its default, and the log says
/// so). Writing gives an array of what the inner transform writes.
public struct EachTransform<Element: ValueTransform>: ValueTransform {
    /// The transform that reads each element.
    public var element: Element

    /// A lossy list of what `element` reads.
    public init(_ element: Element) { self.element = element }

    public func decode(_ json: JSONValue, context: inout TransformContext) -> [Element.Value]? {
        guard let items = json.array else { return nil }
        var values: [Element.Value] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            var inner = TransformContext(policy: context.policy)
            if let value = element.decode(item, context: &inner) {
                values.append(value)
                context.record(inner.repairs, under: "[\(index)]")
            } else {
                context.record(.dropped, at: "[\(index)]", expected: Repair.typeName(Element.Value.self), found: item.preview(), result: "dropped")
            }
        }
        return values
    }

    public func encode(_ value: [Element.Value]) -> JSONValue {
        .array(value.map(element.encode))
    }
}

extension ValueTransform {
    /// A lossy list read through `element`: `@Transform(.each(.unixSeconds)) var times: [Date]`.
    public static func each<Element>(_ element: Element) -> EachTransform<Element> where Self == EachTransform<Element> {
        EachTransform(element)
    }
}

/// Reads a model, array or any `Codable` value that the server sends as a JSON *string*
/// (`"settings": "{\"theme\":\"dark\"}"`), decoding it tolerantly with the same policy; the
/// repairs inside it reach the repair log under the property's path (`settings.theme`).
///
/// ```swift
/// @Transform(.embeddedJSON(Settings.self)) var settings = Settings()
/// ```
///
/// A server that starts sending the object itself instead of a string is read as well. Writing
/// gives the value encoded back into a string, as it came.
public struct EmbeddedJSONTransform<Model: Codable>: ValueTransform {
    /// A transform for a `Model` written as a JSON string.
    public init(_ type: Model.Type = Model.self) {}

    public func decode(_ json: JSONValue, context: inout TransformContext) -> Model? {
        let text: String
        switch json {
        case .string(let embedded): text = embedded
        case .object, .array: text = json.jsonText
        default: return nil
        }
        // A property's list, lossy as any `[T]` property is, numbers included.
        guard let (value, repairs) = try? KilnDecoder(policy: context.policy).decodePropertyWithRepairs(Model.self, from: text) else {
            return nil
        }
        context.record(repairs, under: "")
        return value
    }

    public func encode(_ value: Model) -> JSONValue {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else { return .null }
        return .string(text)
    }
}

extension ValueTransform {
    /// A `Model` the server writes as a JSON string: `@Transform(.embeddedJSON(Settings.self))`.
    public static func embeddedJSON<Model>(_ type: Model.Type) -> EmbeddedJSONTransform<Model> where Self == EmbeddedJSONTransform<Model> {
        EmbeddedJSONTransform(type)
    }
}

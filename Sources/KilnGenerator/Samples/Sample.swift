import Foundation
import KilnModel

/// One JSON sample a model is inferred from: its name (for messages and the header) and its tree.
///
/// ```swift
/// let sample = try Sample(name: "article.json", bytes: Array(data))
/// ```
public struct Sample: Sendable, Hashable {
    /// How messages name this sample: the path as given, or `stdin`. The generated header
    /// names it by its last path component.
    public var name: String
    /// The parsed document.
    public var root: OrderedJSON

    /// A sample from an already parsed tree.
    public init(name: String, root: OrderedJSON) {
        self.name = name
        self.root = root
    }

    /// Parses `bytes` as the sample called `name`.
    ///
    /// - Throws: ``SampleError/emptyInput(_:)`` for empty or blank input,
    ///   ``SampleError/notJSON(_:_:)`` with the line and column of the problem.
    public init(name: String, bytes: [UInt8]) throws(SampleError) {
        if bytes.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { throw .emptyInput(name) }
        do {
            root = try OrderedJSON(parsing: bytes)
        } catch {
            throw .notJSON(name, error)
        }
        self.name = name
    }

    /// The objects this sample contributes at `keyPath`: the object itself, or the elements of an
    /// array of objects (`null` elements are skipped).
    ///
    /// - Throws: ``SampleError`` when the path is absent or leads to something that is not an
    ///   object or an array of objects.
    public func records(at keyPath: KilnModel.JSONPath?) throws(SampleError) -> (records: [[OrderedJSON.Member]], isList: Bool) {
        var value = root
        var walked: [KilnModel.JSONPath.Component] = []
        for component in keyPath?.components ?? [] {
            walked.append(component)
            switch (component, value) {
            case (.key(let key), .object(let members)):
                guard let member = members.last(where: { $0.key == key }) else {
                    throw .pathNotFound(name, KilnModel.JSONPath(walked).description)
                }
                value = member.value
            case (.index(let position), .array(let elements)) where position < elements.count:
                value = elements[position]
            default:
                throw .pathNotFound(name, KilnModel.JSONPath(walked).description)
            }
        }
        let location = keyPath.map { " at \($0)" } ?? ""
        switch value {
        case .object(let members):
            return ([members], false)
        case .array(let elements):
            var records: [[OrderedJSON.Member]] = []
            for (position, element) in elements.enumerated() {
                switch element {
                case .object(let members): records.append(members)
                case .null: continue
                default: throw .notAnObject(name, "element [\(position)]\(location) is \(element.kindArticle)")
                }
            }
            return (records, true)
        default:
            if keyPath == nil { throw .topLevelScalar(name, value.kindName) }
            throw .notAnObject(name, "the value\(location) is \(value.kindArticle)")
        }
    }
}

extension OrderedJSON {
    /// "a string", "an object", "null"…
    var kindArticle: String {
        switch self {
        case .null: "null"
        case .object, .array: "an \(kindName)"
        default: "a \(kindName)"
        }
    }
}

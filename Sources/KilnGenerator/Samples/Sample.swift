import Foundation
import KilnModel

/// One JSON sample a model is inferred from: its name (for messages and the header) and its
/// document, read with KilnModel's strict reader.
///
/// ```swift
/// let sample = try Sample(name: "article.json", bytes: Array(data))
/// ```
public struct Sample: Sendable {
    /// How messages name this sample: the path as given, or `stdin`. The generated header
    /// names it by its last path component.
    public var name: String
    /// The parsed document.
    public var document: JSONDocument

    /// A sample from an already parsed document.
    public init(name: String, document: JSONDocument) {
        self.name = name
        self.document = document
    }

    /// Parses `bytes` as the sample called `name`; a UTF-8 byte-order mark is skipped.
    ///
    /// - Throws: ``SampleError/emptyInput(_:)`` for empty or blank input,
    ///   ``SampleError/notJSON(_:line:column:message:)`` with the line and column of the problem.
    public init(name: String, bytes: [UInt8]) throws(SampleError) {
        let text = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        if text.allSatisfy({ [0x20, 0x0A, 0x0D, 0x09].contains($0) }) { throw .emptyInput(name) }
        do {
            document = try JSONDocument(parsing: text)
        } catch {
            throw SampleError(notJSON: name, error)
        }
        self.name = name
    }

    /// The value this sample holds at `keyPath` (the whole document when `nil`): a key path
    /// may step into arrays (`data.list[0]`).
    ///
    /// - Throws: ``SampleError/pathNotFound(_:_:)`` when the path leads nowhere.
    package func node(at keyPath: KilnModel.JSONPath?) throws(SampleError) -> JSONDocument.Node {
        let components = keyPath?.components ?? []
        if let node = document.node(at: KilnModel.JSONPath(components)) { return node }
        // Name the path up to the first step that leads nowhere.
        let walked = components.indices.lazy.map { Array(components.prefix($0 + 1)) }
            .first { document.node(at: KilnModel.JSONPath($0)) == nil }
        throw .pathNotFound(name, KilnModel.JSONPath(walked ?? components).description)
    }

    /// The objects this sample contributes at `keyPath`, members in document order: the object
    /// itself, or the elements of an array of objects (`null` elements are skipped).
    ///
    /// - Throws: ``SampleError`` when the path is absent or leads to something that is not an
    ///   object or an array of objects.
    package func records(at keyPath: KilnModel.JSONPath?) throws(SampleError) -> (records: [[JSONDocument.Node.Member]], isList: Bool) {
        let node = try node(at: keyPath)
        let location = keyPath.map { " at \($0)" } ?? ""
        switch node.content {
        case .object(let members):
            return ([members], false)
        case .array(let elements):
            var records: [[JSONDocument.Node.Member]] = []
            for (position, element) in elements.enumerated() {
                switch element.content {
                case .object(let members): records.append(members)
                case .scalar(.null): continue
                default: throw .notAnObject(name, "element [\(position)]\(location) is \(element.value.kindArticle)")
                }
            }
            return (records, true)
        case .scalar(let scalar):
            if keyPath == nil { throw .topLevelScalar(name, scalar.kindName) }
            throw .notAnObject(name, "the value\(location) is \(scalar.kindArticle)")
        }
    }
}

extension JSONValue {
    /// "a string", "an object", "null"…
    var kindArticle: String {
        switch self {
        case .null: "null"
        case .object, .array: "an \(kindName)"
        default: "a \(kindName)"
        }
    }
}

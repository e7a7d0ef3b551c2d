import Foundation
import KilnModel

/// One JSON sample a model is inferred from: its name (for messages and the header) and its tree.
///
/// ```swift
/// let sample = try Sample(name: "article.json", bytes: Array(data))
/// ```
public struct Sample: Sendable, Hashable {
    /// How messages and the generated header name this sample, usually the file's name.
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
    public func records(at keyPath: KilnModel.KeyPath?) throws(SampleError) -> (records: [[OrderedJSON.Member]], isList: Bool) {
        var value = root
        var walked: [KilnModel.KeyPath.Component] = []
        for component in keyPath?.components ?? [] {
            walked.append(component)
            switch (component, value) {
            case (.key(let key), .object(let members)):
                guard let member = members.last(where: { $0.key == key }) else {
                    throw .pathNotFound(name, KilnModel.KeyPath(walked).description)
                }
                value = member.value
            case (.index(let position), .array(let elements)) where position < elements.count:
                value = elements[position]
            default:
                throw .pathNotFound(name, KilnModel.KeyPath(walked).description)
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

/// Why samples could not be read. Each description is one line, prefixed by the sample's name.
public enum SampleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(String)
    /// The file exists but could not be read.
    case unreadable(String, String)
    /// The input was empty or white space only.
    case emptyInput(String)
    /// The input is not JSON; the error says where.
    case notJSON(String, JSONSyntaxError)
    /// The document is a string, number, boolean or null: there is nothing to model.
    case topLevelScalar(String, String)
    /// `--at` named a path the document does not have.
    case pathNotFound(String, String)
    /// The value to model is not an object or an array of objects.
    case notAnObject(String, String)
    /// A directory held no `.json` files.
    case emptyDirectory(String)
    /// No sample was given.
    case noSamples

    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .emptyInput(let name): "\(name): empty input; a sample must be a JSON object or an array of objects"
        case .notJSON(let name, let error): "\(name):\(error.line):\(error.column): not JSON: \(error.message)"
        case .topLevelScalar(let name, let kind):
            "\(name): the top-level value is \(kind == "null" ? "null" : "a \(kind)"); a model needs an object or an array of objects (use --at to pick one inside)"
        case .pathNotFound(let name, let path): "\(name): no value at key path \(path)"
        case .notAnObject(let name, let what): "\(name): \(what); a model needs objects"
        case .emptyDirectory(let path): "\(path): no .json files in this directory"
        case .noSamples: "no samples given"
        }
    }
}

/// Reads samples from files, directories (their `.json` files, by name) and standard input (`-`).
public struct SampleLoader: Sendable {
    /// Reads standard input when an argument is `-`.
    public var readStandardInput: @Sendable () -> [UInt8]

    /// A loader; `readStandardInput` is replaceable for tests.
    public init(readStandardInput: @escaping @Sendable () -> [UInt8] = { Array(FileHandle.standardInput.readDataToEndOfFile()) }) {
        self.readStandardInput = readStandardInput
    }

    /// Loads every argument, in order; a directory contributes its `.json` files sorted by name.
    public func load(_ arguments: [String]) throws(SampleError) -> [Sample] {
        guard !arguments.isEmpty else { throw .noSamples }
        var samples: [Sample] = []
        for argument in arguments {
            if argument == "-" {
                samples.append(try Sample(name: "stdin", bytes: readStandardInput()))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { throw .fileNotFound(argument) }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: argument)
                } catch {
                    throw .unreadable(argument, error.localizedDescription)
                }
                let files = names.filter { $0.lowercased().hasSuffix(".json") }.sorted()
                guard !files.isEmpty else { throw .emptyDirectory(argument) }
                for file in files {
                    samples.append(try loadFile(URL(fileURLWithPath: argument).appendingPathComponent(file).path, name: file))
                }
            } else {
                samples.append(try loadFile(argument, name: URL(fileURLWithPath: argument).lastPathComponent))
            }
        }
        return samples
    }

    private func loadFile(_ path: String, name: String) throws(SampleError) -> Sample {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path, error.localizedDescription)
        }
        return try Sample(name: name, bytes: Array(data))
    }
}

import KilnModel

/// Why samples could not be read. Each description is one line, prefixed by the sample's name.
public enum SampleError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file does not exist.
    case fileNotFound(String)
    /// The file exists but could not be read.
    case unreadable(String, String)
    /// The input was empty or white space only.
    case emptyInput(String)
    /// The input is not JSON: where (line and column counted from 1, the column in bytes, as
    /// compilers count them) and what was wrong.
    case notJSON(String, line: Int, column: Int, message: String)
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

    /// The message as one line, for the command line and logs.
    public var description: String {
        switch self {
        case .fileNotFound(let path): "\(path): no such file"
        case .unreadable(let path, let reason): "\(path): cannot be read (\(reason))"
        case .emptyInput(let name): "\(name): empty input; a sample must be a JSON object or an array of objects"
        case .notJSON(let name, let line, let column, let message): "\(name):\(line):\(column): not JSON: \(message)"
        case .topLevelScalar(let name, let kind):
            "\(name): the top-level value is \(kind == "null" ? "null" : "a \(kind)"); a model needs an object or an array of objects (use --at to pick one inside)"
        case .pathNotFound(let name, let path): "\(name): no value at key path \(path)"
        case .notAnObject(let name, let what): "\(name): \(what); a model needs objects"
        case .emptyDirectory(let path): "\(path): no .json files in this directory"
        case .noSamples: "no samples given"
        }
    }
}

extension SampleError {
    /// The sample `name` is not JSON, as KilnModel's reader found.
    init(notJSON name: String, _ error: ModelDecodingError) {
        if case .invalidJSON(let message, _, let line, let column) = error {
            self = .notJSON(name, line: line, column: column, message: message)
        } else {
            self = .notJSON(name, line: 1, column: 1, message: error.description)
        }
    }
}

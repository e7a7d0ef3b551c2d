import Foundation

/// What tolerant decoding could not repair: bytes that are not JSON, or a value of the wrong
/// kind where the whole result should be (an array where an object was asked for).
///
/// Each case says where: a byte offset with line and column for syntax, a coding path for shapes.
public enum ModelDecodingError: Error, Sendable, Hashable, CustomStringConvertible, LocalizedError {
    /// The bytes are not JSON. `offset` counts bytes from 0; `line` and `column` count from 1.
    case invalidJSON(message: String, offset: Int, line: Int, column: Int)
    /// The value at `path` has a kind that cannot become `expected`, and nothing above it can
    /// absorb the failure (it is the root, or a strict `Codable` type).
    case typeMismatch(path: String, expected: String, found: String)
    /// The key path asked for (`at: "data.list"`) is not in the document.
    case pathNotFound(path: String)
    /// Any other failure a strict `Decodable` type raised, with its coding path.
    case failed(path: String, message: String)

    public var description: String {
        switch self {
        case .invalidJSON(let message, let offset, let line, let column):
            "not valid JSON at line \(line), column \(column) (byte \(offset)): \(message)"
        case .typeMismatch(let path, let expected, let found):
            "\(path.isEmpty ? "<root>" : path): expected \(expected), found \(found)"
        case .pathNotFound(let path):
            "\(path): no such key path in the document"
        case .failed(let path, let message):
            "\(path.isEmpty ? "<root>" : path): \(message)"
        }
    }

    public var errorDescription: String? { description }

    /// The coding path the error names, `""` for the root or for syntax errors.
    public var path: String {
        switch self {
        case .invalidJSON: ""
        case .typeMismatch(let path, _, _), .pathNotFound(let path), .failed(let path, _): path
        }
    }
}

extension ModelDecodingError {
    /// Translates whatever a `Decoder` threw into Kiln's error, locating syntax errors in `data`.
    static func translating(_ error: any Error, data: Data?) -> ModelDecodingError {
        if let error = error as? ModelDecodingError { return error }
        guard let decodingError = error as? DecodingError else {
            return .failed(path: "", message: String(describing: error))
        }
        switch decodingError {
        case .typeMismatch(let type, let context):
            return .typeMismatch(
                path: CodingPathFormatter.format(context.codingPath), expected: Repair.typeName(type), found: foundKind(context.debugDescription))
        case .valueNotFound(let type, let context):
            return .typeMismatch(path: CodingPathFormatter.format(context.codingPath), expected: Repair.typeName(type), found: "null")
        case .keyNotFound(let key, let context):
            return .pathNotFound(path: CodingPathFormatter.format(context.codingPath + [key]))
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty, let data {
                let detail = (context.underlyingError as NSError?)?.userInfo[NSDebugDescriptionErrorKey] as? String ?? context.debugDescription
                if case .failure(let syntax) = data.withUnsafeBytes({ JSONDocument.read($0, options: JSONReaderOptions()) }) {
                    return syntax
                }
                // Valid JSON whose root value was refused (an enum's unknown raw value): the
                // value's error, as KilnDecoder reports it; only a parser's complaint (it comes
                // with an underlying error) is about the bytes.
                guard context.underlyingError != nil else {
                    return .failed(path: "", message: context.debugDescription)
                }
                return .invalidJSON(message: detail, offset: 0, line: 1, column: 1)
            }
            return .failed(path: CodingPathFormatter.format(context.codingPath), message: context.debugDescription)
        @unknown default:
            return .failed(path: "", message: String(describing: decodingError))
        }
    }

    private static func foundKind(_ description: String) -> String {
        // Foundation says "Expected to decode Int but found a string instead."
        guard let range = description.range(of: "found ") else { return description }
        let rest = description[range.upperBound...]
        return rest.replacingOccurrences(of: " instead.", with: "").trimmingCharacters(in: .punctuationCharacters)
    }
}

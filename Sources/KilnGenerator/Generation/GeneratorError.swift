/// Why the generator could not run with the given options.
public enum GeneratorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// `--name` is not usable as a Swift type name.
    case invalidTypeName(String)

    /// The message as one line, for the command line and logs.
    public var description: String {
        switch self {
        case .invalidTypeName(let name):
            "\"\(name)\" cannot name a Swift type; use letters, digits and _ (not first), and not a standard type's name"
        }
    }
}

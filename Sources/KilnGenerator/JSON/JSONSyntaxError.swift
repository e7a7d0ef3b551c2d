/// Why a sample is not JSON, and where: `line 3, column 14: expected ',' or '}' after an object member`.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public var message: String
    /// The 1-based line of the problem.
    public var line: Int
    /// The 1-based column (in characters) of the problem.
    public var column: Int

    /// An error at `line`, `column`.
    public init(message: String, line: Int, column: Int) {
        self.message = message
        self.line = line
        self.column = column
    }

    /// The message as one line, for the command line and logs.
    public var description: String { "line \(line), column \(column): \(message)" }
}

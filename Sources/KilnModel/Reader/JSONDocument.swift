import Foundation

/// A JSON document read by Kiln's own reader: strict RFC 8259, in pure Swift, straight from UTF-8.
///
/// Reading checks everything once — UTF-8, escapes and surrogate pairs, number grammar, nesting —
/// and records the structure on a flat tape, so later look-ups and skips cost nothing more.
/// Integers up to 64 bits stay exact; other numbers are correctly rounded doubles.
///
/// ```swift
/// let document = try JSONDocument(parsing: data)
/// let response = document.value          // a JSONValue
/// let list = document.value(at: "data.list")
/// ```
///
/// Most code never sees a document: ``KilnDecoder`` reads one for each decode.
public struct JSONDocument: Sendable {
    @usableFromInline let tape: JSONTape

    /// Reads UTF-8 bytes.
    /// - Throws: ``ModelDecodingError/invalidJSON(message:offset:line:column:)`` naming the first
    ///   byte that is not JSON, with its line and column.
    public init(parsing bytes: UnsafeRawBufferPointer, options: JSONReaderOptions = JSONReaderOptions()) throws(ModelDecodingError) {
        tape = try JSONDocument.read(bytes, options: options).get()
    }

    static func read(_ bytes: UnsafeRawBufferPointer, options: JSONReaderOptions) -> Result<JSONTape, ModelDecodingError> {
        do {
            return .success(try JSONTapeBuilder.parse(bytes, options: options))
        } catch {
            return .failure(ModelDecodingError.syntax(error, in: bytes))
        }
    }

    init(tape: JSONTape) {
        self.tape = tape
    }

    /// Reads a document from `data`.
    public init(parsing data: Data, options: JSONReaderOptions = JSONReaderOptions()) throws(ModelDecodingError) {
        tape = try data.withUnsafeBytes { JSONDocument.read($0, options: options) }.get()
    }

    /// Reads a document from UTF-8 bytes.
    public init(parsing bytes: [UInt8], options: JSONReaderOptions = JSONReaderOptions()) throws(ModelDecodingError) {
        tape = try bytes.withUnsafeBytes { JSONDocument.read($0, options: options) }.get()
    }

    /// Reads a document from text.
    public init(parsing text: String, options: JSONReaderOptions = JSONReaderOptions()) throws(ModelDecodingError) {
        var text = text
        tape = try text.withUTF8 { JSONDocument.read(UnsafeRawBufferPointer($0), options: options) }.get()
    }

    /// The whole document as a ``JSONValue``.
    public var value: JSONValue { tape.jsonValue(at: 0) }

    /// The value at `path`, or `nil` when the path leads nowhere.
    public func value(at path: JSONPath) -> JSONValue? {
        guard let index = tape.index(at: path.components, from: 0) else { return nil }
        return tape.jsonValue(at: index)
    }
}

extension JSONValue {
    /// Reads JSON text with Kiln's strict reader.
    ///
    /// ```swift
    /// let value = try JSONValue(parsing: #"{"id": 1, "tags": ["a"]}"#)
    /// ```
    /// - Throws: ``ModelDecodingError/invalidJSON(message:offset:line:column:)``.
    public init(parsing text: String) throws(ModelDecodingError) {
        self = try JSONDocument(parsing: text).value
    }

    /// Reads JSON bytes with Kiln's strict reader.
    public init(parsing data: Data) throws(ModelDecodingError) {
        self = try JSONDocument(parsing: data).value
    }
}

extension ModelDecodingError {
    /// Places a reader error in its document: line and column count from 1, the column in bytes.
    static func syntax(_ error: JSONSyntaxError, in bytes: UnsafeRawBufferPointer) -> ModelDecodingError {
        var line = 1
        var lineStart = 0
        let end = min(error.offset, bytes.count)
        for i in 0..<end where bytes[i] == UInt8(ascii: "\n") {
            line += 1
            lineStart = i + 1
        }
        return .invalidJSON(message: error.message, offset: error.offset, line: line, column: error.offset - lineStart + 1)
    }
}

/// Cuts a byte stream into lines as the bytes arrive, whatever the chunk boundaries.
///
/// A line ends at LF, CR or CRLF (the line ends of Server-Sent Events, and a superset of JSON
/// Lines'); a CRLF split between two chunks ends one line, not two. A UTF-8 byte-order mark at the
/// very start of the stream is dropped. A line longer than `maximumLength` fails the stream rather
/// than growing without bound.
struct LineSplitter {
    /// The longest line accepted, in bytes.
    let maximumLength: Int
    /// The bytes of the line not yet ended.
    private var partial: [UInt8] = []
    /// Whether the last byte seen was a CR (so a LF right after it ends nothing).
    private var afterCR = false
    /// Whether any line was cut yet (the byte-order mark can only lead the first).
    private var isFirstLine = true

    init(maximumLength: Int) {
        self.maximumLength = maximumLength
    }

    /// Calls `line` with each line `chunk` ends, without its line end.
    mutating func feed<C: Collection<UInt8>>(_ chunk: C, _ line: (ArraySlice<UInt8>) throws -> Void) throws where C.Index == Int {
        var start = chunk.startIndex
        var index = start
        let end = chunk.endIndex
        while index < end {
            let byte = chunk[index]
            guard byte == 0x0A || byte == 0x0D else {
                index += 1
                continue
            }
            if byte == 0x0A && afterCR && index == start && partial.isEmpty {
                // The LF of a CRLF whose CR ended the previous chunk's last line.
                afterCR = false
                index += 1
                start = index
                continue
            }
            try emit(chunk[start..<index], line)
            afterCR = byte == 0x0D
            index += 1
            if afterCR, index < end, chunk[index] == 0x0A {
                afterCR = false
                index += 1
            }
            start = index
        }
        if start < end {
            afterCR = false
            guard partial.count + (end - start) <= maximumLength else { throw StreamFormatError.lineTooLong(limit: maximumLength) }
            partial.append(contentsOf: chunk[start..<end])
        }
    }

    /// The last line, when the stream ended without a line end after it.
    mutating func finish() -> ArraySlice<UInt8>? {
        defer { partial = [] }
        guard !partial.isEmpty else { return nil }
        return stripBOM(partial[...])
    }

    private mutating func emit(_ piece: some Collection<UInt8>, _ line: (ArraySlice<UInt8>) throws -> Void) throws {
        if partial.isEmpty {
            try line(stripBOM(ArraySlice(piece)))
        } else {
            guard partial.count + piece.count <= maximumLength else { throw StreamFormatError.lineTooLong(limit: maximumLength) }
            partial.append(contentsOf: piece)
            let whole = partial[...]
            partial = []
            try line(stripBOM(whole))
        }
    }

    private mutating func stripBOM(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        guard isFirstLine else { return line }
        isFirstLine = false
        if line.starts(with: [0xEF, 0xBB, 0xBF]) { return line.dropFirst(3) }
        return line
    }
}

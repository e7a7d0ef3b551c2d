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
        let scanned: Void? = try chunk.withContiguousStorageIfAvailable { bytes in
            try feed(bytes, line)
        }
        if scanned == nil {
            try Array(chunk).withUnsafeBufferPointer { try feed($0, line) }
        }
    }

    private mutating func feed(_ bytes: UnsafeBufferPointer<UInt8>, _ line: (ArraySlice<UInt8>) throws -> Void) throws {
        let end = bytes.count
        guard end > 0 else { return }
        var start = 0
        if afterCR, bytes[0] == 0x0A {
            // The LF of a CRLF whose CR ended the previous chunk's last line.
            start = 1
        }
        afterCR = false
        var index = start
        while index < end {
            // The scan for a line end is the loop every byte goes through: kept to two compares.
            let byte = bytes[index]
            if byte > 0x0D || (byte != 0x0A && byte != 0x0D) {
                index &+= 1
                continue
            }
            try emit(UnsafeBufferPointer(rebasing: bytes[start..<index]), line)
            index &+= 1
            if byte == 0x0D {
                if index < end {
                    if bytes[index] == 0x0A { index &+= 1 }
                } else {
                    afterCR = true
                }
            }
            start = index
        }
        if start < end {
            guard partial.count + (end - start) <= maximumLength else { throw StreamFormatError.lineTooLong(limit: maximumLength) }
            partial.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
    }

    /// The last line, when the stream ended without a line end after it.
    mutating func finish() -> ArraySlice<UInt8>? {
        defer { partial = [] }
        guard !partial.isEmpty else { return nil }
        return stripBOM(partial[...])
    }

    private mutating func emit(_ piece: UnsafeBufferPointer<UInt8>, _ line: (ArraySlice<UInt8>) throws -> Void) throws {
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

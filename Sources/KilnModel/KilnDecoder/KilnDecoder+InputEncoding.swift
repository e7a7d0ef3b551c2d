import Foundation

/// The encodings `JSONDecoder` accepts besides plain UTF-8, so that ``KilnDecoder`` reads the
/// same bytes: a byte-order mark (UTF-8, UTF-16 or UTF-32, either end), or none and the zero
/// bytes among the first four (RFC 4627 §3: a JSON text opens with two ASCII characters).
///
/// The reader itself stays UTF-8 only; other input is transcoded once, before reading.
enum JSONInputEncoding {
    /// UTF-8 bytes for `bytes`: `nil` when they are UTF-8 already without a mark (read them as
    /// they are), otherwise a copy without the mark, transcoded when needed.
    /// - Throws: ``ModelDecodingError/invalidJSON(message:offset:line:column:)`` when the bytes do
    ///   not decode in the encoding their first bytes name.
    static func utf8(_ bytes: UnsafeRawBufferPointer) throws(ModelDecodingError) -> [UInt8]? {
        // The common case, a document opening with an ASCII character, costs two compares.
        if bytes.count >= 2, bytes[0] != 0, bytes[1] != 0, bytes[0] < 0xEF { return nil }
        let (encoding, mark) = detect(bytes)
        if encoding == .utf8 { return mark == 0 ? nil : Array(bytes.dropFirst(mark)) }
        guard let text = String(bytes: bytes.dropFirst(mark), encoding: encoding) else {
            throw ModelDecodingError.invalidJSON(message: "the bytes are not valid \(encoding)", offset: mark, line: 1, column: mark + 1)
        }
        return Array(text.utf8)
    }

    /// The encoding the first four bytes name, and the length of its mark.
    static func detect(_ bytes: UnsafeRawBufferPointer) -> (encoding: String.Encoding, mark: Int) {
        func byte(_ i: Int) -> UInt8? { i < bytes.count ? bytes[i] : nil }
        let b0 = byte(0), b1 = byte(1), b2 = byte(2), b3 = byte(3)
        // Marks first. Foundation reads FE FF 00 00 as UTF-32 little-endian's mark (it tests
        // with those bytes), and FF FE as UTF-16 little-endian's whatever follows.
        switch (b0, b1, b2, b3) {
        case (0, 0, 0xFE, 0xFF): return (.utf32BigEndian, 4)
        case (0xFE, 0xFF, 0, 0): return (.utf32LittleEndian, 4)
        case (0xFE, 0xFF, _, _): return (.utf16BigEndian, 2)
        case (0xFF, 0xFE, _, _): return (.utf16LittleEndian, 2)
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        default: break
        }
        // No mark: where the zero bytes fall around two ASCII characters. Two bytes alone (a
        // one-digit document in UTF-16) count too.
        let zero: [Bool?] = [b0, b1, b2, b3].map { $0.map { $0 == 0 } }
        switch (zero[0], zero[1], zero[2], zero[3]) {
        case (true, true, true, false): return (.utf32BigEndian, 0)
        case (true, false, true, false): return (.utf16BigEndian, 0)
        case (false, true, true, true): return (.utf32LittleEndian, 0)
        case (false, true, false, true): return (.utf16LittleEndian, 0)
        case (true, false, nil, nil): return (.utf16BigEndian, 0)
        case (false, true, nil, nil): return (.utf16LittleEndian, 0)
        default: return (.utf8, 0)
        }
    }
}

extension JSONDocument {
    /// Runs `body` with a document read from `bytes` (`Data`, `[UInt8]`) in any encoding
    /// `JSONDecoder` accepts, reading UTF-8 bytes in place rather than from a copy
    /// (``JSONTapeBuilder/parse(_:options:inPlace:)``). `body` must be done with the document when
    /// it returns; if anything it made still holds the document then, the document copies the
    /// bytes first (``JSONTape/keepBytes()``).
    static func reading<Bytes: ContiguousBytes, R>(
        anyEncoding bytes: Bytes, options: JSONReaderOptions, _ body: (JSONDocument) throws(ModelDecodingError) -> R
    ) throws(ModelDecodingError) -> R {
        try bytes.withUnsafeBytes { raw in
            Result { () throws(ModelDecodingError) -> R in try reading(anyEncoding: raw, options: options, body) }
        }.get()
    }

    static func reading<R>(
        anyEncoding bytes: UnsafeRawBufferPointer, options: JSONReaderOptions, _ body: (JSONDocument) throws(ModelDecodingError) -> R
    ) throws(ModelDecodingError) -> R {
        if let utf8 = try JSONInputEncoding.utf8(bytes) {
            return try utf8.withUnsafeBytes { raw in
                Result { () throws(ModelDecodingError) -> R in try reading(inPlace: raw, options: options, body) }
            }.get()
        }
        return try reading(inPlace: bytes, options: options, body)
    }

    static func reading<R>(
        inPlace bytes: UnsafeRawBufferPointer, options: JSONReaderOptions, _ body: (JSONDocument) throws(ModelDecodingError) -> R
    ) throws(ModelDecodingError) -> R {
        var tape: JSONTape
        do {
            tape = try JSONTapeBuilder.parse(bytes, options: options, inPlace: true)
        } catch {
            throw ModelDecodingError.syntax(error, in: bytes)
        }
        let result = Result { () throws(ModelDecodingError) -> R in try body(JSONDocument(tape: tape)) }
        // Before the caller's bytes go: the copy for whatever kept the document.
        if !isKnownUniquelyReferenced(&tape) { tape.keepBytes() }
        return try result.get()
    }
}

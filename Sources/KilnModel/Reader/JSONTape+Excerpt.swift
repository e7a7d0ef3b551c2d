/// Copies of chosen values of a tape, each with everything inside it, made into a small tape of
/// their own (``makeTape()``): what a repair log keeps of a document read in place, so that it
/// can let go of the caller's bytes without copying the whole document (``PendingRepairChunks``).
///
/// Each value's tokens are copied in order and its bytes as they are written (escapes, spaces
/// and all), so the copy reads exactly as the original: the same kinds, strings, numbers and
/// keys. Only where tokens point moves — into the excerpt's own bytes and tokens.
struct JSONTapeExcerpt: ~Copyable {
    private var tokens: UnsafeMutablePointer<JSONToken>
    private var tokenCount = 0
    private var tokenCapacity: Int
    /// Followed by the reader's padding, as a tape's own bytes are.
    private var bytes: UnsafeMutablePointer<UInt8>
    private var byteCount = 0
    private var byteCapacity: Int

    /// An excerpt with room for about `values` short values.
    init(reservingFor values: Int) {
        tokenCapacity = max(values, 16)
        tokens = .allocate(capacity: tokenCapacity)
        byteCapacity = 16 * tokenCapacity
        bytes = .allocate(capacity: byteCapacity + JSONTapeBuilder.padding)
    }

    deinit {
        tokens.deallocate()
        bytes.deallocate()
    }

    /// Copies the value at `index` of `tape`, with its descendants; returns its index in the
    /// excerpt.
    mutating func copy(_ index: Int, of tape: JSONTape) -> Int {
        let token = tape.tokens[index]
        let range: Range<Int>
        switch token.kind {
        case .string, .escapedString: range = Int(token.payload) - 1..<Int(token.payload) + Int(token.aux) + 1
        case .int, .uint, .double: range = Int(token.aux)..<Int(token.aux) + tape.numberBytes(at: index).count
        case .null, .true, .false, .object, .array: range = tape.byteRange(of: index)
        }
        let byteShift = byteCount - range.lowerBound
        reserve(bytes: max(range.count + 1, 16))
        let source = tape.base + range.lowerBound
        if range.count < 16, range.lowerBound + 16 <= tape.byteCount {
            // Most values are short (a number, an identifier): one 16-byte move, not a call.
            UnsafeMutableRawPointer(bytes + byteCount).storeBytes(of: UnsafeRawPointer(source).loadUnaligned(as: SIMD16<UInt8>.self), as: SIMD16<UInt8>.self)
        } else {
            (bytes + byteCount).update(from: source, count: range.count)
        }
        // A space after each value, so that a number's text ends where it did.
        bytes[byteCount + range.count] = UInt8(ascii: " ")
        byteCount += range.count + 1

        let first = tokenCount
        let end = tape.next(after: index)
        reserve(tokens: end - index)
        let tokenShift = first - index
        for old in index..<end {
            var token = tape.tokens[old]
            switch token.kind {
            case .string, .escapedString: token.payload += Int64(byteShift)
            case .object, .array: token.payload += Int64(tokenShift)
            case .null, .false, .true, .int, .uint, .double: token.aux = UInt32(truncatingIfNeeded: Int(token.aux) + byteShift)
            }
            (tokens + tokenCount).initialize(to: token)
            tokenCount += 1
        }
        return first
    }

    /// The tape of what was copied, owning the excerpt's memory.
    consuming func makeTape() -> JSONTape {
        Self.pad(bytes, after: byteCount)
        let tape = JSONTape(base: bytes, byteCount: byteCount, ownsBytes: true, tokens: tokens, tokenCount: tokenCount)
        discard self
        return tape
    }

    /// A tape of a copy of what was copied so far; the excerpt goes on.
    func tapeOfCopy() -> JSONTape {
        let copiedBytes = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCount + JSONTapeBuilder.padding)
        copiedBytes.initialize(from: bytes, count: byteCount)
        Self.pad(copiedBytes, after: byteCount)
        let copiedTokens = UnsafeMutablePointer<JSONToken>.allocate(capacity: max(tokenCount, 1))
        copiedTokens.initialize(from: tokens, count: tokenCount)
        return JSONTape(base: copiedBytes, byteCount: byteCount, ownsBytes: true, tokens: copiedTokens, tokenCount: tokenCount)
    }

    /// Ends the `count` bytes at `bytes` with the padding a tape's reader may load past its end.
    private static func pad(_ bytes: UnsafeMutablePointer<UInt8>, after count: Int) {
        (bytes + count).initialize(repeating: 0, count: JSONTapeBuilder.padding)
    }

    private mutating func reserve(bytes more: Int) {
        guard byteCount + more > byteCapacity else { return }
        byteCapacity = max(2 * byteCapacity, byteCount + more)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: byteCapacity + JSONTapeBuilder.padding)
        bigger.update(from: bytes, count: byteCount)
        bytes.deallocate()
        bytes = bigger
    }

    private mutating func reserve(tokens more: Int) {
        guard tokenCount + more > tokenCapacity else { return }
        tokenCapacity = max(2 * tokenCapacity, tokenCount + more)
        let bigger = UnsafeMutablePointer<JSONToken>.allocate(capacity: tokenCapacity)
        bigger.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = bigger
    }
}

internal import CKilnScan
import Foundation

/// How strictly ``JSONDocument`` reads bytes.
///
/// The defaults follow RFC 8259 to the letter; the only knob is how deep documents may nest,
/// so that hostile input ends in an error rather than exhausting memory.
///
/// ```swift
/// var options = JSONReaderOptions()
/// options.maxDepth = 64
/// let document = try JSONDocument(parsing: data, options: options)
/// ```
public struct JSONReaderOptions: Sendable, Hashable {
    /// How many arrays and objects may nest inside each other (default 512). Deeper documents
    /// are rejected with ``ModelDecodingError/invalidJSON(message:offset:line:column:)``.
    public var maxDepth: Int = 512

    /// Strict RFC 8259 reading with a nesting limit of 512.
    public init() {}
}

/// Where the reader stopped: internal, turned into ``ModelDecodingError/invalidJSON`` with a line
/// and column once, at the entry point.
struct JSONSyntaxError: Error {
    var message: String
    var offset: Int
}

/// Which tokens of a document read in place check for the end of what may be read in place
/// (``JSONTapeBuilder/anchor(in:count:)``).
protocol TailChecks {
    static var everyToken: Bool { get }
}

/// Strings alone: the anchor is a quote, which only a string passes.
enum StringsOnly: TailChecks {
    static var everyToken: Bool { false }
}

/// Every token: the anchor is a bracket, brace, comma or colon, which any token may start after.
enum EveryToken: TailChecks {
    static var everyToken: Bool { true }
}

/// The tape builder: one pass over the bytes, no recursion, every check of RFC 8259.
///
/// The bytes are followed by sixteen zero bytes. A zero is neither whitespace, a digit, a quote nor
/// a continuation byte, so every loop stops on it without a bounds check; only the places that
/// stop on a zero ask whether it was the end.
///
/// Reading in place (``parse(_:options:inPlace:)``), only the document's end is copied: the bytes
/// from an anchor on, sixteen bytes or more before the end (``anchor(in:count:)``). Usually the
/// anchor is a quote. Every loop of the reader stops on a quote (a string's scan on it, or on the
/// backslash that escapes it), so a loop that starts before the anchor stops there at the latest,
/// and its widest load, sixteen bytes, stays inside the document. Only a string passes a quote,
/// so the reader switches to the copy where a string could pass the anchor: before and after
/// each string, and after an escape in one (an escaped quote does not end the string).
struct JSONTapeBuilder {
    static let padding = 16

    /// Where the bytes are read: the document, or, past `switchAt`, a padded copy of its end
    /// addressed with the document's offsets.
    var p: UnsafeMutablePointer<UInt8>
    let count: Int
    let maxDepth: Int
    var tokens: UnsafeMutablePointer<JSONToken>
    var capacity: Int
    var tokenCount = 0
    /// The offset from which the reader must read the copy of the document's end; `Int.max`
    /// once it does, or when the whole document is a padded copy.
    var switchAt = Int.max
    /// The copy of the document's end, made when the reader reaches `switchAt`.
    var tail: UnsafeMutablePointer<UInt8>?

    /// Parses `bytes` into a tape.
    ///
    /// With `inPlace`, the tape reads the caller's bytes, which must outlive it and not change
    /// (``JSONTape/ownsBytes``); only the document's end is copied while reading. Otherwise, and for
    /// a document without an anchor near its end (``anchor(in:count:)``), the tape holds a copy.
    static func parse(_ bytes: UnsafeRawBufferPointer, options: JSONReaderOptions, inPlace: Bool = false) throws(JSONSyntaxError) -> JSONTape {
        guard UInt64(bytes.count) + UInt64(padding) < UInt64(UInt32.max) else {
            throw JSONSyntaxError(message: "documents larger than 4 GB are not supported", offset: 0)
        }
        let count = bytes.count
        let storage: UnsafeMutablePointer<UInt8>
        var switchAt = Int.max
        var checksEveryToken = false
        if inPlace, let source = bytes.baseAddress, let anchor = anchor(in: source, count: count) {
            storage = UnsafeMutablePointer(mutating: source.assumingMemoryBound(to: UInt8.self))
            (switchAt, checksEveryToken) = anchor
        } else {
            storage = paddedCopy(of: bytes.baseAddress, count: count)
        }
        let ownsBytes = switchAt == Int.max
        let capacity = estimatedTokens(storage, count: count)
        var builder = JSONTapeBuilder(
            p: storage, count: count, maxDepth: max(1, options.maxDepth),
            tokens: .allocate(capacity: capacity), capacity: capacity)
        builder.switchAt = switchAt
        defer { builder.tail?.deallocate() }
        do {
            if checksEveryToken { try builder.run(EveryToken.self) } else { try builder.run(StringsOnly.self) }
        } catch {
            builder.tokens.deallocate()
            if ownsBytes { storage.deallocate() }
            throw error
        }
        return JSONTape(base: storage, byteCount: count, ownsBytes: ownsBytes, tokens: builder.tokens, tokenCount: builder.tokenCount)
    }

    /// Where the reader may read in place up to, and whether every token must check it: `nil`
    /// when neither kind of anchor is among the last four kilobytes (before the last sixteen
    /// bytes).
    /// - The last quote: only a string can pass it.
    /// - Else (a document that ends in numbers), the last bracket, brace, comma or colon: every
    ///   loop but a string's scan stops on it, and a string's scan is bounded by it (a string
    ///   that reaches it has no quote left to end it); any token may start past it, so every
    ///   token checks.
    static func anchor(in bytes: UnsafeRawPointer, count: Int) -> (offset: Int, everyToken: Bool)? {
        let last = count - padding - 1
        let stop = max(0, last - 4_096)
        var i = last
        while i >= stop {
            if bytes.load(fromByteOffset: i, as: UInt8.self) == UInt8(ascii: "\"") { return (i, false) }
            i -= 1
        }
        i = last
        while i >= stop {
            switch bytes.load(fromByteOffset: i, as: UInt8.self) {
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: ","), UInt8(ascii: ":"):
                return (i, true)
            default: i -= 1
            }
        }
        return nil
    }

    /// A copy of the `count` bytes at `bytes`, followed by ``padding`` zero bytes.
    static func paddedCopy(of bytes: UnsafeRawPointer?, count: Int) -> UnsafeMutablePointer<UInt8> {
        let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: count + padding)
        if let bytes, count > 0 { UnsafeMutableRawPointer(copy).copyMemory(from: bytes, byteCount: count) }
        (copy + count).initialize(repeating: 0, count: padding)
        return copy
    }

    /// Reads on from a padded copy of the document's bytes from `start` on, at the same offsets.
    mutating func switchToTail(_ start: Int) {
        let copy = Self.paddedCopy(of: p + start, count: count - start)
        tail = copy
        // Addressed so that `p[start]` is the copy's first byte: made from the address, as it
        // points before the copy and is only read at `start` and after.
        p = UnsafeMutablePointer(bitPattern: UInt(bitPattern: copy) &- UInt(start)) ?? copy
        switchAt = Int.max
    }

    /// The tokens to reserve for a document of `count` bytes at `p`. A small document takes one
    /// per six bytes. A large one is sampled: four kilobytes, from four places, where each `,`
    /// `:` `{` or `[` comes before one value or key, and a quarter more covers the samples' error
    /// (twitter.json, citm_catalog.json and canada.json come within 20% of their counts). A tape
    /// that outgrows its estimate doubles (``grow()``); sized by the bytes alone, it reserved three
    /// to five times the tokens of a pretty-printed document, the larger part of the decode's
    /// peak memory.
    static func estimatedTokens(_ p: UnsafeMutablePointer<UInt8>, count: Int) -> Int {
        guard count >= 65_536 else { return max(16, count / 6) }
        let window = 1_024
        var separators = 0
        for eighth in stride(from: 1, to: 8, by: 2) {
            separators += kiln_separator_count(p + count * eighth / 8, window)
        }
        // Each value has one token and each key one; the estimate never passes the most a
        // document can hold (one token per two bytes).
        return min(separators * count / (4 * window) * 5 / 4 + 16, count / 2 + 16)
    }

    init(p: UnsafeMutablePointer<UInt8>, count: Int, maxDepth: Int, tokens: UnsafeMutablePointer<JSONToken>, capacity: Int) {
        self.p = p
        self.count = count
        self.maxDepth = maxDepth
        self.tokens = tokens
        self.capacity = capacity
    }

    @inline(__always)
    mutating func append(_ kind: JSONToken.Kind, _ payload: Int64, _ aux: UInt32, isASCII: Bool = false) {
        if tokenCount == capacity { grow() }
        (tokens + tokenCount).initialize(to: JSONToken(kind: kind, payload: payload, aux: aux, isASCII: isASCII))
        tokenCount &+= 1
    }

    mutating func grow() {
        let newCapacity = capacity * 2
        let bigger = UnsafeMutablePointer<JSONToken>.allocate(capacity: newCapacity)
        bigger.moveInitialize(from: tokens, count: tokenCount)
        tokens.deallocate()
        tokens = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func skipWhitespace(_ start: Int) -> Int { Self.skipWhitespace(p, start) }

    @inline(__always)
    static func skipWhitespace(_ p: UnsafeMutablePointer<UInt8>, _ start: Int) -> Int {
        var i = start
        while true {
            let b = p[i]
            if b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 { i &+= 1 } else { return i }
        }
    }

    /// Whitespace where pretty-printed documents break lines (after `{`, `[`, `,` and a value):
    /// a line break and its indentation are skipped sixteen spaces at a time (CKilnScan).
    ///
    /// Lines at one depth are indented alike (the members of an object, the elements of an
    /// array, and the bracket that closes their parent as the parent's own line): `indent` is
    /// the indentation last seen at the depth of the line's token. Where it is still right, the
    /// reader reads on from it while the scan only confirms it, rather than waiting for the
    /// scan's count to know where to read (each token's place hangs on the one before it;
    /// twitter.json is read in four fifths of the time). A line indented otherwise is counted,
    /// and its count kept for the next. Inline: out of line, the call cost more than the loop
    /// on indented documents (twitter.json 6% more instructions). The padding, or the anchor of
    /// a document read in place (not a space), stops the scan, and keeps its loads inside the
    /// memory read.
    @inline(__always)
    func skipLayout(_ start: Int, indent: UnsafeMutablePointer<Int>) -> Int {
        guard p[start] == 0x0A else { return skipWhitespace(start) }
        let line = start &+ 1
        let guess = indent.pointee
        if kiln_is_space_run(p + line, guess) != 0 { return Self.skipWhitespace(p, line &+ guess) }
        let counted = kiln_space_run_length(p + line)
        indent.pointee = counted
        return Self.skipWhitespace(p, line &+ counted)
    }

    func fail(_ message: String, _ offset: Int) -> JSONSyntaxError {
        JSONSyntaxError(message: message, offset: min(offset, count))
    }

    func unexpected(_ i: Int, expecting: String) -> JSONSyntaxError {
        if i >= count { return fail("unexpected end of input; expected \(expecting)", i) }
        let b = p[i]
        let shown = b >= 0x20 && b < 0x7F ? "'\(Character(Unicode.Scalar(b)))'" : "byte 0x\(String(b, radix: 16, uppercase: true))"
        return fail("unexpected \(shown); expected \(expecting)", i)
    }

    /// Reads the document. `Checks`: whether every token, or only a string, checks for the end
    /// of what may be read in place (``anchor(in:count:)``); specialized, so that a document
    /// whose anchor is a quote pays no check on its other tokens.
    ///
    /// Each turn of the loop reads one value at `i` (whitespace skipped), then what follows it:
    /// the ends of the containers it closes, then a comma and the next element or key, which
    /// the next turn reads the value of. A container that opens with a value starts the next
    /// turn at once. No flag says which of the two the loop is in: the code does.
    mutating func run<Checks: TailChecks>(_ checks: Checks.Type) throws(JSONSyntaxError) {
        // Container token indices, innermost last, and beside them the count of values read in
        // each container's parent when the container opened.
        let stack = UnsafeMutablePointer<Int>.allocate(capacity: 3 * (maxDepth + 1))
        defer { stack.deallocate() }
        let counts = stack + (maxDepth + 1)
        // And the indentation of the lines at each depth (``skipLayout(_:indent:)``).
        let indents = counts + (maxDepth + 1)
        indents.initialize(repeating: 0, count: maxDepth + 1)
        // Read from the builder once: its out-of-line calls could change it, for all the
        // compiler knows, so each use in the loop would load it again.
        let (count, maxDepth) = (self.count, self.maxDepth)
        var depth = 0
        var inObject = false
        // The values read so far in the innermost container (its members or elements), kept
        // here rather than in its token until it closes.
        var values: UInt32 = 0
        var i = skipWhitespace(0)
        while true {
            if Checks.everyToken, i >= switchAt { switchToTail(i) }
            values &+= 1
            let b = p[i]
            switch b {
            case UInt8(ascii: "\""):
                // Only a string passes a quote, so only a string may pass the anchor.
                if i >= switchAt { switchToTail(i) }
                i = try valueString(i, Checks.self)
                if i > switchAt { switchToTail(i) }
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                guard depth < maxDepth else { throw fail("nesting deeper than \(maxDepth) levels", i) }
                let isObject = b == UInt8(ascii: "{")
                stack[depth] = tokenCount
                counts[depth] = Int(values)
                depth += 1
                values = 0
                // An object's keys are plain until one is not (`key(_:of:)`).
                append(isObject ? .object : .array, 0, 0, isASCII: isObject)
                inObject = isObject
                i = skipLayout(i &+ 1, indent: indents + depth)
                if p[i] == (isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) {
                    depth -= 1
                    tokens[stack[depth]].payload = Int64(tokenCount)
                    values = UInt32(truncatingIfNeeded: counts[depth])
                    if depth > 0 { inObject = tokens[stack[depth - 1]].kind == .object }
                    i += 1
                } else {
                    if isObject { i = try key(i, of: stack[depth - 1], Checks.self) }
                    if i > count { throw fail("unexpected end of input", count) }
                    // The container's first value.
                    continue
                }
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                i = try number(i)
            case UInt8(ascii: "t"):
                guard p[i + 1] == UInt8(ascii: "r"), p[i + 2] == UInt8(ascii: "u"), p[i + 3] == UInt8(ascii: "e") else {
                    throw fail("invalid literal; expected 'true'", i)
                }
                append(.true, 0, UInt32(truncatingIfNeeded: i))
                i += 4
            case UInt8(ascii: "f"):
                guard p[i + 1] == UInt8(ascii: "a"), p[i + 2] == UInt8(ascii: "l"), p[i + 3] == UInt8(ascii: "s"), p[i + 4] == UInt8(ascii: "e") else {
                    throw fail("invalid literal; expected 'false'", i)
                }
                append(.false, 0, UInt32(truncatingIfNeeded: i))
                i += 5
            case UInt8(ascii: "n"):
                guard p[i + 1] == UInt8(ascii: "u"), p[i + 2] == UInt8(ascii: "l"), p[i + 3] == UInt8(ascii: "l") else {
                    throw fail("invalid literal; expected 'null'", i)
                }
                append(.null, 0, UInt32(truncatingIfNeeded: i))
                i += 4
            default:
                throw unexpected(i, expecting: "a value")
            }
            if i > count { throw fail("unexpected end of input", count) }
            // After the value: the ends of the containers it closes, then a comma and the next
            // element or key; or the end of the document.
            while true {
                if Checks.everyToken, i >= switchAt { switchToTail(i) }
                guard depth > 0 else {
                    i = skipWhitespace(i)
                    if i < count { throw unexpected(i, expecting: "the end of the document") }
                    return
                }
                // A comma or a bracket most often follows a value at once.
                // Before a comma, or the bracket that closes this container: a line of the depth above.
                if p[i] <= 0x20 { i = skipLayout(i, indent: indents + (depth - 1)) }
                let b = p[i]
                if b == UInt8(ascii: ",") {
                    // Whitespace from a token before the anchor may end past it.
                    if Checks.everyToken, i >= switchAt { switchToTail(i) }
                    i = skipLayout(i &+ 1, indent: indents + depth)
                    if inObject { i = try key(i, of: stack[depth - 1], Checks.self) }
                    break
                }
                guard b == (inObject ? UInt8(ascii: "}") : UInt8(ascii: "]")) else {
                    throw unexpected(i, expecting: inObject ? "',' or '}'" : "',' or ']'")
                }
                depth -= 1
                tokens[stack[depth]].payload = Int64(tokenCount)
                tokens[stack[depth]].aux = values
                values = UInt32(truncatingIfNeeded: counts[depth])
                if depth > 0 { inObject = tokens[stack[depth - 1]].kind == .object }
                i &+= 1
            }
        }
    }

    /// Reads `"key" :` of the object at token `object` and returns where the value starts. A key
    /// with an escape or a byte beyond ASCII marks the object's keys as not plain
    /// (``JSONTape/hasPlainKeys(_:)``).
    ///
    /// Most keys are plain ASCII and end before the anchor: those are read here, inline in
    /// ``run(_:)``, and every other key by ``anyKey(_:of:_:)``, out of line (the whole read is
    /// too large for Swift to inline). Nothing is appended before the fast read knows it applies.
    @inline(__always)
    mutating func key<Checks: TailChecks>(_ start: Int, of object: Int, _ checks: Checks.Type) throws(JSONSyntaxError) -> Int {
        if !Checks.everyToken, p[start] == UInt8(ascii: "\""), start < switchAt {
            let (end, appended) = plainString(start)
            if appended {
                var i = end &+ 1
                if p[i] == UInt8(ascii: ":") {
                    i &+= 1
                } else {
                    i = skipWhitespace(i)
                    guard p[i] == UInt8(ascii: ":") else { throw unexpected(i, expecting: "':' after a key") }
                    i &+= 1
                }
                // `"key": value`, the usual layout: one space, without the loop.
                if p[i] == 0x20, p[i &+ 1] > 0x20 { return i &+ 1 }
                return skipWhitespace(i)
            }
        }
        return try anyKey(start, of: object, Checks.self)
    }

    /// ``key(_:of:_:)`` for every key: escapes, text beyond ASCII, the anchor, a missing quote.
    @inline(never)
    mutating func anyKey<Checks: TailChecks>(_ start: Int, of object: Int, _ checks: Checks.Type) throws(JSONSyntaxError) -> Int {
        guard p[start] == UInt8(ascii: "\"") else { throw unexpected(start, expecting: "a string key") }
        if start >= switchAt { switchToTail(start) }
        let end = try string(start, Checks.self)
        if end > switchAt { switchToTail(end) }
        let i = skipWhitespace(end)
        let key = tokens[tokenCount &- 1]
        if !key.isASCII || key.kind != .string { tokens[object].isASCII = false }
        guard p[i] == UInt8(ascii: ":") else { throw unexpected(i, expecting: "':' after a key") }
        return skipWhitespace(i &+ 1)
    }
}

// MARK: - Strings

extension JSONTapeBuilder {
    /// ``string(_:_:)`` for a value: a plain ASCII string that ends before the anchor is read
    /// here, inline in ``run(_:)``; any other goes on from where the scan stopped, out of line.
    @inline(__always)
    mutating func valueString<Checks: TailChecks>(_ start: Int, _ checks: Checks.Type) throws(JSONSyntaxError) -> Int {
        guard !Checks.everyToken else { return try string(start, Checks.self) }
        // `run(_:)` has switched to the tail if `start` reached the anchor.
        let (end, appended) = plainString(start)
        return appended ? end &+ 1 : try string(start, resumingAt: end, Checks.self)
    }

    /// The string opening at `start`, before the anchor, when it is plain ASCII text that ends
    /// before the anchor: its token is appended and `end` is its closing quote. Otherwise nothing
    /// is appended and `end` is where the plain text stops. The anchor is a quote, so the scan
    /// stops there at the latest.
    @inline(__always)
    mutating func plainString(_ start: Int) -> (end: Int, appended: Bool) {
        let end = start &+ 1 &+ kiln_plain_text_length(p + (start &+ 1))
        guard p[end] == UInt8(ascii: "\""), end < switchAt else { return (end, false) }
        append(.string, Int64(start &+ 1), UInt32(truncatingIfNeeded: end &- start &- 1), isASCII: true)
        return (end, true)
    }

    /// Validates the string opening at `start` (a quote), appends its token, returns the index
    /// after the closing quote.
    @inline(__always)
    mutating func string<Checks: TailChecks>(_ start: Int, _ checks: Checks.Type) throws(JSONSyntaxError) -> Int {
        try string(start, resumingAt: start &+ 1, Checks.self)
    }

    /// ``string(_:_:)`` with the bytes from `start` to `resume` known to be plain ASCII text.
    @inline(never)
    mutating func string<Checks: TailChecks>(_ start: Int, resumingAt resume: Int, _ checks: Checks.Type) throws(JSONSyntaxError) -> Int {
        var j = resume
        var escaped = false
        var ascii = true
        while true {
            // Sixteen bytes at a time while they are plain ASCII with no quote, backslash or
            // control (CKilnScan: Swift's generic SIMD types do not vectorize this loop). The
            // zero padding after the document stops it at the end.
            if Checks.everyToken {
                // No quote near the end: a string that reaches the anchor cannot end before
                // it, and is read on from the copy.
                j &+= kiln_plain_text_length_within(p + j, max(0, switchAt &- j))
                if j >= switchAt {
                    switchToTail(j)
                    j &+= kiln_plain_text_length(p + j)
                }
            } else {
                j &+= kiln_plain_text_length(p + j)
            }
            let b = p[j]
            if b == UInt8(ascii: "\"") { break }
            if b == UInt8(ascii: "\\") {
                escaped = true
                j = try escape(j)
                // An escaped quote may be the anchor, which then no longer stops the scan.
                if j > switchAt { switchToTail(j) }
            } else if b < 0x20 {
                if j >= count { throw fail("unterminated string", start) }
                throw fail("control character U+\(String(b, radix: 16, uppercase: true)) must be escaped in a string", j)
            } else if b < 0x80 {
                j &+= 1
            } else {
                // Text outside ASCII comes in runs (a word, a sentence): validate the whole run
                // before going back to the eight-byte loop, which would stop at once.
                ascii = false
                repeat { j = try utf8Sequence(j) } while p[j] >= 0x80
            }
        }
        append(escaped ? .escapedString : .string, Int64(start &+ 1), UInt32(truncatingIfNeeded: j &- start &- 1), isASCII: ascii)
        return j &+ 1
    }

    /// Validates the escape at `i` (a backslash) and returns the index after it.
    mutating func escape(_ i: Int) throws(JSONSyntaxError) -> Int {
        switch p[i + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
            UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return i + 2
        case UInt8(ascii: "u"):
            let unit = try hex4(i + 2)
            if unit >= 0xDC00, unit < 0xE000 { throw fail("lone low surrogate \\u\(String(unit, radix: 16, uppercase: true))", i) }
            guard unit >= 0xD800, unit < 0xDC00 else { return i + 6 }
            guard p[i + 6] == UInt8(ascii: "\\"), p[i + 7] == UInt8(ascii: "u") else {
                throw fail("high surrogate \\u\(String(unit, radix: 16, uppercase: true)) is not followed by a low surrogate", i)
            }
            let low = try hex4(i + 8)
            guard low >= 0xDC00, low < 0xE000 else {
                throw fail("high surrogate \\u\(String(unit, radix: 16, uppercase: true)) is not followed by a low surrogate", i)
            }
            return i + 12
        default:
            throw fail("invalid escape sequence", i)
        }
    }

    func hex4(_ i: Int) throws(JSONSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for k in 0..<4 {
            let digit = JSONTape.hexValue(p[i + k])
            guard digit != 0xFF else { throw fail("expected four hex digits after \\u", i + k) }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    /// Validates the multi-byte UTF-8 sequence starting at `i`, and the one after it where both
    /// are three bytes long; returns the index after what it validated. The common forms are
    /// checked in one eight-byte load (the padding after the document, or the anchor of one read
    /// in place, keeps it inside the allocation): three bytes led by E1–EC or EE–EF (most CJK
    /// text), two of them at once, and two bytes led by C2–DF (accented Latin, Greek, Cyrillic).
    /// Two three-byte characters with a lead of a third after them are a run of CJK text,
    /// validated on fifteen bytes at a time as far as it keeps that form (CKilnScan, under the
    /// same terms as the string scan). Anything else takes the full check.
    @inline(__always)
    func utf8Sequence(_ i: Int) throws(JSONSyntaxError) -> Int {
        let word = UInt64(littleEndian: UnsafeRawPointer(p + i).loadUnaligned(as: UInt64.self))
        if word & 0xC0_C0F0 == 0x80_80E0 {
            // A lead of E0 or ED needs the full check (overlong forms, surrogates): bits 0 and
            // 13 of 0x2001, picked by a lead's low four bits.
            if word & 0xC0C0_F000_0000 == 0x8080_E000_0000 {
                if (0x2001 &>> (word & 0xF) | 0x2001 &>> (word &>> 24 & 0xF)) & 1 == 0 {
                    // The seventh byte, in the word already: a third lead (E0 and above) or not.
                    guard word &>> 53 & 0x7 == 0x7 else { return i &+ 6 }
                    return i &+ 6 &+ kiln_three_byte_run_length(p + (i &+ 6))
                }
            } else if (0x2001 &>> (word & 0xF)) & 1 == 0 {
                return i &+ 3
            }
        } else if word & 0xC0E0 == 0x80C0, UInt8(truncatingIfNeeded: word) >= 0xC2 {
            return i &+ 2
        }
        return try utf8SequenceChecked(i)
    }

    /// ``utf8Sequence(_:)`` for every form, byte by byte.
    func utf8SequenceChecked(_ i: Int) throws(JSONSyntaxError) -> Int {
        let b0 = p[i]
        @inline(__always) func isContinuation(_ b: UInt8) -> Bool { b & 0xC0 == 0x80 }
        if b0 >= 0xC2, b0 <= 0xDF {
            if isContinuation(p[i + 1]) { return i + 2 }
        } else if b0 >= 0xE0, b0 <= 0xEF {
            let b1 = p[i + 1]
            let lower: UInt8 = b0 == 0xE0 ? 0xA0 : 0x80
            let upper: UInt8 = b0 == 0xED ? 0x9F : 0xBF
            if b1 >= lower, b1 <= upper, isContinuation(p[i + 2]) { return i + 3 }
        } else if b0 >= 0xF0, b0 <= 0xF4 {
            let b1 = p[i + 1]
            let lower: UInt8 = b0 == 0xF0 ? 0x90 : 0x80
            let upper: UInt8 = b0 == 0xF4 ? 0x8F : 0xBF
            if b1 >= lower, b1 <= upper, isContinuation(p[i + 2]), isContinuation(p[i + 3]) { return i + 4 }
        }
        throw fail("invalid UTF-8", i)
    }
}

// MARK: - Numbers

extension JSONTapeBuilder {
    /// Exact powers of ten: a mantissa below 2^53 times or divided by one of these rounds once,
    /// so the result is correctly rounded (Clinger's fast path).
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]

    /// 10^0 through 10^8.
    static let integerPowersOfTen: [UInt64] = [1, 10, 100, 1_000, 10_000, 100_000, 1_000_000, 10_000_000, 100_000_000]

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool { b &- UInt8(ascii: "0") < 10 }

    /// How many ASCII digits (up to eight) start at `at`, and their value, read as one 64-bit word:
    /// a digit is a byte whose value minus "0" is below ten; the digits are moved to the top of
    /// the word (the bytes after them fall out, zeros come in as leading zeros), then combined
    /// pairwise — 2 digits, 4, 8 — with one multiply per step. Reads eight bytes: the padding
    /// after the document keeps that inside the allocation.
    @inline(__always)
    static func digits(at: UnsafeMutablePointer<UInt8>) -> (count: Int, value: UInt64) {
        let word = UInt64(littleEndian: UnsafeRawPointer(at).loadUnaligned(as: UInt64.self))
        let values = word ^ 0x3030_3030_3030_3030
        // The top bit of each byte that is not a digit: its value is 10 or more, or it had the top bit.
        let notDigits = (((values & 0x7F7F_7F7F_7F7F_7F7F) &+ 0x7676_7676_7676_7676) | values) & 0x8080_8080_8080_8080
        let count = notDigits == 0 ? 8 : notDigits.trailingZeroBitCount >> 3
        guard count > 0 else { return (0, 0) }
        var v = values &<< UInt64(8 * (8 - count))
        v = ((v & 0x0F0F_0F0F_0F0F_0F0F) &* 2561) &>> 8
        v = ((v & 0x00FF_00FF_00FF_00FF) &* 6_553_601) &>> 16
        v = ((v & 0x0000_FFFF_0000_FFFF) &* 42_949_672_960_001) &>> 32
        return (count, v)
    }

    /// Reads the number at `start`, appends its token, returns the index after it. Inline, the
    /// integer part (eight digits at a time, up to sixteen) and the most common number, an
    /// integer that ends there (`205705993`, `-42`); more digits, a fraction or an exponent go on
    /// out of line (``number(_:negative:digits:at:)``).
    @inline(__always)
    mutating func number(_ start: Int) throws(JSONSyntaxError) -> Int {
        var i = start
        let negative = p[i] == UInt8(ascii: "-")
        if negative { i &+= 1 }
        var mantissa: UInt64 = 0
        let lead = p[i]
        if lead &- UInt8(ascii: "1") < 9 {
            let first = Self.digits(at: p + i)
            mantissa = first.value
            i &+= first.count
            if first.count == 8, Self.isDigit(p[i]) {
                if !Self.isDigit(p[i &+ 1]) {
                    // Nine digits, the length of many ids: the last one alone.
                    mantissa = mantissa &* 10 &+ UInt64(p[i] &- UInt8(ascii: "0"))
                    i &+= 1
                } else {
                    let second = Self.digits(at: p + i)
                    mantissa = mantissa &* Self.integerPowersOfTen[second.count] &+ second.value
                    i &+= second.count
                }
            }
        } else if lead == UInt8(ascii: "0") {
            i &+= 1
            if Self.isDigit(p[i]) { throw fail("leading zeros are not allowed in numbers", start) }
        } else {
            throw unexpected(i, expecting: "a digit")
        }
        let next = p[i]
        guard Self.isDigit(next) || next == UInt8(ascii: ".") || next | 0x20 == UInt8(ascii: "e") else {
            // Below 10^16: an `Int64` either way.
            append(.int, negative ? Int64(bitPattern: 0 &- mantissa) : Int64(bitPattern: mantissa), UInt32(truncatingIfNeeded: start))
            return i
        }
        return try number(start, negative: negative, digits: mantissa, at: i)
    }

    /// The rest of the number at `start` after its first digits (`mantissa`, up to `index`):
    /// more digits, one at a time watching for overflow, a fraction, an exponent.
    @inline(never)
    mutating func number(_ start: Int, negative: Bool, digits mantissa: UInt64, at index: Int) throws(JSONSyntaxError) -> Int {
        var i = index
        var mantissa = mantissa
        var overflow = false
        var exponent = 0
        while Self.isDigit(p[i]) {
            let digit = UInt64(p[i] &- UInt8(ascii: "0"))
            let (times10, o1) = mantissa.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(digit)
            if o1 || o2 { overflow = true } else { mantissa = sum }
            i += 1
        }
        var isInteger = true
        if p[i] == UInt8(ascii: ".") {
            isInteger = false
            i += 1
            guard Self.isDigit(p[i]) else { throw unexpected(i, expecting: "a digit after '.'") }
            // Eight digits at a time while the mantissa has room for them (below 10^11, eight
            // more stay below 10^19); then one at a time, as for long integers.
            while !overflow, mantissa < 100_000_000_000 {
                let chunk = Self.digits(at: p + i)
                mantissa = mantissa &* Self.integerPowersOfTen[chunk.count] &+ chunk.value
                exponent -= chunk.count
                i += chunk.count
                if chunk.count < 8 { break }
            }
            while Self.isDigit(p[i]) {
                if !overflow, mantissa < 0x1999_9999_9999_9999 {
                    mantissa = mantissa * 10 + UInt64(p[i] &- UInt8(ascii: "0"))
                    exponent -= 1
                } else {
                    overflow = true
                }
                i += 1
            }
        }
        if p[i] | 0x20 == UInt8(ascii: "e") {
            isInteger = false
            i += 1
            var exponentNegative = false
            if p[i] == UInt8(ascii: "+") || p[i] == UInt8(ascii: "-") {
                exponentNegative = p[i] == UInt8(ascii: "-")
                i += 1
            }
            guard Self.isDigit(p[i]) else { throw unexpected(i, expecting: "a digit in the exponent") }
            var written = 0
            while Self.isDigit(p[i]) {
                if written < 100_000 { written = written * 10 + Int(p[i] &- UInt8(ascii: "0")) }
                i += 1
            }
            exponent += exponentNegative ? -written : written
        }
        let offset = UInt32(truncatingIfNeeded: start)
        if isInteger, !overflow {
            if !negative {
                if mantissa <= UInt64(Int64.max) {
                    append(.int, Int64(mantissa), offset)
                } else {
                    append(.uint, Int64(bitPattern: mantissa), offset)
                }
                return i
            }
            if mantissa <= UInt64(Int64.max) + 1 {
                append(.int, Int64(bitPattern: 0 &- mantissa), offset)
                return i
            }
        }
        var value: Double
        if !overflow, mantissa <= 1 << 53, exponent >= -22, exponent <= 22 {
            value = Double(mantissa)
            value = exponent < 0 ? value / Self.powersOfTen[-exponent] : value * Self.powersOfTen[exponent]
            if negative { value = -value }
        } else if !overflow, let exact = DecimalDouble.value(mantissa: mantissa, exponent: exponent, negative: negative) {
            value = exact
        } else {
            let text = String(decoding: UnsafeBufferPointer(start: p + start, count: i - start), as: UTF8.self)
            guard let parsed = Double(text) else { throw fail("unreadable number", start) }
            value = parsed
        }
        guard value.isFinite else { throw fail("number out of the range of Double", start) }
        append(.double, Int64(bitPattern: value.bitPattern), offset)
        return i
    }
}

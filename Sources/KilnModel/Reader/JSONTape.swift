internal import CKilnScan
import KilnSupport

/// One entry of a parsed document's tape: a scalar, a string's byte range, or a container's
/// extent. Sixteen bytes, so a whole document's structure sits in one flat allocation.
@usableFromInline
struct JSONToken {
    /// What the entry holds.
    @usableFromInline
    enum Kind: UInt8 {
        case null, `false`, `true`, int, uint, double, string, escapedString, object, array
    }

    /// string: byte offset of the content (after the quote); object/array: index of the token
    /// after the container's last descendant; int: the value; uint/double: the bit pattern.
    @usableFromInline var payload: Int64
    /// string: byte length of the raw content; object/array: member or element count;
    /// scalars: byte offset of the value in the document.
    @usableFromInline var aux: UInt32
    @usableFromInline var kind: Kind
    /// string: every byte of the raw content is ASCII; object: every key is a string of ASCII
    /// bytes without escapes, so that keys equal as Swift strings exactly when their bytes do
    /// (``JSONTape/hasPlainKeys(_:)``). It fits the token's padding.
    @usableFromInline var isASCII: Bool

    @inlinable init(kind: Kind, payload: Int64, aux: UInt32, isASCII: Bool = false) {
        self.kind = kind
        self.payload = payload
        self.aux = aux
        self.isASCII = isASCII
    }
}

/// A parsed document: its bytes (a copy of its own, or, while a decode reads them in place, the
/// caller's) and the tape of tokens over them.
///
/// Immutable once built, so it can be shared between threads. Containers know where they end,
/// so skipping a subtree is one load; strings stay as byte ranges until someone reads them.
@usableFromInline
final class JSONTape: @unchecked Sendable {
    /// The document's bytes: the tape's own copy, followed by padding, or the caller's bytes
    /// (``ownsBytes``). Reads of the bytes stay inside the document's `byteCount`.
    @usableFromInline @exclusivity(unchecked) private(set) var base: UnsafeMutablePointer<UInt8>
    /// The document's length in bytes, padding excluded.
    @usableFromInline let byteCount: Int
    @usableFromInline let tokens: UnsafeMutablePointer<JSONToken>
    @usableFromInline let tokenCount: Int
    /// Whether `base` is the tape's own copy; otherwise it reads the bytes it was parsed from in
    /// place, for a decode that ends before they do (``keepBytes()``).
    @exclusivity(unchecked) private(set) var ownsBytes: Bool

    init(base: UnsafeMutablePointer<UInt8>, byteCount: Int, ownsBytes: Bool, tokens: UnsafeMutablePointer<JSONToken>, tokenCount: Int) {
        self.base = base
        self.byteCount = byteCount
        self.ownsBytes = ownsBytes
        self.tokens = tokens
        self.tokenCount = tokenCount
    }

    deinit {
        if ownsBytes { base.deallocate() }
        tokens.deallocate()
    }

    /// Copies the bytes a tape read in place, for a tape that outlives them: a decode that read
    /// in place calls it when something it made still holds the tape (a repair kept from `onRepair`, a `Decoder`
    /// kept by an `init(from:)`), before the caller's bytes go away. It runs as the decode
    /// returns; only a `Decoder` kept and used on another thread during the decode would read
    /// `base` while it changes.
    func keepBytes() {
        guard !ownsBytes else { return }
        base = JSONTapeBuilder.paddedCopy(of: base, count: byteCount)
        ownsBytes = true
    }

    /// The index of the token after the value at `index` and all its descendants.
    @inlinable @inline(__always)
    func next(after index: Int) -> Int {
        let token = tokens[index]
        return token.kind.rawValue >= JSONToken.Kind.object.rawValue ? Int(token.payload) : index + 1
    }

    /// Whether every key of the object at `object` is ASCII written without escapes: a key then
    /// equals another string as Swift compares strings exactly when their bytes are equal.
    @inlinable @inline(__always)
    func hasPlainKeys(_ object: Int) -> Bool { tokens[object].isASCII }

    /// Whether `bytes` are all ASCII. Keys up to 16 bytes, nearly all of them, take two loads
    /// that may overlap; inlined, as it runs after every byte-wise miss of a key.
    @inlinable @inline(__always)
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let n = bytes.count
        guard let p = bytes.baseAddress, n > 0 else { return true }
        if n >= 8 {
            guard n <= 16 else { return isASCII(long: bytes) }
            let words = p.loadUnaligned(as: UInt64.self) | p.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            return words & 0x8080_8080_8080_8080 == 0
        }
        if n >= 4 {
            let words = p.loadUnaligned(as: UInt32.self) | p.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            return words & 0x8080_8080 == 0
        }
        // One to three bytes: the first, the middle and the last cover them all.
        return (bytes[0] | bytes[n &>> 1] | bytes[n &- 1]) & 0x80 == 0
    }

    @usableFromInline
    static func isASCII(long bytes: UnsafeRawBufferPointer) -> Bool {
        var high: UInt64 = 0
        var i = 0
        while i &+ 8 <= bytes.count {
            high |= bytes.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            i &+= 8
        }
        if i < bytes.count { high |= bytes.loadUnaligned(fromByteOffset: bytes.count &- 8, as: UInt64.self) }
        return high & 0x8080_8080_8080_8080 == 0
    }

    /// The value index of the member `key` (raw UTF-8 bytes) of the object at `object`, or `nil`.
    /// Starts looking at `hint` (a key token index inside the object, e.g. just after the member
    /// found last) and wraps around, so members read in document order are found in one step.
    @inlinable
    func member(of object: Int, key: UnsafeRawBufferPointer, hint: Int = 0) -> Int? {
        let end = Int(tokens[object].payload)
        let first = object + 1
        let from = hint > object && hint < end ? hint : first
        if let found = scanMembers(from: from, to: end, key: key) { return found }
        if from != first { return scanMembers(from: first, to: from, key: key) }
        return nil
    }

    @inlinable
    func scanMembers(from start: Int, to end: Int, key: UnsafeRawBufferPointer) -> Int? {
        let length = UInt32(truncatingIfNeeded: key.count)
        let keyBase = key.baseAddress ?? UnsafeRawPointer(base)
        var i = start
        while i < end {
            let keyToken = tokens[i]
            if keyToken.aux == length, keyToken.kind == .string {
                if JSONTape.bytesEqual(base + Int(keyToken.payload), keyBase, count: key.count) { return i + 1 }
            } else if keyToken.kind == .escapedString, escapedKey(at: i, equals: key) {
                return i + 1
            }
            i = next(after: i + 1)
        }
        return nil
    }

    /// Whether `count` bytes at `a` and `b` are equal. Keys up to sixteen bytes, nearly all of
    /// them, take two loads per side that may overlap, without a call to `memcmp`.
    @inlinable @inline(__always)
    static func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count n: Int) -> Bool {
        if n >= 8 {
            guard n <= 16 else { return memcmp(a, b, n) == 0 }
            let head = a.loadUnaligned(as: UInt64.self) ^ b.loadUnaligned(as: UInt64.self)
            let tail = a.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self) ^ b.loadUnaligned(fromByteOffset: n &- 8, as: UInt64.self)
            return head | tail == 0
        }
        if n >= 4 {
            let head = a.loadUnaligned(as: UInt32.self) ^ b.loadUnaligned(as: UInt32.self)
            let tail = a.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self) ^ b.loadUnaligned(fromByteOffset: n &- 4, as: UInt32.self)
            return head | tail == 0
        }
        guard n > 0 else { return true }
        // One to three bytes: the first, the middle and the last cover them all.
        let x = a.assumingMemoryBound(to: UInt8.self)
        let y = b.assumingMemoryBound(to: UInt8.self)
        return x[0] == y[0] && x[n &>> 1] == y[n &>> 1] && x[n &- 1] == y[n &- 1]
    }

    /// Whether the string tokens at `a` and `b` are written alike: the same bytes between
    /// their quotes, so the same string.
    func isWrittenAlike(_ a: Int, _ b: Int) -> Bool {
        let first = tokens[a]
        let second = tokens[b]
        return first.kind == second.kind && first.aux == second.aux
            && JSONTape.bytesEqual(base + Int(first.payload), base + Int(second.payload), count: Int(first.aux))
    }

    @usableFromInline
    func escapedKey(at index: Int, equals key: UnsafeRawBufferPointer) -> Bool {
        let text = string(at: index)
        var copy = text
        return copy.withUTF8 { utf8 in
            guard utf8.count == key.count else { return false }
            guard let a = utf8.baseAddress, let b = key.baseAddress else { return true }
            return memcmp(a, b, key.count) == 0
        }
    }

    /// The string at `index` (a string token), unescaped.
    @inlinable
    func string(at index: Int) -> String {
        Self.string(tokens[index], in: base)
    }

    /// The string of `token` (a string token) of the document at `base`, unescaped.
    @inlinable @inline(__always)
    static func string(_ token: JSONToken, in base: UnsafeMutablePointer<UInt8>) -> String {
        let raw = rawBytes(of: token, in: base)
        if token.kind == .string { return JSONTape.string(validated: raw, isASCII: token.isASCII) }
        return JSONTape.unescape(raw, isASCII: token.isASCII)
    }

    /// A string of bytes the reader has already validated as UTF-8, copied without a second
    /// validation where the standard library allows it (`UTF8Span`). `isASCII` must be exact when
    /// `true`; `false` only means "maybe not".
    @inlinable @inline(__always)
    static func string(validated bytes: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
            return String(copying: UTF8Span(unchecked: bytes.span, isKnownASCII: isASCII))
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The raw UTF-8 bytes of the string at `index`, escapes left as written.
    @inlinable
    func rawBytes(at index: Int) -> UnsafeBufferPointer<UInt8> {
        Self.rawBytes(of: tokens[index], in: base)
    }

    /// The raw UTF-8 bytes of `token` (a string token) of the document at `base`.
    @inlinable @inline(__always)
    static func rawBytes(of token: JSONToken, in base: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + Int(token.payload), count: Int(token.aux))
    }

    /// Resolves the escapes of a string the reader has validated (every escape well formed,
    /// surrogates paired, the text between escapes valid UTF-8 with no quote or control). The
    /// result is never longer than `raw`: an escape of two bytes gives one, `\uXXXX` (six) at most
    /// three, a surrogate pair (twelve) four. `isASCII` is the token's: exact when `true`.
    @usableFromInline
    static func unescape(_ raw: UnsafeBufferPointer<UInt8>, isASCII: Bool) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: max(raw.count, 1)) { out in
            var o = 0
            var i = 0
            var ascii = isASCII
            let n = raw.count
            guard let start = raw.baseAddress, let target = out.baseAddress else { return "" }
            while i < n {
                // The text up to the next escape is copied whole: validated, only a backslash
                // can stop it, and `memchr` finds that without reading past the text.
                let found = memchr(start + i, Int32(UInt8(ascii: "\\")), n - i)
                let escape = found.map { UnsafeRawPointer($0) - UnsafeRawPointer(start) } ?? n
                if escape > i {
                    (target + o).update(from: start + i, count: escape - i)
                    o += escape - i
                    i = escape
                    continue
                }
                guard i + 1 < n else {
                    // A backslash ending the text, which a validated string never has: kept as is.
                    out[o] = raw[i]
                    o += 1
                    i += 1
                    continue
                }
                let e = raw[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "b"): out[o] = 0x08
                case UInt8(ascii: "f"): out[o] = 0x0C
                case UInt8(ascii: "n"): out[o] = 0x0A
                case UInt8(ascii: "r"): out[o] = 0x0D
                case UInt8(ascii: "t"): out[o] = 0x09
                case UInt8(ascii: "u"):
                    var scalar = hex4(raw, i)
                    i += 4
                    if scalar >= 0xD800, scalar < 0xDC00, i + 6 <= n, raw[i] == UInt8(ascii: "\\"), raw[i + 1] == UInt8(ascii: "u") {
                        let low = hex4(raw, i + 2)
                        if low >= 0xDC00, low < 0xE000 {
                            scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                            i += 6
                        }
                    }
                    let value = Unicode.Scalar(scalar) ?? "\u{FFFD}"
                    if value.isASCII {
                        out[o] = UInt8(truncatingIfNeeded: value.value)
                    } else {
                        ascii = false
                        for unit in value.utf8 {
                            out[o] = unit
                            o += 1
                        }
                        continue
                    }
                default: out[o] = e
                }
                o += 1
            }
            return string(validated: UnsafeBufferPointer(rebasing: out[..<o]), isASCII: ascii)
        }
    }

    @usableFromInline
    static func hex4(_ raw: UnsafeBufferPointer<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for k in at..<min(at + 4, raw.count) {
            value = value << 4 | UInt32(hexValue(raw[k]))
        }
        return value
    }

    @inlinable @inline(__always)
    static func hexValue(_ b: UInt8) -> UInt8 {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): b &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): b &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): b &- UInt8(ascii: "A") &+ 10
        default: 0xFF
        }
    }

    /// The number at `index` as written in the document.
    func numberText(at index: Int) -> String {
        String(decoding: numberBytes(at: index), as: UTF8.self)
    }

    /// The value at `index` as decoding a ``JSONValue`` gives it, whichever decoder and path reads
    /// it: `JSONValue.init(from:)` asks for `Int64` before `Double`, so a number written with a
    /// fraction or an exponent whose value is an integer that fits `Int64` is that integer, as its
    /// text says (`1.0` is `1`), at any depth. The tolerant rules coerce from this value and the
    /// repair log shows it. ``jsonValue(at:)`` keeps such numbers as written.
    @usableFromInline
    func decodedValue(at index: Int) -> JSONValue { jsonValue(at: index, integralAsIntegers: true) }

    /// The value at `index` as a ``JSONValue``.
    @usableFromInline
    func jsonValue(at index: Int) -> JSONValue { jsonValue(at: index, integralAsIntegers: false) }

    func jsonValue(at index: Int, integralAsIntegers: Bool) -> JSONValue {
        let token = tokens[index]
        switch token.kind {
        case .null: return .null
        case .false: return .bool(false)
        case .true: return .bool(true)
        case .int: return .int(token.payload)
        case .uint: return .double(Double(UInt64(bitPattern: token.payload)))
        case .double:
            let value = Double(bitPattern: UInt64(bitPattern: token.payload))
            // Only a value without a fraction can be one; its text says whether it is exactly.
            if integralAsIntegers, value.rounded(.towardZero) == value, value.magnitude <= 0x1p63,
                let exact = exactInteger(Int64.self, at: index)
            {
                return .int(exact)
            }
            return .double(value)
        case .string, .escapedString: return .string(string(at: index))
        case .array:
            var items: [JSONValue] = []
            items.reserveCapacity(Int(token.aux))
            var i = index + 1
            let end = Int(token.payload)
            while i < end {
                items.append(jsonValue(at: i, integralAsIntegers: integralAsIntegers))
                i = next(after: i)
            }
            return .array(items)
        case .object:
            var members: [String: JSONValue] = [:]
            members.reserveCapacity(Int(token.aux))
            var i = index + 1
            let end = Int(token.payload)
            while i < end {
                members[string(at: i)] = jsonValue(at: i + 1, integralAsIntegers: integralAsIntegers)
                i = next(after: i + 1)
            }
            return .object(members)
        }
    }

    /// The path from the root to the value at `target`: how coding paths are rebuilt, only when a
    /// repair or an error needs one.
    func path(to target: Int) -> [JSONPath.Component] {
        var components: [JSONPath.Component] = []
        var current = 0
        while current != target, current < tokenCount {
            let token = tokens[current]
            let end = Int(token.payload)
            guard token.kind == .object || token.kind == .array, target < end else { break }
            var i = current + 1
            var position = 0
            var found = false
            while i < end {
                let valueIndex = token.kind == .object ? i + 1 : i
                let after = next(after: valueIndex)
                if target < after {
                    if target == i, token.kind == .object {
                        // A key token itself: name the member.
                        components.append(.key(string(at: i)))
                        return components
                    }
                    components.append(token.kind == .object ? .key(string(at: i)) : .index(position))
                    current = valueIndex
                    found = true
                    break
                }
                i = after
                position += 1
            }
            if !found { break }
        }
        return components
    }

    /// The name of the JSON kind at `index`, as Foundation's errors say it.
    func kindName(at index: Int) -> String {
        switch tokens[index].kind {
        case .null: "null"
        case .false, .true: "bool"
        case .int, .uint, .double: "number"
        case .string, .escapedString: "string"
        case .array: "array"
        case .object: "dictionary"
        }
    }
}

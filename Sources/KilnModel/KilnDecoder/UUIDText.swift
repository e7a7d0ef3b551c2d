import Foundation

/// A UUID written in its canonical form, read from the bytes of a document: 36 bytes, hyphens at
/// 8, 13, 18 and 23, and a hexadecimal digit of either case everywhere else. `nil` for any other
/// text, which the caller leaves to `UUID(uuidString:)`: Foundation's parser reads with `sscanf`
/// and takes more (a space or a sign inside a group), at some ten thousand instructions a value
/// where this takes under two hundred. On canonical texts the two agree (`UUIDTextTests`).
enum UUIDText {
    static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36 else { return nil }
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let parsed = withUnsafeMutableBytes(of: &bytes) { out -> Bool in
            var i = 0
            for byte in 0..<16 {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard text[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                }
                let high = JSONTape.hexValue(text[i])
                let low = JSONTape.hexValue(text[i + 1])
                guard high < 16, low < 16 else { return false }
                out[byte] = high << 4 | low
                i += 2
            }
            return true
        }
        return parsed ? UUID(uuid: bytes) : nil
    }
}

extension KilnDecodingContext {
    /// The `UUID` of `token` of the document at `base`, when it is a string of a UUID in its
    /// canonical form (``UUIDText``); `nil` for any other token or text, which `UUID`'s own
    /// decoding then reads or refuses, as it does through `JSONDecoder`.
    @usableFromInline
    static func uuid(_ token: JSONToken, in base: UnsafeMutablePointer<UInt8>) -> UUID? {
        switch token.kind {
        case .string:
            return UUIDText.uuid(UnsafeRawBufferPointer(start: base + Int(token.payload), count: Int(token.aux)))
        case .escapedString:
            var text = JSONTape.string(token, in: base)
            return text.withUTF8 { UUIDText.uuid(UnsafeRawBufferPointer($0)) }
        default:
            return nil
        }
    }
}

import Foundation

/// A UUID written in its canonical form, read from the bytes of a document: 36 bytes, hyphens at
/// 8, 13, 18 and 23, and a hexadecimal digit of either case everywhere else. `nil` for any other
/// text, which the caller leaves to `UUID(uuidString:)`: Foundation's parser reads with `sscanf`
/// and takes more (a space or a sign inside a group), at some ten thousand instructions a value
/// where this takes under two hundred. On canonical texts the two agree (`UUIDTextTests`).
enum UUIDText {
    static func uuid(_ text: UnsafeRawBufferPointer) -> UUID? {
        guard text.count == 36, let p = text.baseAddress, text[8] == UInt8(ascii: "-"), text[13] == UInt8(ascii: "-"),
            text[18] == UInt8(ascii: "-"), text[23] == UInt8(ascii: "-")
        else { return nil }
        func word(_ offset: Int) -> UInt64 { UInt64(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
        func half(_ offset: Int) -> UInt64 { UInt64(UInt32(littleEndian: p.loadUnaligned(fromByteOffset: offset, as: UInt32.self))) }
        // Eight digits at a time: 0–7; 9–12 and 14–17; 19–22 and 24–27; 28–35.
        let first = digits(word(0)), second = digits(half(9) | half(14) << 32)
        let third = digits(half(19) | half(24) << 32), fourth = digits(word(28))
        guard let first, let second, let third, let fourth else { return nil }
        // The sixteen bytes in order: each half big-endian.
        let high = first << 32 | second
        let low = third << 32 | fourth
        return UUID(uuid: unsafeBitCast((high.bigEndian, low.bigEndian), to: uuid_t.self))
    }

    /// The value of the eight hexadecimal digits in `word` (the first in its lowest byte), or
    /// `nil` when a byte is not one: every byte tested at once, by adding to each a constant that
    /// carries into its top bit exactly when the byte is at or past a bound.
    @inline(__always)
    static func digits(_ word: UInt64) -> UInt64? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let tops: UInt64 = 0x8080_8080_8080_8080
        // Below 0x80 each byte, so no sum carries into the next byte.
        guard word & tops == 0 else { return nil }
        let digit = (word &+ ones &* (0x80 - 0x30)) & ~(word &+ ones &* (0x80 - 0x3A)) & tops
        let folded = word | ones &* 0x20
        let letter = (folded &+ ones &* (0x80 - 0x61)) & ~(folded &+ ones &* (0x80 - 0x67)) & tops
        guard digit | letter == tops else { return nil }
        // A digit's low four bits are its value; a letter's (bit 6 set) are its value less nine.
        let values = (word & 0x0F0F_0F0F_0F0F_0F0F) &+ (word >> 6 & ones) &* 9
        // First digit highest: pairs, then fours, then the eight.
        var packed = values.byteSwapped
        packed = (packed | packed >> 4) & 0x00FF_00FF_00FF_00FF
        packed = (packed | packed >> 8) & 0x0000_FFFF_0000_FFFF
        return (packed | packed >> 16) & 0xFFFF_FFFF
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

import Foundation

/// A fast 64-bit checksum (xxHash64's round function over four lanes) used to tell a value file
/// that was damaged from the one that was written. Not a cryptographic hash: it guards against
/// accidents, not attackers, and costs far less than reading the file.
enum Checksum {
    private static let prime1: UInt64 = 0x9E37_79B1_85EB_CA87
    private static let prime2: UInt64 = 0xC2B2_AE3D_27D4_EB4F
    private static let prime3: UInt64 = 0x1656_67B1_9E37_79F9
    private static let prime4: UInt64 = 0x85EB_CA77_C2B2_AE63

    /// The checksum of `data`, as a signed integer so it fits an SQLite INTEGER column.
    static func of(_ data: Data) -> Int64 {
        data.withUnsafeBytes { of($0) }
    }

    /// The checksum stored with a small value in its row: ``of(_:)``, never 0, so that a zeroed
    /// column (the "no checksum" of database formats before 3) never matches a value.
    static func ofInline(_ data: Data) -> Int64 {
        let checksum = of(data)
        return checksum == 0 ? 1 : checksum
    }

    /// The checksum of the first and last 4 KiB of `data` and of 32 blocks of 64 bytes spread
    /// evenly between them, with the length; the full checksum for values up to 12 KiB.
    static func sampled(_ data: Data) -> Int64 {
        data.withUnsafeBytes { bytes in
            let count = bytes.count
            let edge = 4096
            let blocks = 32
            let block = 64
            guard count > 3 * edge else { return of(bytes) }
            var hash = UInt64(bitPattern: of(UnsafeRawBufferPointer(rebasing: bytes[0..<edge])))
            hash = mix(hash, of(UnsafeRawBufferPointer(rebasing: bytes[(count - edge)..<count])))
            let stride = (count - 2 * edge - block) / blocks
            for index in 0..<blocks {
                let start = edge + index * stride
                hash = mix(hash, of(UnsafeRawBufferPointer(rebasing: bytes[start..<(start + block)])))
            }
            return Int64(bitPattern: mix(hash, Int64(count)))
        }
    }

    @inline(__always)
    private static func mix(_ hash: UInt64, _ part: Int64) -> UInt64 {
        round(hash ^ prime4, UInt64(bitPattern: part))
    }

    static func of(_ bytes: UnsafeRawBufferPointer) -> Int64 {
        let count = bytes.count
        var lane1 = prime1 &+ prime2
        var lane2 = prime2
        var lane3: UInt64 = 0
        var lane4: UInt64 = 0 &- prime1
        var offset = 0
        while offset + 32 <= count {
            lane1 = round(lane1, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            lane2 = round(lane2, bytes.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
            lane3 = round(lane3, bytes.loadUnaligned(fromByteOffset: offset + 16, as: UInt64.self))
            lane4 = round(lane4, bytes.loadUnaligned(fromByteOffset: offset + 24, as: UInt64.self))
            offset += 32
        }
        var hash = rotate(lane1, 1) &+ rotate(lane2, 7) &+ rotate(lane3, 12) &+ rotate(lane4, 18)
        hash &+= UInt64(count)
        while offset + 8 <= count {
            hash ^= round(0, bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            hash = rotate(hash, 27) &* prime1 &+ prime4
            offset += 8
        }
        while offset < count {
            hash ^= UInt64(bytes[offset]) &* prime3
            hash = rotate(hash, 11) &* prime1
            offset += 1
        }
        hash ^= hash >> 33
        hash &*= prime2
        hash ^= hash >> 29
        hash &*= prime3
        hash ^= hash >> 32
        return Int64(bitPattern: hash)
    }

    @inline(__always)
    private static func round(_ accumulator: UInt64, _ input: UInt64) -> UInt64 {
        rotate(accumulator &+ input &* prime2, 31) &* prime1
    }

    @inline(__always)
    private static func rotate(_ value: UInt64, _ bits: UInt64) -> UInt64 {
        (value << bits) | (value >> (64 - bits))
    }
}

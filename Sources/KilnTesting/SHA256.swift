import Crypto
import Foundation

/// SHA-256 as lowercase hex, for checking transferred bytes in tests (swift-crypto's `SHA256`
/// underneath).
///
/// ```swift
/// var hasher = SHA256Digest()
/// hasher.update(chunk1); hasher.update(chunk2)
/// let hex = hasher.finalize()          // "e3b0c442…"
/// let same = SHA256Digest.hex(of: data)
/// let ofFile = try SHA256Digest.hex(ofFileAt: url)
/// ```
public struct SHA256Digest: Sendable {
    private var hasher = SHA256()

    /// Creates an empty hasher.
    public init() {}

    /// Adds bytes.
    public mutating func update(_ data: Data) {
        hasher.update(data: data)
    }

    /// Finishes and returns the digest as lowercase hex.
    public mutating func finalize() -> String {
        let digest = hasher.finalize()
        hasher = SHA256()
        return Self.hex(digest)
    }

    /// The hex digest of `data`.
    public static func hex(of data: Data) -> String {
        hex(SHA256.hash(data: data))
    }

    /// The hex digest of a file, read in 1 MiB chunks.
    public static func hex(ofFileAt url: URL) throws -> String {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var hasher = SHA256Digest()
        while let chunk = try handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(chunk)
        }
        return hasher.finalize()
    }

    private static func hex(_ digest: SHA256.Digest) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(SHA256.Digest.byteCount * 2)
        for byte in digest {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

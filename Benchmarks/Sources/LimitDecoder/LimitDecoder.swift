import BenchSupport
import Foundation
import SimdjsonLimit

/// SimdjsonLimit's decoder from Swift: simdjson On-Demand over one padded copy of a document,
/// decoding it into the C++ structs of one payload, and the ``ModelDigest`` of what it built.
public final class LimitDecoder {
    /// Whether simdjson is built in (Linux with libsimdjson-dev).
    public static var isAvailable: Bool { kiln_limit_available() }

    /// The simdjson kernel the decodes run (e.g. "icelake").
    public static var implementation: String { String(cString: kiln_limit_implementation()) }

    /// The kernel that finds each document's structure before the decode (simdjson's stage 1):
    /// the processor's best, or the one `SIMDJSON_FORCE_IMPLEMENTATION` names.
    public static var structureImplementation: String { String(cString: kiln_limit_structure_implementation()) }

    private let decoder: OpaquePointer
    private let payload: KilnLimitPayload

    /// A decoder of `data` as `payload`; nil where simdjson is not built in.
    public init?(data: Data, payload: KilnLimitPayload) {
        guard
            let decoder = data.withUnsafeBytes({ bytes in
                kiln_limit_create(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            })
        else { return nil }
        self.decoder = decoder
        self.payload = payload
    }

    deinit { kiln_limit_destroy(decoder) }

    /// One decode into fresh structs; throws simdjson's error code.
    public func decode() throws {
        let code = kiln_limit_decode(decoder, payload)
        if code != 0 { throw LimitDecodeError(code: Int(code)) }
    }

    /// What the last decode built.
    public var digest: ModelDigest {
        let sums = kiln_limit_digest(decoder, payload)
        var digest = ModelDigest()
        digest.elements = sums.elements
        digest.integers = sums.integers
        digest.trues = sums.trues
        digest.strings = sums.strings
        digest.stringBytes = sums.stringBytes
        digest.stringHashes = sums.stringHashes
        digest.nils = sums.nils
        digest.doubleBits = sums.doubleBits
        return digest
    }
}

/// simdjson refused the document.
public struct LimitDecodeError: Error, CustomStringConvertible {
    /// simdjson's error code.
    public var code: Int
    public var description: String {
        "simdjson error \(code): \(String(cString: kiln_limit_error_message(Int32(truncatingIfNeeded: code))))"
    }
}

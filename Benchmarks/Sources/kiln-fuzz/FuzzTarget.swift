import BenchSupport
import Foundation
@_spi(Testing) import KilnModel

/// libFuzzer entry point: arbitrary bytes through the reader, the envelope path and the decoder
/// (fast and `Decoder`-protocol paths). Anything but a value or a typed error (a crash, a hang, a
/// sanitizer report, a broken invariant) is a bug.
///
/// With `KILN_FUZZ_MODE=differential` in the environment, the bytes go instead to
/// ``DifferentialCase``: `KilnDecoder` against Foundation's `JSONDecoder`.
@_cdecl("LLVMFuzzerTestOneInput")
public func kilnFuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = UnsafeRawBufferPointer(start: data, count: size)
    if FuzzMode.isDifferential {
        DifferentialCase.run(bytes)
    } else {
        FuzzCase.run(bytes)
    }
    return 0
}

enum FuzzMode {
    /// Read once: `KILN_FUZZ_MODE=differential` compares the two decoders.
    static let isDifferential = ProcessInfo.processInfo.environment["KILN_FUZZ_MODE"] == "differential"
}

enum FuzzCase {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let array = Array(bytes)
        var options = JSONReaderOptions()
        options.maxDepth = 64
        if let document = try? JSONDocument(parsing: bytes, options: options) {
            // Invariant: what the reader accepts, written back as JSON, reads back to the same text
            // (text, not values: `0e1` is a double that is written `0` and read back as an integer).
            let text = document.value.jsonText
            guard let again = try? JSONValue(parsing: text), again.jsonText == text else {
                preconditionFailure("round trip changed \(text.prefix(80))")
            }
            // The envelope path, read as APIClient reads it: with the options the document was read with.
            var envelopeDecoder = KilnDecoder()
            envelopeDecoder.readerOptions = options
            let broken = EnvelopeInvariants.violations(in: document, decoder: envelopeDecoder)
            guard broken.isEmpty else { preconditionFailure(broken.joined(separator: "\n")) }
        }
        let decoder = KilnDecoder()
        _ = try? decoder.decode(JSONValue.self, from: array)
        // A repair log of bytes read in place (which keeps excerpts of them) shows what the log
        // of a document read from a copy shows.
        if let inPlace = try? decoder.decodeWithRepairs(ArticlePage.self, from: array),
            let copied = try? decoder.decodeWithRepairs(ArticlePage.self, from: JSONDocument(parsing: array))
        {
            let texts = (inPlace.repairs.map(\.description), copied.repairs.map(\.description))
            guard texts.0 == texts.1 else { preconditionFailure("repair logs differ: \(texts.0) and \(texts.1)") }
        }
        _ = try? KilnDecoder.decoderProtocolPath.decodeWithRepairs([Article].self, from: array, at: "data.list")
        _ = try? decoder.decode(StrictArticlePage.self, from: array)
        _ = try? decoder.decodeWithRepairs(Catalog.self, from: array)
        // Statuses and users of 20 to 40 members: members found by the models' key slots.
        _ = try? decoder.decodeWithRepairs(TwitterPage.self, from: array)
        // URLs, ISO 8601 dates (read by Kiln's own parser first) and enums, through the fast path
        // and through `Codable` with Foundation's date and key strategies.
        _ = try? decoder.decodeWithRepairs([RepoIssue].self, from: array)
        _ = try? StrictIssue.kilnDecoder.decode([StrictIssue].self, from: array)
        // UUIDs (read eight digits at a time), decimals (built from their digits), dates by the
        // decoder's strategy and plain enums; `Codable` with `.convertFromSnakeCase`, whose key
        // tables are shared between objects written alike.
        _ = try? StrictPayment.kilnDecoder.decodeWithRepairs([Payment].self, from: array)
        _ = try? StrictPayment.kilnDecoder.decode([StrictPayment].self, from: array)
        _ = try? StrictIssue.kilnDecoder.decode([StrictPayment].self, from: array)
    }
}

#if !KILN_FUZZ
/// Without the fuzzer: runs each file named on the command line once (a corpus replay).
@main
enum FuzzReplay {
    static func main() {
        for path in CommandLine.arguments.dropFirst() {
            guard let data = FileManager.default.contents(atPath: path) else { continue }
            data.withUnsafeBytes { FuzzCase.run($0) }
        }
        print("replayed \(CommandLine.arguments.count - 1) inputs")
    }
}
#endif

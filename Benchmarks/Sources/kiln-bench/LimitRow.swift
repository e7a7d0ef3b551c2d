import BenchSupport
import Foundation
import KilnModel
import LimitDecoder
import SimdjsonLimit

/// The decode benchmark's `simdjson On-Demand (limit)` row: simdjson decoding the same payload into
/// C++ structs with the members of BenchSupport's models (SimdjsonLimit), on the same machine in the
/// same run.
///
/// Before it is timed, the row proves it decodes what Kiln decodes: the structs' ``ModelDigest``
/// must equal the digest of Kiln's models for the same bytes, or the row is left out with a line
/// saying why. The parser and the padded copy of the document are made once, outside the timing, as
/// simdjson's own benchmarks do.
enum LimitRow {
    static let label = "simdjson On-Demand (limit)"

    /// The row for `input` (the articles, twitter, citm or canada), checked against Kiln's models;
    /// nil, after printing why, where simdjson is not built in, the input has no limit, or the
    /// digests differ.
    static func make(for input: DecodeBench.Input) -> LimitDecoder? {
        guard LimitDecoder.isAvailable else {
            print("note: \(label) skipped: kiln-bench was built without simdjson (Linux with libsimdjson-dev only)")
            return nil
        }
        let data = input.data
        let kiln = KilnDecoder()
        let payload: KilnLimitPayload
        let expected: ModelDigest
        do {
            switch input.name {
            case let name where name.hasPrefix("articles"):
                payload = KilnLimitPayloadArticles
                expected = ModelDigest(of: try kiln.decode(ArticlePage.self, from: data))
            case "twitter.json":
                payload = KilnLimitPayloadTwitter
                expected = ModelDigest(of: try kiln.decode(TwitterPage.self, from: data))
            case "citm_catalog.json":
                payload = KilnLimitPayloadCatalog
                expected = ModelDigest(of: try kiln.decode(Catalog.self, from: data))
            case "canada.json":
                payload = KilnLimitPayloadCanada
                expected = ModelDigest(of: try kiln.decode(Canada.self, from: data))
            default:
                return nil
            }
        } catch {
            print("note: \(label) skipped: Kiln failed to decode \(input.name): \(error)")
            return nil
        }
        guard let row = LimitDecoder(data: data, payload: payload) else { return nil }
        do {
            try row.decode()
        } catch {
            print("note: \(label) skipped: \(error)")
            return nil
        }
        guard row.digest == expected else {
            print("note: \(label) skipped: simdjson's structs differ from Kiln's models")
            print("  simdjson: \(row.digest)\n  Kiln:     \(expected)")
            return nil
        }
        print(
            "\(label): simdjson \(LimitDecoder.implementation) kernel, structure found by its \(LimitDecoder.structureImplementation) kernel; its structs hold what Kiln's models hold (\(expected.elements) elements, \(expected.strings) strings)"
        )
        return row
    }
}

import Foundation
import KilnModel
import Testing

/// One corpus sample and the generated type that decodes it (`Corpus/CorpusIndex.swift`).
struct CorpusEntry: Sendable, CustomStringConvertible {
    var path: String
    var check: @Sendable (Data) throws -> CorpusOutcome

    init<T: Codable & Equatable & Sendable>(_ path: String, _ type: T.Type) {
        self.path = path
        self.check = { data in try CorpusOutcome(T.self, data) }
    }

    var description: String { path }
}

/// What decoding a sample with its generated model gave, through both decoders.
struct CorpusOutcome {
    var valuesAgree: Bool
    var repairs: [Repair]
    var kilnRepairs: [Repair]
    var mismatches: [String]

    init<T: Codable & Equatable>(_ type: T.Type, _ data: Data) throws {
        let foundation = try JSONDecoder().decodeWithRepairs(T.self, from: data)
        let kiln = try KilnDecoder().decodeWithRepairs(T.self, from: data)
        valuesAgree = foundation.value == kiln.value
        repairs = foundation.repairs
        kilnRepairs = kiln.repairs
        let sample = try JSONDecoder().decode(JSONValue.self, from: data)
        mismatches = differences(sample: sample, model: try reencoded(kiln.value))
    }

    /// Repairs Foundation's decoder logged and Kiln's did not.
    var foundationOnlyRepairs: [Repair] { repairs.filter { !kilnRepairs.contains($0) } }
}

extension Repair {
    /// Foundation's decoder refuses a number JSON allows (`0e1` as a `Double`) and its coercion
    /// rule reads it back, while Kiln reads it at once: not something a generated model can avoid.
    var isFoundationNumberRefusal: Bool { kind == .coerced && Double(found) != nil }
}

enum KilnModelTestsCorpus {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
}

/// Models `kiln generate` wrote for real-world JSON nobody here wrote (quicktype's test inputs,
/// public API responses, the benchmark files), compiled together in this target: each decodes
/// its own sample through both decoders to equal values, with no repair (a property seen as `3`
/// and as `"12"` is a union that keeps each kind), and encodes back to JSON equal to the sample
/// (nulls and key order aside).
@Suite struct CorpusTests {
    @Test(arguments: corpusEntries)
    func aGeneratedModelDecodesItsSampleAndWritesItBack(_ entry: CorpusEntry) throws {
        let data = try Data(contentsOf: KilnModelTestsCorpus.root.appendingPathComponent(entry.path))
        let outcome = try entry.check(data)
        #expect(outcome.valuesAgree)
        #expect(outcome.kilnRepairs == [], "\(outcome.kilnRepairs.prefix(5))")
        #expect(outcome.foundationOnlyRepairs.allSatisfy { $0.isFoundationNumberRefusal }, "\(outcome.foundationOnlyRepairs.prefix(5))")
        #expect(outcome.mismatches == [], "\(outcome.mismatches.prefix(5))")
    }

    @Test func counts() throws {
        var clean = 0
        var repaired: [String] = []
        var refusedByFoundation: [String] = []
        var failing: [String] = []
        for entry in corpusEntries {
            let data = try Data(contentsOf: KilnModelTestsCorpus.root.appendingPathComponent(entry.path))
            guard let outcome = try? entry.check(data) else {
                failing.append(entry.path)
                continue
            }
            if outcome.repairs.isEmpty && outcome.kilnRepairs.isEmpty && outcome.mismatches.isEmpty { clean += 1 }
            if !outcome.kilnRepairs.isEmpty || !outcome.foundationOnlyRepairs.allSatisfy(\.isFoundationNumberRefusal) {
                repaired.append(entry.path)
            } else if !outcome.repairs.isEmpty {
                refusedByFoundation.append(entry.path)
            }
        }
        print(
            "corpus: \(corpusEntries.count) samples generated and compiled; \(clean) decode with no repair through both decoders and write back equal; "
                + "\(refusedByFoundation.count) with repairs through JSONDecoder only, where it refuses a JSON number \(refusedByFoundation); "
                + "\(repaired.count) with other repairs \(repaired); \(failing.count) failing \(failing)")
        #expect(failing.isEmpty)
        #expect(repaired.isEmpty)
    }
}

import Foundation
import KilnModel

/// Reads a sample from `Tests/Fixtures/Samples` (or an absolute path).
func sampleData(_ path: String) throws -> Data {
    if path.hasPrefix("/") { return try Data(contentsOf: URL(fileURLWithPath: path)) }
    let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Samples")
    return try Data(contentsOf: samples.appendingPathComponent(path))
}

/// `TestData/benchdata/twitter.json` (origin and licence in `TestData/README.md`).
let twitterPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("TestData/benchdata/twitter.json").path

/// Foundation's decoder or Kiln's, for what must hold through both.
enum ModelReader: String, CaseIterable, Sendable, CustomStringConvertible {
    case jsonDecoder
    case kilnDecoder

    var description: String { rawValue }

    func decodeWithRepairs<T: Decodable>(_ type: T.Type, from data: Data, at path: JSONPath?) throws -> (value: T, repairs: [Repair]) {
        switch self {
        case .jsonDecoder: try JSONDecoder().decodeWithRepairs(type, from: data, at: path)
        case .kilnDecoder: try KilnDecoder().decodeWithRepairs(type, from: data, at: path)
        }
    }
}

/// Encodes `value` and reads it back as a `JSONValue`.
func reencoded<T: Encodable>(_ value: T) throws -> JSONValue {
    try JSONDecoder().decode(JSONValue.self, from: JSONEncoder().encode(value))
}

/// Where the re-encoded model differs from the sample, as `path: expected … found …` lines.
///
/// Keys must match exactly: generated models declare their key style (`@DataModel(keyStyle:)`) or
/// use `@Key`, so they write back the keys they read. Differences that are the transforms' own
/// normal form are accepted: a number written back as the same digits in a string
/// (`20161010` → `"20161010"`), a UUID's letter case, and an ISO-8601 date written without its
/// fractional seconds (the same instant to the second). A sample `null` matches an absent key,
/// or any value when `nullsBecomeDefaults` (models generated with `--defaults`).
func differences(sample: JSONValue, model: JSONValue, nullsBecomeDefaults: Bool = false, path: String = "") -> [String] {
    switch (sample, model) {
    case (.null, _):
        return nullsBecomeDefaults || model == .null ? [] : ["\(path): expected null, found \(model.preview())"]
    case (.object(let expected), .object(let actual)):
        var result: [String] = []
        // A key the sample lacks is a difference, unless it is a default written in its place.
        for key in actual.keys.sorted() where expected[key] == nil && !nullsBecomeDefaults {
            result.append("\(path.isEmpty ? key : "\(path).\(key)"): not in the sample")
        }
        for key in expected.keys.sorted() {
            let expectedValue = expected[key, default: .null]
            let place = path.isEmpty ? key : "\(path).\(key)"
            guard let actualValue = actual[key] else {
                if case .null = expectedValue { continue }
                result.append("\(place): missing")
                continue
            }
            result += differences(sample: expectedValue, model: actualValue, nullsBecomeDefaults: nullsBecomeDefaults, path: place)
        }
        return result
    case (.array(let expected), .array(let actual)):
        guard expected.count == actual.count else { return ["\(path): \(expected.count) elements, found \(actual.count)"] }
        return zip(expected, actual).enumerated().flatMap { index, pair in
            differences(sample: pair.0, model: pair.1, nullsBecomeDefaults: nullsBecomeDefaults, path: "\(path)[\(index)]")
        }
    case (.int, .int), (.int, .double), (.double, .int), (.double, .double):
        return sample.double == model.double ? [] : ["\(path): expected \(sample), found \(model)"]
    case (.int(let number), .string(let text)):
        return String(number) == text ? [] : ["\(path): expected \(sample), found \(model)"]
    case (.string(let expected), .string(let actual)):
        if expected == actual || (UUID(uuidString: expected) != nil && expected.lowercased() == actual.lowercased()) { return [] }
        if let a = DateTransform.iso8601.decode(sample), let b = DateTransform.iso8601.decode(model), abs(a.timeIntervalSince(b)) < 1 { return [] }
        return ["\(path): expected \(sample), found \(model)"]
    default:
        return sample == model ? [] : ["\(path): expected \(sample.preview()), found \(model.preview())"]
    }
}

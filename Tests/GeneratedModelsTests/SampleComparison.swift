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
/// use `@Key`, so they write back the keys they read. Values must be equal; the one difference
/// accepted is a scalar of a property whose samples mixed kinds, written back in the type the
/// generator chose and announced (`3` and `"12"` → `Int`), when Kiln's coercion makes them equal:
/// `"12"` ↔ `12`, `1` ↔ `"1"`, `true` ↔ `"true"`, `1` ↔ `true`, and a number written back as the
/// same digits in a string (`20161010` → `"20161010"`, a `yyyyMMdd` date). A sample `null`
/// matches an absent key, or any value when `nullsBecomeDefaults` (models generated with
/// `--defaults`).
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
    case (.string(let expected), .string(let actual)):
        return expected == actual ? [] : ["\(path): expected \(sample), found \(model)"]
    case (.int, .string), (.double, .string), (.bool, .string), (.string, .int), (.string, .double), (.string, .bool), (.int, .bool), (.bool, .int):
        return sameAfterCoercion(sample, model) ? [] : ["\(path): expected \(sample.preview()), found \(model.preview())"]
    default:
        return sample == model ? [] : ["\(path): expected \(sample.preview()), found \(model.preview())"]
    }
}

/// Whether two scalars of different kinds are the same value to Kiln's coercion: the model's
/// value read as the sample's kind gives the sample's value.
func sameAfterCoercion(_ sample: JSONValue, _ model: JSONValue) -> Bool {
    switch sample {
    case .string(let text): return model.string == text || (model.double != nil && model.double == sample.double)
    case .int, .double: return model.double == sample.double
    case .bool(let flag): return model.bool == flag
    default: return false
    }
}

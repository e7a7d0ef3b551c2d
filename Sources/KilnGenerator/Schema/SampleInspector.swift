import Foundation
import KilnModel

/// Describes what samples contain, key path by key path: the kinds seen, how often a value was
/// `null` or missing, number ranges and small sets of strings — what to read before writing a
/// model or a decoding policy.
///
/// ```swift
/// let report = try SampleInspector().report(for: samples)
/// // path         types       null  missing  notes
/// // id           int ×3      0     0        1…3
/// // author.name  string ×2   1     0        "Kai", "Lin"
/// ```
public struct SampleInspector: Sendable {
    /// One line of the report.
    public struct Row: Sendable, Hashable {
        /// The key path, `[]` marking array elements: `list[].tags[]`.
        public var path: String
        /// Kinds seen with their counts, `string ×3, null ×1` style.
        public var types: String
        /// How many values at this path were `null`.
        public var nulls: Int
        /// How many objects that could have had this key did not; `nil` for array elements.
        public var missing: Int?
        /// Ranges, string values, recognized formats.
        public var notes: String
    }

    /// An inspector.
    public init() {}

    /// The rows for the samples, in sample key order, looking inside each at `keyPath`.
    public func rows(for samples: [Sample], at keyPath: KilnModel.JSONPath? = nil) throws(SampleError) -> [Row] {
        guard !samples.isEmpty else { throw .noSamples }
        let root = ObjectShape()
        for sample in samples {
            for record in try sample.records(at: keyPath).records { root.observe(record) }
        }
        var rows: [Row] = []
        collect(root, prefix: "", into: &rows)
        return rows
    }

    /// The report as an aligned table with a one-line summary on top.
    public func report(for samples: [Sample], at keyPath: KilnModel.JSONPath? = nil) throws(SampleError) -> String {
        let rows = try rows(for: samples, at: keyPath)
        var records = 0
        for sample in samples { records += try sample.records(at: keyPath).records.count }
        let place = keyPath.map { " at \($0)" } ?? ""
        var text = "\(samples.count) sample\(samples.count == 1 ? "" : "s"), \(records) record\(records == 1 ? "" : "s")\(place)\n"
        let header = ["path", "types", "null", "missing", "notes"]
        let table = [header] + rows.map { [$0.path, $0.types, String($0.nulls), $0.missing.map(String.init) ?? "-", $0.notes] }
        var widths = Array(repeating: 0, count: header.count)
        for row in table {
            for (column, cell) in row.enumerated() { widths[column] = max(widths[column], cell.count) }
        }
        for row in table {
            var line = ""
            for (column, cell) in row.enumerated() {
                line += column == row.count - 1 ? cell : cell.padding(toLength: widths[column] + 2, withPad: " ", startingAt: 0)
            }
            while line.last == " " { line.removeLast() }
            text += line + "\n"
        }
        return text
    }

    private func collect(_ object: ObjectShape, prefix: String, into rows: inout [Row]) {
        for key in object.keys {
            guard let shape = object.fields[key] else { continue }
            let path = prefix.isEmpty ? key : prefix + "." + key
            rows.append(row(path: path, shape: shape, missing: object.missing(key)))
            descend(shape, path: path, into: &rows)
        }
    }

    private func descend(_ shape: Shape, path: String, into rows: inout [Row]) {
        if let nested = shape.object { collect(nested, prefix: path, into: &rows) }
        if let element = shape.element {
            let elementPath = path + "[]"
            rows.append(row(path: elementPath, shape: element, missing: nil))
            descend(element, path: elementPath, into: &rows)
        }
    }

    private func row(path: String, shape: Shape, missing: Int?) -> Row {
        var types = shape.kinds.map { "\($0.rawValue) ×\(shape.count(of: $0))" }
        if shape.nulls > 0 { types.append("null ×\(shape.nulls)") }
        var notes: [String] = []
        if shape.doubles == 0, let minimum = shape.integerMinimum, let maximum = shape.integerMaximum {
            notes.append(minimum == maximum ? String(minimum) : "\(minimum)…\(maximum)")
        } else if let minimum = shape.minimum, let maximum = shape.maximum {
            notes.append(minimum == maximum ? JSONValue.numberText(minimum) : "\(JSONValue.numberText(minimum))…\(JSONValue.numberText(maximum))")
        }
        if shape.strings > 0 {
            if shape.isoDates == shape.strings {
                notes.append("ISO-8601 dates")
            } else if shape.urls == shape.strings {
                notes.append("URLs")
            } else if shape.uuids == shape.strings {
                notes.append("UUIDs")
            } else if shape.distinctStrings.count <= 5 && !shape.hasMoreStrings && shape.distinctStrings.allSatisfy({ $0.count <= 24 }) {
                notes.append(shape.distinctStrings.map { Self.quoted($0) }.joined(separator: ", "))
            } else {
                notes.append(shape.hasMoreStrings ? "more than \(Shape.distinctLimit) distinct strings" : "\(shape.distinctStrings.count) distinct strings")
            }
        }
        if shape.eightDigitDates > 0 && shape.eightDigitDates == shape.ints + shape.strings { notes.append("yyyyMMdd dates?") }
        if shape.arrays > 0 && shape.element == nil { notes.append("always empty") }
        return Row(
            path: path, types: types.isEmpty ? "-" : types.joined(separator: ", "), nulls: shape.nulls, missing: missing, notes: notes.joined(separator: "; "))
    }

    private static func quoted(_ text: String) -> String { Identifiers.literal(text) }
}

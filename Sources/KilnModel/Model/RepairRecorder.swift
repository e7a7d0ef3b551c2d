/// Where a model's `didDecode(_:)` reports what it fixed: each entry joins the decode's repair
/// log under the model's path.
///
/// ```swift
/// @DataModel
/// struct Discount {
///     var percent = 0
///     var label = ""
///
///     mutating func didDecode(_ repairs: RepairRecorder) {
///         if !(0...100).contains(percent) {
///             repairs.record(property: "percent", expected: "0...100", found: "\(percent)", result: "0")
///             percent = 0
///         }
///         if label.isEmpty { label = "\(percent)% off" }   // derived, not a repair
///     }
/// }
/// ```
///
/// A model with a `didDecode()` or `didDecode(_:)` method has it called by both of its generated
/// decoding initializers, after every property is read; `init()` and the memberwise initializer
/// do not call it.
public struct RepairRecorder: Sendable {
    let session: DecodingSession?
    let path: [JSONPath.Component]

    init(session: DecodingSession?, path: [JSONPath.Component]) {
        self.session = session
        self.path = path
    }

    /// The recorder for the model `decoder` decodes.
    public init(decoder: any Decoder) {
        self.init(session: DecodingSession.current(in: decoder), path: CodingPathFormatter.components(decoder.codingPath))
    }

    /// Whether entries are kept or reported: skip building costly descriptions when not.
    public var isRecording: Bool { session?.isRecording == true }

    /// Records a repair of the property that decodes from `property` (a key or a path inside
    /// the model, `"percent"`, `"author.name"`).
    public func record(_ kind: Repair.Kind = .invalid, property: String, expected: String, found: String, result: String) {
        guard let session, session.isRecording else { return }
        let place = JSONPath.join(CodingPathFormatter.format(path), property)
        session.record(Repair(path: place, kind: kind, expected: expected, found: found, result: result))
    }
}

extension KilnObjectReader {
    /// The recorder for the model this reader reads (`didDecode(_:)`).
    public var repairRecorder: RepairRecorder {
        RepairRecorder(session: context.session, path: node()?.components(in: context.tape) ?? [])
    }
}

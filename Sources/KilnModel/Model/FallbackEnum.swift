/// A raw-value enum that decodes unknown values as a fallback case instead of failing.
///
/// Servers add cases before apps learn them. Declare which case stands in for the unknown:
///
/// ```swift
/// enum Status: String, FallbackEnum {
///     case draft, published, unknown
///     static let fallback = Status.unknown
/// }
/// ```
///
/// Raw values are coerced (`"1"` reads as `1` for an `Int` enum); an unknown value becomes
/// ``fallback`` with a `fallback` entry in the repair log.
public protocol FallbackEnum: RawRepresentable, Codable, DefaultValueProviding where RawValue: Codable & JSONCoercible {
    /// The case used for raw values this version of the app does not know.
    static var fallback: Self { get }
}

extension FallbackEnum {
    public static var defaultValue: Self { fallback }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(RawValue.self), let known = Self(rawValue: raw) {
            self = known
            return
        }
        let session = DecodingSession.current(in: decoder)
        let json = (try? container.decode(JSONValue.self)) ?? .null
        let path = CodingPathFormatter.components(decoder.codingPath)
        let truncating = session?.policy.allowsFractionalTruncation ?? false
        if let raw = RawValue.coerce(from: json, truncating: truncating), let known = Self(rawValue: raw) {
            session?.recordIfRecording(.coerced, path: path, expected: Self.self, found: json.preview(), result: Repair.show(known))
            self = known
            return
        }
        session?.recordIfRecording(.fallback, path: path, expected: Self.self, found: json.preview(), result: Repair.show(Self.fallback))
        self = Self.fallback
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

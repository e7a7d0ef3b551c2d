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
///
/// A case the server spells several ways, or a range of codes, is matched by ``matching(_:)``,
/// asked when no raw value is equal:
///
/// ```swift
/// enum Method: String, FallbackEnum {
///     case get = "GET", post = "POST", other
///     static let fallback = Method.other
///     static func matching(_ raw: String) -> Method? { Method(rawValue: raw.uppercased()) }
/// }
///
/// enum Outcome: Int, FallbackEnum {
///     case success = 200, redirect = 300, clientError = 400, serverError = 500, unknown = 0
///     static let fallback = Outcome.unknown
///     static func matching(_ code: Int) -> Outcome? {
///         switch code {
///         case 200..<300: .success
///         case 300..<400: .redirect
///         case 400..<500: .clientError
///         case 500..<600: .serverError
///         default: nil
///         }
///     }
/// }
/// ```
///
/// An optional property (`var status: Status?`) holds the fallback case for a value it does not
/// know, like a non-optional one: `nil` keeps meaning "the server sent nothing". Set
/// ``DecodingPolicy/unknownEnumValueInOptionalIsNil`` to read unknown values as `nil` instead.
///
/// The protocol's `init(from:)` is how every decoder reads these enums. `KilnDecoder` reads a
/// `String` or `Int` raw value that names a case (by ``matching(_:)`` too) straight from the
/// document, without calling `init(from:)`: say how a server spells a case in ``matching(_:)``,
/// not in an `init(from:)` of your own.
public protocol FallbackEnum: RawRepresentable, Codable, DefaultValueProviding where RawValue: Codable & JSONCoercible {
    /// The case used for raw values this version of the app does not know.
    static var fallback: Self { get }

    /// The case for a raw value equal to no case's raw value: other spellings (`"get"` for
    /// `"GET"`) or ranges (`200..<300`). `nil`, the default, sends the value to ``fallback``.
    /// A match is not a repair; it is what the type declares.
    static func matching(_ rawValue: RawValue) -> Self?
}

extension FallbackEnum {
    public static var defaultValue: Self { fallback }

    public static func matching(_ rawValue: RawValue) -> Self? { nil }

    /// The case a raw value the reader found names, as `init(from:)` reads it first: a string
    /// for a `String` raw value, an integer for an `Int` one. `nil` for any other value, or one
    /// that names no case: `init(from:)` decides those (coercions, the fallback, their repairs).
    @inlinable
    static func knownCase(_ token: JSONToken, in bytes: UnsafeMutablePointer<UInt8>) -> Self? {
        if RawValue.self == String.self {
            guard let text = KilnDecodingContext.string(token, in: bytes) else { return nil }
            return known(unsafeBitCast(text, to: RawValue.self))
        }
        if RawValue.self == Int.self, token.kind == .int, let value = Int(exactly: token.payload) {
            return known(unsafeBitCast(value, to: RawValue.self))
        }
        return nil
    }

    /// The case for `raw`: its own, or the one ``matching(_:)`` names.
    @inlinable
    static func known(_ raw: RawValue) -> Self? {
        Self(rawValue: raw) ?? matching(raw)
    }

    /// Whether `json` names a case, exactly or through coercion.
    static func recognizes(_ json: JSONValue, truncating: Bool) -> Bool {
        guard let raw = RawValue.coerce(from: json, truncating: truncating) else { return false }
        return known(raw) != nil
    }

    /// Decodes the case the raw value names, its own or by ``matching(_:)``; a value of another
    /// type that coerces to a case's raw value is that case, and anything else is ``fallback``,
    /// both logged in the decode's repair log.
    @inlinable
    public init(from decoder: any Decoder) throws {
        // Inlinable, so that a known case is read by code specialized for the enum; the rest is
        // out of line.
        let container = try decoder.singleValueContainer()
        if let raw = try? container.decode(RawValue.self), let known = Self.known(raw) {
            self = known
            return
        }
        self = Self.repaired(container, decoder: decoder)
    }

    /// A value that is no case's raw value: the case it coerces to, else ``fallback``, logged.
    @usableFromInline
    static func repaired(_ container: any SingleValueDecodingContainer, decoder: any Decoder) -> Self {
        let session = DecodingSession.current(in: decoder)
        let json = (try? container.decode(JSONValue.self)) ?? .null
        let path = CodingPathFormatter.components(decoder.codingPath)
        let truncating = session?.policy.allowsFractionalTruncation ?? false
        if let raw = RawValue.coerce(from: json, truncating: truncating), let known = Self.known(raw) {
            session?.recordIfRecording(.coerced, path: path, expected: Self.self, found: json.preview(), result: Repair.show(known))
            return known
        }
        session?.recordIfRecording(.fallback, path: path, expected: Self.self, found: json.preview(), result: Repair.show(Self.fallback))
        return Self.fallback
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

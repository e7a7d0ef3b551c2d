/// A value servers send as a number or as a string: what a strict shape must say to decode at all.
public enum IntOrString: Codable, Equatable, Sendable {
    /// Sent as a number.
    case int(Int)
    /// Sent as a string.
    case string(String)

    /// Decodes a number, or else a string.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(Int.self) { self = .int(value) } else { self = .string(try container.decode(String.self)) }
    }

    /// Writes the value as it was sent.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .int(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        }
    }
}

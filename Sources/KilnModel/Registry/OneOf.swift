/// A set of types that share one JSON slot, told apart by a discriminator: the
/// ``ModelRegistry`` that ``OneOf`` properties read through.
///
/// ```swift
/// protocol Attachment: Sendable {}
/// @DataModel struct ImageAttachment: Attachment { var type = ""; var url = "" }
/// @DataModel struct PollAttachment: Attachment { var type = ""; var question = "" }
///
/// enum Attachments: ModelFamily {
///     static let registry: ModelRegistry<any Attachment> = {
///         var registry = ModelRegistry<any Attachment>(discriminator: "type")
///         registry.register("image", as: ImageAttachment.self)
///         registry.register("poll", as: PollAttachment.self)
///         return registry
///     }()
/// }
/// ```
public protocol ModelFamily {
    /// What every member of the family is presented as, usually a protocol.
    associatedtype Base
    /// The registry that picks a member by its discriminator.
    static var registry: ModelRegistry<Base> { get }
}

/// A value of whichever member of `Family` its discriminator names, as a model property:
/// `var attachment: OneOf<Attachments>?` or, lossy, `var attachments: [OneOf<Attachments>] = []`.
///
/// Decoding goes through the family's ``ModelRegistry``, through either decoder. A value whose
/// discriminator names no registered type is unusable like any other: an optional property is
/// `nil` with an `invalid` repair, and a list leaves it out with a `dropped` repair. Encoding
/// writes the member as it encodes itself (include the discriminator as one of its properties
/// to write it back).
public struct OneOf<Family: ModelFamily>: Codable {
    /// The decoded member.
    public var value: Family.Base

    /// Wraps a member.
    public init(_ value: Family.Base) {
        self.value = value
    }

    public init(from decoder: any Decoder) throws {
        do {
            value = try Family.registry.decodeItem(from: decoder)
        } catch let error as RegistryError {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        guard let encodable = value as? any Encodable else {
            throw EncodingError.invalidValue(
                value, .init(codingPath: encoder.codingPath, debugDescription: "\(type(of: value)) is not Encodable"))
        }
        try encodable.encode(to: encoder)
    }
}

extension OneOf: Sendable where Family.Base: Sendable {}

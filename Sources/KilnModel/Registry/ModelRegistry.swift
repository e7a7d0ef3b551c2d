import Foundation

/// Decodes a list whose elements have different shapes, picking each element's type by a
/// discriminator (`"modelType": 1`) and presenting them all as one protocol.
///
/// ```swift
/// var registry = ModelRegistry<any TicketDisplay>(discriminator: "modelType")
/// registry.register("1", as: CouponTicket.self)
/// registry.register("2", as: DiscountTicket.self)
/// registry.register("3", as: ExchangeTicket.self)
/// let (tickets, repairs) = try registry.decodeList(from: data, at: "data")
/// ```
///
/// The discriminator is read from each element, or once from the document (a response that
/// carries `modelType` beside its `data` list) — see ``Location``. Values are compared as text,
/// so `1`, `"1"` and `1.0` match the same registration. Elements with an unknown discriminator are
/// skipped with an `unknownType` repair; elements that fail to decode are dropped with a repair.
/// Adding a type is one `register` call.
public struct ModelRegistry<Base>: Sendable {
    /// Where the discriminator is.
    public enum Location: Sendable, Hashable {
        /// In every element of the list.
        case element
        /// Once, at this path from the document's root, naming the type of every element.
        case document(JSONPath)
    }

    typealias Factory = @Sendable (any Decoder) throws -> Base?

    /// The discriminator key, read from each element or from the document.
    public let discriminator: JSONPath
    /// Where the discriminator is read.
    public let location: Location
    private var factories: [String: (name: String, make: Factory)] = [:]

    /// A registry reading `discriminator` (a key or path) at `location`.
    public init(discriminator: JSONPath = "modelType", location: Location = .element) {
        self.discriminator = discriminator
        self.location = location
    }

    /// Registers `type` for elements whose discriminator reads `value`. The decoded value is
    /// cast to `Base`; a type that is not a `Base` has each element dropped with a repair.
    public mutating func register<T: Decodable & Sendable>(_ value: String, as type: T.Type) {
        factories[value] = (Repair.typeName(type), { decoder in try T(from: decoder) as? Base })
    }

    /// Registers `type` for `value`, turning each decoded value into `Base` with `convert`.
    public mutating func register<T: Decodable & Sendable>(_ value: String, as type: T.Type, convert: @escaping @Sendable (T) -> Base) {
        factories[value] = (Repair.typeName(type), { decoder in convert(try T(from: decoder)) })
    }

    /// The discriminator values registered, sorted.
    public var registeredValues: [String] { factories.keys.sorted() }

    /// Decodes the list at `path` (the whole document when `nil`), skipping and logging elements
    /// of unknown or undecodable kinds.
    ///
    /// - Throws: ``ModelDecodingError`` when the bytes are not JSON or `path` holds no array.
    public func decodeList(
        from data: Data, at path: JSONPath? = "data", policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> (items: [Base], repairs: [Repair]) {
        try decodeList(from: JSONDocument(parsing: data), at: path, policy: policy)
    }

    /// Decodes the list at `path` of a document already read (the whole document when `nil`),
    /// skipping and logging elements of unknown or undecodable kinds.
    ///
    /// - Throws: ``ModelDecodingError`` when `path` holds no array.
    public func decodeList(
        from document: JSONDocument, at path: JSONPath? = "data", policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> (items: [Base], repairs: [Repair]) {
        var decoder = KilnDecoder(policy: policy)
        decoder.userInfo[.kilnRegistryRequest] = RegistryRequest(registry: self, path: path)
        let (list, repairs) = try decoder.decodeWithRepairs(RegistryList<Base>.self, from: document)
        return (list.items, repairs)
    }

    /// Decodes the one object at `path` (the whole document when `nil`) as the type its
    /// discriminator names: a single internally tagged value, such as one notification or one
    /// attachment. With ``Location/document(_:)``, the discriminator is read from the document's
    /// root. Inside a model, use ``OneOf`` instead.
    ///
    /// - Throws: ``ModelDecodingError`` when the bytes are not JSON, `path` holds nothing, the
    ///   discriminator names no registered type, or the type cannot be decoded.
    public func decode(
        from data: Data, at path: JSONPath? = nil, policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> (item: Base, repairs: [Repair]) {
        try decode(from: JSONDocument(parsing: data), at: path, policy: policy)
    }

    /// Decodes the one object at `path` of a document already read as the type its
    /// discriminator names.
    ///
    /// - Throws: ``ModelDecodingError`` when `path` holds nothing, the discriminator names no
    ///   registered type, or the type cannot be decoded.
    public func decode(
        from document: JSONDocument, at path: JSONPath? = nil, policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> (item: Base, repairs: [Repair]) {
        var decoder = KilnDecoder(policy: policy)
        decoder.userInfo[.kilnRegistryRequest] = RegistryRequest(registry: self, path: path)
        let (one, repairs) = try decoder.decodeWithRepairs(RegistryItem<Base>.self, from: document)
        return (one.item, repairs)
    }

    /// Decodes the value `decoder` holds as the type its discriminator names (read from the
    /// value itself, or given when the document names it once).
    func decodeItem(from decoder: any Decoder, documentDiscriminator: JSONValue? = nil) throws -> Base {
        let discriminatorValue = documentDiscriminator ?? (try? Navigator.value(at: discriminator, in: decoder)) ?? .null
        guard let chosen = factory(for: discriminatorValue) else {
            throw RegistryError.unknownType(discriminator: "\(discriminator)", found: discriminatorValue.preview(), registered: registeredValues)
        }
        guard let item = try chosen.make(decoder) else {
            throw RegistryError.notBase(type: chosen.name, base: String(describing: Base.self))
        }
        return item
    }

    /// The name of the type registered for a discriminator value.
    func typeName(for raw: JSONValue) -> String {
        factory(for: raw)?.name ?? String(describing: Base.self)
    }

    func factory(for raw: JSONValue) -> (name: String, make: Factory)? {
        guard let key = String.coerce(from: raw, truncating: false) else { return nil }
        return factories[key]
    }
}

extension CodingUserInfoKey {
    static let kilnRegistryRequest: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "kiln.registryRequest") else {
            preconditionFailure("a non-empty raw value always makes a key")
        }
        return key
    }()
}

struct RegistryRequest<Base>: @unchecked Sendable {
    let registry: ModelRegistry<Base>
    let path: JSONPath?
}

/// Why one tagged value could not be decoded.
enum RegistryError: Error, CustomStringConvertible {
    case unknownType(discriminator: String, found: String, registered: [String])
    case notBase(type: String, base: String)

    var description: String {
        switch self {
        case .unknownType(let discriminator, let found, let registered):
            "\(discriminator) \(found) names no registered type (one of \(registered))"
        case .notBase(let type, let base): "\(type) is not a \(base)"
        }
    }
}

/// One tagged value at the root of a registry decode.
struct RegistryItem<Base>: Decodable {
    var item: Base

    init(from decoder: any Decoder) throws {
        guard let request = decoder.userInfo[.kilnRegistryRequest] as? RegistryRequest<Base> else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "no registry request"))
        }
        let registry = request.registry
        var documentDiscriminator: JSONValue?
        if case .document(let discriminatorPath) = registry.location {
            documentDiscriminator = (try? Navigator.value(at: discriminatorPath, in: decoder)) ?? .null
        }
        let target = try Navigator.decoder(at: request.path, in: decoder, nullIsMissing: true)
        do {
            item = try registry.decodeItem(from: target, documentDiscriminator: documentDiscriminator)
        } catch let error as RegistryError {
            throw DecodingError.dataCorrupted(.init(codingPath: target.codingPath, debugDescription: error.description))
        }
    }
}

struct RegistryList<Base>: Decodable {
    var items: [Base] = []

    init(from decoder: any Decoder) throws {
        guard let request = decoder.userInfo[.kilnRegistryRequest] as? RegistryRequest<Base> else {
            throw DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "no registry request"))
        }
        let session = DecodingSession.current(in: decoder)
        let registry = request.registry
        var documentDiscriminator: JSONValue?
        if case .document(let discriminatorPath) = registry.location {
            documentDiscriminator = (try? Navigator.value(at: discriminatorPath, in: decoder)) ?? .null
        }
        let listDecoder = try Navigator.decoder(at: request.path, in: decoder)
        var list = try listDecoder.unkeyedContainer()
        while !list.isAtEnd {
            let index = list.currentIndex
            let element = try list.superDecoder()
            let path = CodingPathFormatter.components(listDecoder.codingPath) + [.index(index)]
            do {
                items.append(try registry.decodeItem(from: element, documentDiscriminator: documentDiscriminator))
            } catch RegistryError.unknownType(let discriminator, let found, let registered) {
                session?.recordIfRecording(.unknownType, path: path, expected: "one of \(registered)", found: "\(discriminator) \(found)", result: "skipped")
            } catch RegistryError.notBase(let type, let base) {
                session?.recordIfRecording(.dropped, path: path, expected: base, found: type, result: "dropped")
            } catch {
                let reason = ModelDecodingError.translating(error, data: nil)
                let name = registry.typeName(for: documentDiscriminator ?? (try? Navigator.value(at: registry.discriminator, in: element)) ?? .null)
                session?.recordIfRecording(.dropped, path: path, expected: name, found: reason.description, result: "dropped")
            }
        }
    }
}

/// Walks a decoder down a key path.
enum Navigator {
    /// The decoder for the value at `path`; throws `pathNotFound` when a step is absent (or, with
    /// `nullIsMissing`, null: a member or an element alike). The rule of `JSONTape.locate`, over
    /// any `Decoder`; `KilnDecoder.descend` gives the same errors.
    static func decoder(at path: JSONPath?, in decoder: any Decoder, nullIsMissing: Bool = false) throws -> any Decoder {
        var current = decoder
        for component in path?.components ?? [] {
            switch component {
            case .key(let key):
                let container = try current.container(keyedBy: AnyCodingKey.self)
                guard container.contains(AnyCodingKey(key)),
                    !nullIsMissing || (try? container.decodeNil(forKey: AnyCodingKey(key))) != true
                else {
                    throw ModelDecodingError.pathNotFound(path: CodingPathFormatter.format(current.codingPath + [AnyCodingKey(key)]))
                }
                current = try container.superDecoder(forKey: AnyCodingKey(key))
            case .index(let index):
                var container = try current.unkeyedContainer()
                let notFound = ModelDecodingError.pathNotFound(path: CodingPathFormatter.format(current.codingPath + [AnyCodingKey(index: index)]))
                guard let count = container.count, index >= 0, index < count else { throw notFound }
                for _ in 0..<index { _ = try container.decode(Skip.self) }
                if nullIsMissing, (try? container.decodeNil()) == true { throw notFound }
                current = try container.superDecoder()
            }
        }
        return current
    }

    static func value(at path: JSONPath, in decoder: any Decoder) throws -> JSONValue {
        try JSONValue(from: try Self.decoder(at: path, in: decoder))
    }
}

extension DecodingSession {
    func recordIfRecording(_ kind: Repair.Kind, path: [JSONPath.Component], expected: String, found: String, result: String) {
        guard isRecording else { return }
        record(Repair(path: CodingPathFormatter.format(path), kind: kind, expected: expected, found: found, result: result))
    }
}

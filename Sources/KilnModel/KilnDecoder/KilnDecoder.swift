import Foundation

/// Kiln's own JSON decoder: strict RFC 8259 reading, then tolerant decoding by the same rules as
/// `@DataModel` through Foundation — at several times Foundation's speed.
///
/// It decodes any `Decodable`. Strict `Codable` types decode exactly as with `JSONDecoder`, and
/// it takes the same strategies with the same results: ``dateDecodingStrategy``,
/// ``dataDecodingStrategy``, ``nonConformingFloatDecodingStrategy``, ``keyDecodingStrategy`` and
/// ``userInfo``. `@DataModel` types get defaults, coercion, key aliases and paths, lossy
/// collections and the repair log.
///
/// ```swift
/// let decoder = KilnDecoder()
/// let page = try decoder.decode(Page.self, from: data, at: "data")
///
/// let (list, repairs) = try decoder.decodeWithRepairs([Article].self, from: data, at: "data.list")
/// for repair in repairs { print(repair) } // data.list[3].author.followers: expected Int, found "12k" → 0
/// ```
///
/// Every failure is a ``ModelDecodingError``: syntax errors name the byte offset, line and
/// column; shape errors name the coding path.
///
/// `Data` and byte arrays are read where they lie: of the document, only its last bytes are copied
/// (those after its last string, or, in a document that ends in numbers, after its last bracket
/// or comma; all of it when its last four kilobytes hold none of these). Text and a
/// ``JSONDocument`` are read from a copy. The repair log of such a decode keeps copies of the
/// values its entries show, not the document.
public struct KilnDecoder: Sendable {
    /// Defaults and rules for tolerant decoding.
    public var policy: DecodingPolicy
    /// How strictly the bytes are read (nesting limit).
    public var readerOptions = JSONReaderOptions()
    /// Values handed to every `Decodable` through `Decoder.userInfo`, beside Kiln's
    /// ``DecodingSession`` (under `CodingUserInfoKey.kilnDecodingSession`).
    public var userInfo: [CodingUserInfoKey: any Sendable] = [:]
    /// Whether `@DataModel` types decode through their generated `init(kiln:)` (the default) or,
    /// when `false`, through their `init(from:)` over this decoder's `Decoder` containers. Both
    /// give the same values and repair log; the switch lets Kiln's benchmarks and tests measure
    /// and compare the two paths on the same models.
    @_spi(Testing) public var usesFastPath = true
    /// What the `…Strategy` properties set.
    var strategies = KilnDecodingStrategies()

    /// A decoder following `policy`.
    public init(policy: DecodingPolicy = DecodingPolicy()) {
        self.policy = policy
    }

    /// A decoder that reads `@DataModel` types through their generated `init(from:)` over this
    /// decoder's own `Decoder` containers instead of their fast `init(kiln:)`: what Kiln's tests
    /// compare with the fast path, and the benchmark's "generic Decoder path" row.
    @_spi(Testing) public static var decoderProtocolPath: KilnDecoder {
        var decoder = KilnDecoder()
        decoder.usesFastPath = false
        return decoder
    }

    // MARK: Decoding

    /// Decodes `type` from the document, or from inside it at `keyPath` (`"data.list"`).
    ///
    /// An array at the root or at `keyPath` is lossy, like array properties of `@DataModel`
    /// types: elements that cannot be used are dropped. Repairs go to the policy's `onRepair`.
    /// A collection of numbers (`[Float]`, `[String: Int64]`) is read as `JSONDecoder` reads it:
    /// a number that does not fit its type is an error.
    /// - Throws: ``ModelDecodingError``.
    public func decode<T: Decodable>(_ type: T.Type, from data: Data, at keyPath: JSONPath? = nil) throws(ModelDecodingError) -> T {
        try JSONDocument.reading(anyEncoding: data, options: readerOptions) { document throws(ModelDecodingError) in
            try decode(type, from: document, at: keyPath, session: DecodingSession(policy: policy, keepsRepairs: false))
        }
    }

    /// Decodes `type` from UTF-8 bytes.
    public func decode<T: Decodable>(_ type: T.Type, from bytes: [UInt8], at keyPath: JSONPath? = nil) throws(ModelDecodingError) -> T {
        try JSONDocument.reading(anyEncoding: bytes, options: readerOptions) { document throws(ModelDecodingError) in
            try decode(type, from: document, at: keyPath, session: DecodingSession(policy: policy, keepsRepairs: false))
        }
    }

    /// Decodes `type` from JSON text.
    public func decode<T: Decodable>(_ type: T.Type, from text: String, at keyPath: JSONPath? = nil) throws(ModelDecodingError) -> T {
        let document = try JSONDocument(parsing: text, options: readerOptions)
        return try decode(type, from: document, at: keyPath, session: DecodingSession(policy: policy, keepsRepairs: false))
    }

    /// Decodes `type` from a document already read, e.g. to decode several parts of one response.
    public func decode<T: Decodable>(_ type: T.Type, from document: JSONDocument, at keyPath: JSONPath? = nil) throws(ModelDecodingError) -> T {
        try decode(type, from: document, at: keyPath, session: DecodingSession(policy: policy, keepsRepairs: false))
    }

    // MARK: Decoding with the repair log

    /// Decodes `type` and returns what was repaired on the way.
    ///
    /// ```swift
    /// let (page, repairs) = try KilnDecoder().decodeWithRepairs(Page.self, from: data, at: "data")
    /// ```
    public func decodeWithRepairs<T: Decodable>(
        _ type: T.Type, from data: Data, at keyPath: JSONPath? = nil
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        try decodeWithRepairs(type, reading: data, at: keyPath)
    }

    /// Decodes `type` from UTF-8 bytes and returns what was repaired on the way.
    public func decodeWithRepairs<T: Decodable>(
        _ type: T.Type, from bytes: [UInt8], at keyPath: JSONPath? = nil
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        try decodeWithRepairs(type, reading: bytes, at: keyPath)
    }

    /// Decodes `type` from JSON text and returns what was repaired on the way.
    public func decodeWithRepairs<T: Decodable>(
        _ type: T.Type, from text: String, at keyPath: JSONPath? = nil
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        try decodeWithRepairs(type, from: JSONDocument(parsing: text, options: readerOptions), at: keyPath)
    }

    /// Decodes `type` from a document already read and returns what was repaired on the way.
    public func decodeWithRepairs<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, at keyPath: JSONPath? = nil
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        let session = DecodingSession(policy: policy, keepsRepairs: true)
        let value = try decode(type, from: document, at: keyPath, session: session)
        return (value, session.repairs)
    }

    /// The decode with a repair log of bytes read in place: the log lets go of them before they
    /// go (``DecodingSession/detach(from:)``), so the document is not copied to keep it.
    private func decodeWithRepairs<T: Decodable, Bytes: ContiguousBytes>(
        _ type: T.Type, reading bytes: Bytes, at keyPath: JSONPath?
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        let (value, session) = try JSONDocument.reading(anyEncoding: bytes, options: readerOptions) { document throws(ModelDecodingError) in
            let session = DecodingSession(policy: policy, keepsRepairs: true)
            session.readInPlace(document.tape)
            let value = try decode(type, from: document, at: keyPath, session: session)
            session.detach(from: document.tape)
            return (value, session)
        }
        // Published once the document's tape is gone, so the two are never held at once.
        return (value, session.repairs)
    }

    /// Decodes `type` from JSON text with the repair log, a collection of numbers at the root
    /// lossy as a model's property is.
    func decodePropertyWithRepairs<T: Decodable>(_ type: T.Type, from text: String) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        let session = DecodingSession(policy: policy, keepsRepairs: true)
        let value = try decode(type, from: JSONDocument(parsing: text, options: readerOptions), at: nil, session: session, numbersLossy: true)
        return (value, session.repairs)
    }

    // MARK: Machinery

    /// `numbersLossy`: whether a collection of numbers at the root is lossy too, as inside a
    /// model: for a list that is a model's property (``EmbeddedJSONTransform``), not a document.
    func decode<T: Decodable>(
        _ type: T.Type, from document: JSONDocument, at keyPath: JSONPath?, session: DecodingSession, numbersLossy: Bool = false
    ) throws(ModelDecodingError) -> T {
        var info: [CodingUserInfoKey: Any] = [:]
        for (key, value) in userInfo { info[key] = value }
        info[.kilnDecodingSession] = session
        // Converted keys are matched through `init(from:)`, as Foundation matches them.
        let context = KilnDecodingContext(
            tape: document.tape, session: session, userInfo: info,
            usesFastPath: usesFastPath && strategies.usesDefaultKeys, strategies: strategies)
        do {
            var decoder = KilnValueDecoder(context: context, index: 0, node: nil)
            if let keyPath { decoder = try Self.descend(decoder, along: keyPath) }
            if let lossy = T.self as? any LossyDecodable.Type, numbersLossy || !Self.holdsOnlyNumbers(T.self),
                let value = try lossy.decodeLossy(from: decoder) as? T
            {
                return value
            }
            // A subclass passed as its superclass's metatype decodes as the subclass, as in Foundation.
            if ObjectIdentifier(type) != ObjectIdentifier(T.self) { return try type.init(from: decoder) }
            return try context.decodeValue(T.self, at: decoder.index, decoder.node, nil)
        } catch {
            throw ModelDecodingError.translating(error, data: nil)
        }
    }

    /// Walks to `keyPath` by the document's one walk (`JSONTape.locate`), with the errors of the
    /// entry point over `JSONDecoder` (`Navigator`): a step into a value of the wrong kind fails
    /// as that container fails; a missing key, an index past the end, or a `null` on the way or
    /// at the end is ``ModelDecodingError/pathNotFound(path:)``, naming the path to that step.
    static func descend(_ start: KilnValueDecoder, along keyPath: JSONPath) throws -> KilnValueDecoder {
        let context = start.context
        let components = keyPath.components
        // The decoder at the value `steps` steps down, with its coding path.
        func decoder(through steps: Int, at index: Int) -> KilnValueDecoder {
            var node = start.node
            for component in components.prefix(steps) {
                switch component {
                case .key(let key): node = KilnPathNode(parent: node, step: .key(key))
                case .index(let position): node = KilnPathNode(parent: node, step: .index(position))
                }
            }
            return KilnValueDecoder(context: context, index: index, node: node)
        }
        func notFound(through steps: Int) -> ModelDecodingError {
            .pathNotFound(path: CodingPathFormatter.format(CodingPathFormatter.components(start.codingPath) + components.prefix(steps)))
        }
        switch context.tape.locate(components, from: start.index, member: { context.member(of: $0, key: $1) }) {
        case .value(let index):
            return decoder(through: components.count, at: index)
        case .null(let index):
            // `"data": null` is no data.
            if components.isEmpty { return decoder(through: 0, at: index) }
            throw notFound(through: components.count)
        case .absent(let step, let from):
            if step > 0, context.kind(from) == .null { throw notFound(through: step) }
            let holder = decoder(through: step, at: from)
            if case .key = components[step] {
                _ = try holder.container(keyedBy: AnyCodingKey.self)
            } else {
                _ = try holder.unkeyedContainer()
            }
            throw notFound(through: step + 1)
        }
    }
}

import Foundation

extension JSONDecoder {
    /// Decodes `type` tolerantly and returns what the decoder repaired on the way.
    ///
    /// ```swift
    /// let (page, repairs) = try JSONDecoder().decodeWithRepairs(Page.self, from: data, at: "data")
    /// for repair in repairs { print(repair) } // data.list[3].author.followers: expected Int, found "12k" → 0
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: where the value sits in the document (`"data"`, `"data.list"`), or `nil` for the root.
    ///   - policy: defaults and rules for this decode.
    /// - Throws: ``ModelDecodingError`` when the bytes are not JSON, the key path is absent, or
    ///   the value there has the wrong kind. An array at the root or at `keyPath` is lossy, like
    ///   array properties: bad elements are dropped and logged.
    public func decodeWithRepairs<T: Decodable>(
        _ type: T.Type, from data: Data, at keyPath: JSONPath? = nil, policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> (value: T, repairs: [Repair]) {
        let session = DecodingSession(policy: policy, keepsRepairs: true, rootPath: keyPath)
        let value: T = try decode(type, from: data, session: session)
        return (value, session.repairs)
    }

    /// Decodes `type` tolerantly from the document, or from inside it at `keyPath`, following
    /// `policy`. Repairs go to the policy's `onRepair`, if set.
    ///
    /// ```swift
    /// let list = try JSONDecoder().decode([Message].self, from: data, at: "data.list")
    /// ```
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, at keyPath: JSONPath?, policy: DecodingPolicy = DecodingPolicy()
    ) throws(ModelDecodingError) -> T {
        let session = DecodingSession(policy: policy, keepsRepairs: false, rootPath: keyPath)
        return try decode(type, from: data, session: session)
    }

    func decode<T: Decodable>(_ type: T.Type, from data: Data, session: DecodingSession) throws(ModelDecodingError) -> T {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = dateDecodingStrategy
        decoder.dataDecodingStrategy = dataDecodingStrategy
        decoder.nonConformingFloatDecodingStrategy = nonConformingFloatDecodingStrategy
        decoder.keyDecodingStrategy = keyDecodingStrategy
        decoder.userInfo = userInfo
        decoder.userInfo[.kilnDecodingSession] = session
        do {
            return try decoder.decode(Root<T>.self, from: data).value
        } catch {
            throw ModelDecodingError.translating(error, data: data)
        }
    }
}

/// Decodes the requested value at the session's root path, lossy when it is a collection.
struct Root<T: Decodable>: Decodable {
    var value: T

    init(from decoder: any Decoder) throws {
        let path = DecodingSession.current(in: decoder)?.rootPath
        value = try Self.decodeValue(from: Navigator.decoder(at: path, in: decoder, nullIsMissing: true))
    }

    static func decodeValue(from decoder: any Decoder) throws -> T {
        if let lossy = T.self as? any LossyDecodable.Type {
            let decoded = try lossy.decodeLossy(from: decoder)
            if let value = decoded as? T { return value }
        }
        return try T(from: decoder)
    }
}

/// Reads a value and keeps nothing: how Kiln steps over array elements.
struct Skip: Decodable {
    init(from decoder: any Decoder) throws {}
}

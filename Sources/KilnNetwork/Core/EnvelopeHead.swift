import Foundation
import KilnModel

/// The parts of a body an envelope check needs (its code and message), read without building
/// the rest of the document: a partial tree holding only the values at the requested paths.
struct EnvelopeHead: Decodable {
    static let pathsKey: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "kiln.envelopePaths") else {
            preconditionFailure("a non-empty raw value always makes a key")
        }
        return key
    }()

    /// An object holding the requested values at their paths, `null` where absent.
    var root: JSONValue = .object([:])

    init(from decoder: any Decoder) throws {
        let paths = decoder.userInfo[Self.pathsKey] as? [String] ?? []
        // A body that is not an object has no envelope: let the caller report it.
        _ = try decoder.container(keyedBy: AnyCodingKey.self)
        for text in paths {
            guard let path = try? JSONPath(parsing: text),
                let value = Self.value(at: path.components[...], in: decoder)
            else { continue }
            root.set(value, at: path)
        }
    }

    static func value(at path: ArraySlice<JSONPath.Component>, in decoder: any Decoder) -> JSONValue? {
        guard let first = path.first else { return try? JSONValue(from: decoder) }
        switch first {
        case .key(let key):
            guard let container = try? decoder.container(keyedBy: AnyCodingKey.self),
                container.contains(AnyCodingKey(key)),
                let next = try? container.superDecoder(forKey: AnyCodingKey(key))
            else { return nil }
            return value(at: path.dropFirst(), in: next)
        case .index(let index):
            guard var list = try? decoder.unkeyedContainer(), let count = list.count, index < count else { return nil }
            for _ in 0..<index { _ = try? list.decode(JSONValue.self) }
            guard let next = try? list.superDecoder() else { return nil }
            return value(at: path.dropFirst(), in: next)
        }
    }
}

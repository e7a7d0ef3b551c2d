import Foundation
@_spi(KilnInternal) import KilnModel

/// What must hold along the KilnModel half of `APIClient`'s envelope path, for any document.
///
/// The client reads a response once with `JSONDocument`, reads the envelope's `code` with
/// `value(at:)`, and decodes `data` with `KilnDecoder` either in place (`at: "data"`) or from the
/// bytes `rawJSON(at: "data")` kept (a cache hit on unchanged bytes). Both ways must agree:
///
/// - `rawJSON(at:)` finds a value exactly when `value(at:)` does, and its bytes read back to the
///   same ``JSONValue`` (for `code` and `data`);
/// - the article page's `data` (``ArticleData``) decoded in place and decoded from its own bytes
///   give equal values, and equal repair logs once the latter's paths are put under `data`; when
///   both fail, they fail with the same error at the same place. An absent or `null` `data`
///   fails in place with `pathNotFound` (what the client turns into `nil` for an optional
///   value), or, when the document is not an object, with the root's type mismatch.
///
/// Shared by the fuzz target (arbitrary bytes) and the unit tests (hand-written documents).
public enum EnvelopeInvariants {
    /// The invariants `document` breaks, one sentence each; empty when all hold. `decoder`
    /// decodes both ways and its reader options read the kept bytes again.
    public static func violations(in document: JSONDocument, decoder: KilnDecoder = KilnDecoder()) -> [String] {
        var broken: [String] = []
        for path: JSONPath in ["code", "data"] {
            broken += keptBytesViolations(in: document, at: path, options: decoder.readerOptions)
        }
        broken += decodeViolations(in: document, decoder: decoder)
        return broken
    }

    static func keptBytesViolations(in document: JSONDocument, at path: JSONPath, options: JSONReaderOptions) -> [String] {
        switch (document.value(at: path), document.rawJSON(at: path)) {
        case (nil, nil):
            return []
        case (let value?, let bytes?):
            guard let again = try? JSONDocument(parsing: bytes, options: options).value else {
                return ["\(path): its bytes \(show(bytes)) are not JSON on their own"]
            }
            return again == value ? [] : ["\(path): its bytes \(show(bytes)) read as \(again.jsonText.prefix(80)), not \(value.jsonText.prefix(80))"]
        case (.some, nil):
            return ["\(path): value(at:) finds a value but rawJSON(at:) finds no bytes"]
        case (nil, let bytes?):
            return ["\(path): rawJSON(at:) finds \(show(bytes)) but value(at:) finds nothing"]
        }
    }

    static func decodeViolations(in document: JSONDocument, decoder: KilnDecoder) -> [String] {
        let path: JSONPath = "data"
        let inPlace = Result { () throws(ModelDecodingError) in try decoder.decodeWithRepairs(ArticleData.self, from: document, at: path) }
        guard let bytes = document.rawJSON(at: path), document.value(at: path) != .null else {
            switch inPlace {
            case .failure(.pathNotFound(path: path.description)): return []
            case .failure where !isObject(document.value): return [] // no envelope at all: the root's kind fails first
            default: return ["data: absent or null, yet decoding in place \(outcome(inPlace)) (expected pathNotFound)"]
            }
        }
        let alone = Result { () throws(ModelDecodingError) in try decoder.decodeWithRepairs(ArticleData.self, from: bytes) }
        switch (inPlace, alone) {
        case (.success(let inPlace), .success(let alone)):
            var broken: [String] = []
            if inPlace.value != alone.value { broken.append("data: decoded in place and from its bytes, the values differ") }
            let moved = alone.repairs.map { $0.under(path) }
            if inPlace.repairs != moved {
                let first = zip(inPlace.repairs, moved).first { $0 != $1 }.map { "\($0) vs \($1)" } ?? "\(inPlace.repairs.count) vs \(moved.count) repairs"
                broken.append("data: the repair logs differ: \(first)")
            }
            return broken
        case (.failure(let inPlace), .failure(let alone)):
            let moved = under(path, alone)
            return inPlace == moved ? [] : ["data: in place \(inPlace), from its bytes \(moved)"]
        default:
            return ["data: in place \(outcome(inPlace)), from its bytes \(outcome(alone))"]
        }
    }

    /// An error from decoding the value at `path` alone, as if decoded in place.
    static func under(_ path: JSONPath, _ error: ModelDecodingError) -> ModelDecodingError {
        switch error {
        case .invalidJSON: error
        case .typeMismatch(let inner, let expected, let found): .typeMismatch(path: path.locating(inner), expected: expected, found: found)
        case .pathNotFound(let inner): .pathNotFound(path: path.locating(inner))
        case .failed(let inner, let message): .failed(path: path.locating(inner), message: message)
        }
    }

    static func isObject(_ value: JSONValue) -> Bool {
        if case .object = value { true } else { false }
    }

    static func outcome<T>(_ result: Result<T, ModelDecodingError>) -> String {
        switch result {
        case .success: "succeeded"
        case .failure(let error): "failed (\(error))"
        }
    }

    static func show(_ bytes: Data) -> String {
        String(decoding: bytes.prefix(80), as: UTF8.self).debugDescription
    }
}

import Foundation
import Testing

@testable import KilnModel

/// The decoding behaviours swift-foundation's own JSON tests pin down, for plain `Decodable`
/// types: each case decodes the same bytes through `JSONDecoder` and ``KilnDecoder``, configured
/// alike, and expects the same outcome. Cases where Kiln still differs run inside
/// `withKnownIssue`, so the gap stays visible and counted (and turns red once fixed).
///
/// The cases live in `FoundationConformanceTests+….swift`, one file per area; number conversion
/// has suites of its own.
@Suite("Foundation conformance")
struct FoundationConformanceTests {
    typealias Strategies = KilnDecoderStrategyTests.Strategies

    /// What a decode came to, in the terms both decoders share: the value as `dump` shows it
    /// (types and fields, classes included), or the error's kind and coding path.
    enum Outcome: Equatable, CustomStringConvertible {
        case value(String)
        case error(Kind, path: String)

        enum Kind: String {
            case typeMismatch, valueNotFound, keyNotFound, dataCorrupted, invalidJSON
        }

        var isError: Bool {
            if case .error = self { return true }
            return false
        }

        var description: String {
            switch self {
            case .value(let text): "value \(text)"
            case .error(let kind, let path): "\(kind.rawValue) at '\(path)'"
            }
        }

        static func describing<T>(_ value: T) -> Outcome {
            var text = ""
            dump(value, to: &text)
            return .value(text)
        }

        /// Normalizes either decoder's error. Foundation's `DecodingError` goes through the same
        /// translation `KilnDecoder` applies to its own, so both arrive as a ``ModelDecodingError``:
        /// a `null` mismatch is `valueNotFound`, a missing key's path ends with the key, and any
        /// other failure of a value (or a type's own error) is `dataCorrupted`.
        static func error(_ error: any Error, data: Data) -> Outcome {
            switch ModelDecodingError.translating(error, data: data) {
            case .invalidJSON: .error(.invalidJSON, path: "")
            case .typeMismatch(let path, _, let found): .error(found == "null" ? .valueNotFound : .typeMismatch, path: path)
            case .pathNotFound(let path): .error(.keyNotFound, path: path)
            case .failed(let path, _): .error(.dataCorrupted, path: path)
            }
        }
    }

    /// Decodes `data` as `type` through both decoders (the metatype is passed on as given, so a
    /// subclass's `Person.Type` value decodes the subclass) and returns both outcomes.
    ///
    /// `KilnDecoder` reads a collection at the root lossily, by design (see
    /// ``aCollectionAtTheRootIsLossyByDesign()``), unless it holds numbers; a collection anywhere
    /// else is strict, so a root collection is compared as read through a single-value container,
    /// which adds nothing to the path.
    static func outcomes<T: Decodable>(_ type: T.Type, _ data: Data, _ strategies: Strategies = Strategies()) -> (foundation: Outcome, kiln: Outcome) {
        if T.self is any LossyDecodable.Type { return outcomes(Strict<T>.self, data, strategies) }
        let foundation: Outcome
        do {
            foundation = .describing(try strategies.foundation.decode(type, from: data))
        } catch {
            foundation = .error(error, data: data)
        }
        let kiln: Outcome
        do {
            kiln = .describing(try strategies.kiln.decode(type, from: data))
        } catch {
            kiln = .error(error, data: data)
        }
        return (foundation, kiln)
    }

    /// Expects both decoders to agree on `data`; returns Foundation's outcome so that a case can
    /// also say what that outcome is.
    @discardableResult
    static func expectSame<T: Decodable>(
        _ type: T.Type, _ data: Data, _ strategies: Strategies = Strategies(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        let (foundation, kiln) = outcomes(type, data, strategies)
        #expect(kiln == foundation, "JSONDecoder: \(foundation)", sourceLocation: sourceLocation)
        return foundation
    }

    @discardableResult
    static func expectSame<T: Decodable>(
        _ type: T.Type, _ json: String, _ strategies: Strategies = Strategies(), sourceLocation: SourceLocation = #_sourceLocation
    ) -> Outcome {
        expectSame(type, Data(json.utf8), strategies, sourceLocation: sourceLocation)
    }

    /// `T` read through the root's single-value container.
    struct Strict<T: Decodable>: Decodable {
        var value: T
        init(from decoder: any Decoder) throws {
            value = try decoder.singleValueContainer().decode(T.self)
        }
    }

    /// Lossy unless it holds numbers, which are read exactly (`NumberConformanceTests`).
    @Test func aCollectionAtTheRootIsLossyByDesign() throws {
        let data = Data(#"["a", null, "c"]"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([String].self, from: data) }
        #expect(try KilnDecoder().decode([String].self, from: data) == ["a", "c"])
    }
}

import Foundation
@_spi(Testing) import KilnModel
import Testing

/// A value read through a decoder of its own (a plain enum, a type of the app's own) gets its
/// path node only when a path is asked for. Errors, repairs and `codingPath` name the same path
/// as through Foundation's decoder.
@Suite struct ValuePathTests {
    enum Kind: String, Codable, Equatable { case card, transfer }

    /// Reads one `Double` through its single-value container.
    struct Meters: Codable, Equatable {
        var value: Double
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Double.self) }
    }

    /// Keeps the coding path it was decoded at.
    struct PathEcho: Codable, Equatable {
        var path: String
        init(from decoder: any Decoder) throws {
            path = decoder.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".")
            _ = try? decoder.singleValueContainer().decode(String.self)
        }
    }

    struct Leg: Codable, Equatable {
        var kind: Kind
        var length: Meters
        var echo: PathEcho
    }

    struct Trip: Codable, Equatable {
        var legs: [Leg]
        var first: Leg
    }

    @Test(arguments: [
        #"{"legs": [{"kind": "card", "length": 2.5, "echo": 1}], "first": {"kind": "transfer", "length": 1, "echo": "x"}}"#,
        #"{"legs": [{"kind": "card", "length": 2.5, "echo": 1}, {"kind": "cashback", "length": 1, "echo": 1}], "first": {"kind": "card", "length": 1, "echo": 1}}"#,
        #"{"legs": [], "first": {"kind": "card", "length": "far", "echo": 1}}"#,
        #"{"legs": [], "first": {"kind": 7, "length": 1, "echo": 1}}"#,
        #"{"legs": [], "first": {"kind": null, "length": 1, "echo": 1}}"#,
        #"{"legs": [{"kind": "card", "length": null, "echo": 1}], "first": {"kind": "card", "length": 1, "echo": 1}}"#,
    ])
    func codableValuesNameTheirPathsAsFoundationDoes(json: String) {
        FoundationConformanceTests.expectSame(Trip.self, json)
    }

    @Test func codingPathsSeenByTheValuesAreFoundations() throws {
        let leg = #"{"kind": "card", "length": 1, "echo": 1}"#
        let json = Data(#"{"legs": [\#(leg), \#(leg)], "first": \#(leg)}"#.utf8)
        let trip = try KilnDecoder().decode(Trip.self, from: json)
        #expect(trip == (try JSONDecoder().decode(Trip.self, from: json)))
        #expect(trip.legs.map(\.echo.path) == ["legs.[0].echo", "legs.[1].echo"] && trip.first.echo.path == "first.echo")
    }

    @DataModel
    struct Transfer: Equatable {
        var kind = Kind.card
        var backup: Kind?
        var length = Meters(0)
        var echo: PathEcho?
    }

    /// In a model, through Foundation's decoder, Kiln's fast path and its `Decoder` path: the
    /// same values (the path each value saw included) and the same repairs.
    @Test func modelsReadSuchValuesAsFoundationDoes() throws {
        let documents = [
            #"{"kind": "transfer", "backup": "card", "length": 3, "echo": "a"}"#,
            #"{"kind": "cashback", "backup": 1, "length": "far", "echo": 2}"#,
            #"[{"kind": "card"}, {"kind": "bad", "echo": [1]}]"#,
        ]
        for document in documents.prefix(2) {
            _ = try ModelIntentTests.decodeAllWays(Transfer.self, document)
        }
        let (list, repairs) = try ModelIntentTests.decodeAllWays([Transfer].self, documents[2])
        #expect(list.map(\.echo?.path) == [nil, "[1].echo"])
        #expect(repairs.map(\.path).contains("[1].kind"))
    }

    /// A plain `Codable` type between two models.
    struct Wrapper: Codable, Equatable {
        var inner: Transfer
        var echo: PathEcho
    }

    @DataModel
    struct Route: Equatable {
        var kind = Kind.card
        var wrapper: Wrapper?
        var echo: PathEcho?
    }

    /// The objects of a list share one node for their values' paths, made again for each object
    /// only while something holds it: here the outer model's node is held by the `Codable`
    /// type's container while the inner model makes its own. Each value still sees its own path.
    @Test func eachObjectOfAListNamesItsOwnPath() throws {
        let count = 40
        let routes = (0..<count).map { i in
            let kind = i % 3 == 0 ? "\"bad\(i)\"" : "\"card\""
            return #"{"kind": \#(kind), "wrapper": {"inner": {"kind": \#(kind), "echo": 1}, "echo": 2}, "echo": 3}"#
        }
        let (list, repairs) = try ModelIntentTests.decodeAllWays([Route].self, "[\(routes.joined(separator: ", "))]")
        #expect(list.map(\.echo?.path) == (0..<count).map { "[\($0)].echo" })
        #expect(list.map(\.wrapper?.echo.path) == (0..<count).map { "[\($0)].wrapper.echo" })
        #expect(list.map(\.wrapper?.inner.echo?.path) == (0..<count).map { "[\($0)].wrapper.inner.echo" })
        let bad = (0..<count).filter { $0 % 3 == 0 }
        // The inner models also log their missing `length`.
        #expect(Set(repairs.map(\.path).filter { $0.hasSuffix("kind") }) == Set(bad.map { "[\($0)].kind" } + bad.map { "[\($0)].wrapper.inner.kind" }))
    }

    /// A plain `Codable` type holding lists of models.
    struct Journey: Codable, Equatable {
        var routes: [Route]
        var spare: [Route]?
        var names: [String]
    }

    /// A list of models is read element by element by the models' readers, at the root, under
    /// a key path and inside a `Codable` type, with the paths, values and repairs of a decode
    /// per element; a list holding anything but objects is decided by the generic decode.
    @Test func listsOfModelsReadAsEachElementWould() throws {
        let route = #"{"kind": "bad", "echo": 1}"#
        let good = #"{"kind": "card", "echo": 2}"#
        let (journey, repairs) = try ModelIntentTests.decodeAllWays(
            Journey.self, #"{"routes": [\#(good), \#(route)], "spare": [\#(route)], "names": ["a"]}"#)
        #expect(journey.routes.map(\.echo?.path) == ["routes.[0].echo", "routes.[1].echo"])
        #expect(repairs.map(\.path) == ["routes[1].kind", "spare[0].kind"])

        // A `null` and a string among the models: dropped by the lossy root list.
        let (mixed, dropped) = try ModelIntentTests.decodeAllWays([Route].self, "[\(good), null, \(route), \"x\"]")
        #expect(mixed.map(\.echo?.path) == ["[0].echo", "[2].echo"])
        #expect(dropped.map(\.path) == ["[1]", "[2].kind", "[3]"])

        // Under a key path.
        let data = Data(#"{"data": {"items": [\#(good), \#(route)]}}"#.utf8)
        let (routes, logged) = try KilnDecoder().decodeWithRepairs([Route].self, from: data, at: "data.items")
        #expect(routes.map(\.echo?.path) == ["data.items.[0].echo", "data.items.[1].echo"])
        #expect(logged.map(\.path) == ["data.items[1].kind"])
        #expect(routes == (try KilnDecoder.decoderProtocolPath.decode([Route].self, from: data, at: "data.items")))
    }
}

extension ValuePathTests.Meters {
    init(_ value: Double) { self.value = value }
}

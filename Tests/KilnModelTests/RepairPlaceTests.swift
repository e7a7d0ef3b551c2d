import Foundation
@_spi(Testing) import KilnModel
import Testing

/// Where a repair says it was made: `KilnDecoder`'s fast path keeps a repair's place as steps of
/// the document from where the decode started, and writes the path only when it is read. The
/// paths must be the ones Foundation's path writes, at any depth, in lists, below a node of the
/// `Decoder` protocol, and under a decode's key path.
@Suite struct RepairPlaceTests {
    @DataModel
    struct Feed: Equatable {
        var data = Pages()
    }

    @DataModel
    struct Pages: Equatable {
        var pages: [Page] = []
    }

    @DataModel
    struct Page: Equatable {
        var items: [Item] = []
    }

    @DataModel
    struct Item: Equatable {
        var n = 0
        var inner = Inner()
        var after = false
    }

    @DataModel
    struct Inner: Equatable {
        var n = 0
    }

    static let feed = #"""
        {"data": {"pages": [
            {"items": [{"n": 1, "inner": {"n": 1}, "after": true}]},
            {"items": [
                {"n": 2, "inner": {"n": 2}, "after": true},
                {"n": "3", "inner": {"n": "x"}, "after": 1},
                {"inner": {}}
            ]}
        ]}}
        """#

    @Test func pathsAtEveryDepthAreFoundationsInTheOrderTheRepairsHappened() throws {
        let (_, repairs) = try ModelIntentTests.decodeAllWays(Feed.self, Self.feed)
        // An object's repair after a nested object's (`after`) has its own place again.
        #expect(
            repairs.map(\.path) == [
                "data.pages[1].items[1].n", "data.pages[1].items[1].inner.n", "data.pages[1].items[1].after",
                "data.pages[1].items[2].n", "data.pages[1].items[2].inner.n", "data.pages[1].items[2].after",
            ])
        #expect(repairs.map(\.found) == ["\"3\"", "\"x\"", "1", "missing", "missing", "missing"])
    }

    @Test func aDecodeAtAKeyPathNamesRepairsFromTheDocumentsRoot() throws {
        let data = Data(Self.feed.utf8)
        let (_, repairs) = try KilnDecoder().decodeWithRepairs(Item.self, from: data, at: "data.pages[1].items[1]")
        var generic = KilnDecoder()
        generic.usesFastPath = false
        let (_, genericRepairs) = try generic.decodeWithRepairs(Item.self, from: data, at: "data.pages[1].items[1]")
        #expect(repairs.map(\.path) == ["data.pages[1].items[1].n", "data.pages[1].items[1].inner.n", "data.pages[1].items[1].after"])
        #expect(repairs == genericRepairs)
    }

    /// A plain `Decodable` reads its members through the `Decoder` protocol; the models inside
    /// take the fast path from there, below the protocol's path.
    struct Catalog: Decodable, Equatable {
        let byID: [Int: Item]
        let named: [String: [Item]]
    }

    @Test func modelsBelowTheDecoderProtocolNameRepairsFromItsPath() throws {
        let text = #"{"byID": {"7": {"n": "7"}}, "named": {"a": [{"n": 1, "inner": {"n": true}, "after": true}]}}"#
        let (_, repairs) = try ModelIntentTests.decodeAllWays(Catalog.self, text)
        #expect(repairs.map(\.path) == ["byID[7].n", "byID[7].inner", "byID[7].after", "named.a[0].inner.n"])
    }

    @Test func theRepairsReportedAsTheyHappenReadAsTheLog() throws {
        let reported = RepairLogSessionTests.LockedList<String>()
        var policy = DecodingPolicy()
        policy.onRepair = { reported.append($0.description) }
        let (_, repairs) = try KilnDecoder(policy: policy).decodeWithRepairs(Feed.self, from: Data(Self.feed.utf8))
        #expect(reported.all == repairs.map(\.description))
        #expect(!repairs.isEmpty)
    }
}

/// `[String: Value]` properties of a `@DataModel`, which the fast path reads straight from the
/// object's members: the same values and repairs as Foundation's path and Kiln's `Decoder` path.
@Suite struct DictionaryPropertyTests {
    @DataModel
    struct Directory: Equatable {
        var names: [String: String] = [:]
        var ids: [String: [Int]] = [:]
        var entries: [String: RepairPlaceTests.Inner] = [:]
    }

    @Test func dictionariesOfScalarsListsAndModelsReadAsEveryPathReadsThem() throws {
        let text = #"""
            {"names": {"a": "x", "b\u00e9": "y", "": "empty"},
             "ids": {"one": [1, 2], "none": []},
             "entries": {"e1": {"n": "3"}, "e2": {"n": 4}, "e3": {"n": 5}}}
            """#
        let (value, repairs) = try ModelIntentTests.decodeAllWays(Directory.self, text)
        #expect(value.names == ["a": "x", "bé": "y", "": "empty"])
        #expect(value.ids == ["one": [1, 2], "none": []])
        #expect(value.entries == ["e1": .init(n: 3), "e2": .init(n: 4), "e3": .init(n: 5)])
        // One repair: Foundation's keyed containers list a dictionary's keys in no fixed order.
        #expect(repairs.map(\.path) == ["entries.e1.n"])
    }

    /// A key that reads as an integer is named as one, as `Dictionary`'s coding key names it;
    /// one with a leading zero or a plus sign stays a key. Under a key strategy, every key stays
    /// a key, as in Foundation.
    @Test func repairsInsideAnEntryWithAnIntegerKeyNameItAsFoundationDoes() throws {
        for (key, path) in [("138586341", "entries[138586341].n"), ("007", "entries.007.n"), ("-3", "entries[-3].n"), ("+3", "entries.+3.n")] {
            let text = #"{"entries": {"\#(key)": {"n": "1"}}}"#
            let (_, repairs) = try ModelIntentTests.decodeAllWays(Directory.self, text)
            #expect(repairs.map(\.path).last == path)
            // Under a key strategy, Foundation names every entry by its key.
            let (_, converted) = try ModelIntentTests.decodeAllWays(Directory.self, text) { kiln, foundation in
                kiln.keyDecodingStrategy = .convertFromSnakeCase
                foundation.keyDecodingStrategy = .convertFromSnakeCase
            }
            #expect(converted.map(\.path).last == "entries.\(key).n")
        }
    }

    @DataModel
    struct Index: Equatable {
        var byID: [String: RepairPlaceTests.Item]
        var extra: [String: RepairPlaceTests.Inner] = ["none": .init(n: -1)]
        var tagged: [String: Tagged] = [:]
        var maybe: [String: RepairPlaceTests.Inner]?
    }

    @DataModel
    struct Tagged: Equatable {
        var tags: [Int] = []
    }

    /// Decodes `T` three ways, as ``ModelIntentTests/decodeAllWays(_:_:policy:configure:sourceLocation:)``
    /// does, for dictionaries with repairs in several members: Foundation's keyed containers
    /// list a dictionary's keys in no fixed order, so the logs are compared as sets.
    static func decodeAllWaysInAnyOrder<T: Decodable & Equatable>(
        _ type: T.Type, _ text: String, sourceLocation: SourceLocation = #_sourceLocation
    ) throws -> (value: T, repairs: [Repair]) {
        let data = Data(text.utf8)
        var generic = KilnDecoder()
        generic.usesFastPath = false
        let viaFoundation = try JSONDecoder().decodeWithRepairs(T.self, from: data)
        let viaFast = try KilnDecoder().decodeWithRepairs(T.self, from: data)
        let viaGeneric = try generic.decodeWithRepairs(T.self, from: data)
        #expect(viaFast.value == viaFoundation.value, sourceLocation: sourceLocation)
        #expect(viaGeneric.value == viaFoundation.value, sourceLocation: sourceLocation)
        let texts = { (repairs: [Repair]) in repairs.map(\.description).sorted() }
        #expect(texts(viaFast.repairs) == texts(viaFoundation.repairs), sourceLocation: sourceLocation)
        #expect(texts(viaGeneric.repairs) == texts(viaFoundation.repairs), sourceLocation: sourceLocation)
        return viaFast
    }

    /// Models inside a dictionary's members are read through their own fast path, and name
    /// their repairs from the dictionary's key, in the document's order, repairs of the
    /// tolerant rules (`inner` not an object) and of the `Decoder` protocol's (a lossy list)
    /// too; a property with no initial value reads them the same way.
    @Test func repairsDeepInsideADictionarysModelsNameTheirPlaces() throws {
        let text = #"""
            {"byID": {"12": {"n": "1", "inner": {"n": "x"}, "after": 0},
                      "ab": {"n": 2, "inner": {"n": 3.0}, "after": true},
                      "7": {"inner": 5}},
             "extra": {"e\u00e9": {"n": "5"}},
             "tagged": {"5": {"tags": [1, "x", 2]}}}
            """#
        let (value, repairs) = try Self.decodeAllWaysInAnyOrder(Index.self, text)
        #expect(value.byID.mapValues { [$0.n, $0.inner.n, $0.after ? 1 : 0] } == ["12": [1, 0, 0], "ab": [2, 3, 1], "7": [0, 0, 0]])
        #expect(value.extra.mapValues(\.n) == ["eé": 5])
        #expect(value.tagged.mapValues(\.tags) == ["5": [1, 2]])
        #expect(
            repairs.map(\.path) == [
                "byID[12].n", "byID[12].inner.n", "byID[12].after", "byID[7].n", "byID[7].inner", "byID[7].after", "extra.eé.n", "tagged[5].tags[1]",
            ])
    }

    /// An optional dictionary of models: `nil` when absent or `null`, its models read through
    /// their fast path when present, and the tolerant rules' answer for anything else.
    @Test func anOptionalDictionaryOfModelsReadsAsEveryPathReadsIt() throws {
        for (text, expected) in [
            (#"{"byID": {}}"#, nil), (#"{"byID": {}, "maybe": null}"#, nil), (#"{"byID": {}, "maybe": {"1": {"n": "2"}, "x": {"n": 3}}}"#, ["1": 2, "x": 3]),
            (#"{"byID": {}, "maybe": {"1": 5}}"#, [:]), (#"{"byID": {}, "maybe": [1]}"#, nil),
        ] as [(String, [String: Int]?)] {
            let (index, repairs) = try Self.decodeAllWaysInAnyOrder(Index.self, text)
            #expect(index.maybe?.mapValues(\.n) == expected)
            if text.contains(#""2""#) { #expect(repairs.map(\.path).contains("maybe[1].n")) }
        }
    }

    /// Two members with one key: the first one is read and kept, and the later one is not read
    /// (its repairs are not logged, a value of the wrong type is no error), as in Foundation.
    @Test func aKeyMetTwiceKeepsTheFirstMemberAndSkipsTheLater() throws {
        for text in [#"{"byID": {"a": {"n": 1}, "a": {"n": "3", "inner": 5}}}"#, #"{"byID": {"a": {"n": "1"}, "a": {"n": 3}}}"#] {
            let (index, repairs) = try Self.decodeAllWaysInAnyOrder(Index.self, text)
            #expect(index.byID.mapValues(\.n) == ["a": 1])
            #expect(repairs.filter { $0.path.hasPrefix("byID") }.count == (text.contains(#""1""#) ? 3 : 2))
        }
        for text in [#"{"names": {"a": "x", "a": 1}}"#, #"{"ids": {"one": [1], "one": "no"}}"#, #"{"entries": {"e": {"n": 1}, "e": {"n": "2"}}}"#] {
            let (directory, repairs) = try Self.decodeAllWaysInAnyOrder(Directory.self, text)
            #expect(directory.names.count + directory.ids.count + directory.entries.count == 1)
            #expect(!repairs.contains { $0.path.contains(".") })
        }
    }

    @Test func aDictionaryWithAValueOfTheWrongKindIsRepairedAsEveryPathRepairsIt() throws {
        let text = #"{"names": {"a": "x", "b": 1}, "ids": {"one": [1, "2"]}, "entries": {"e": []}}"#
        let (value, repairs) = try ModelIntentTests.decodeAllWays(Directory.self, text)
        #expect(value.entries.isEmpty)
        #expect(!repairs.isEmpty)
    }
}

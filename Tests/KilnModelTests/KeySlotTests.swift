import Foundation
import Testing

@_spi(Testing) @testable import KilnModel

/// The key slots `@DataModel` generates (`kilnMemberKeySlot(_:)`, and `KilnKeySlots` in each read),
/// and the look-ups that use them in objects small and large: members out of order, Swift names
/// tried before snake_case keys, nulls and repeated keys, keys the model does not read, and
/// conformances written by hand.
@Suite struct KeySlotTests {
    @DataModel
    struct Listing: Equatable, Sendable {
        var listingId = 0
        @Key("title", "name") var title = ""
        @Key("café") var cafe = false
        @Key("owner.name") var ownerName = ""
        var tags: [String] = []
    }

    /// `text`, an object, with sixteen members no model reads first: large enough for slots.
    static func large(_ text: String) -> String {
        "{" + (0..<16).map { #""filler\#($0)": [\#($0)], "# }.joined() + text.dropFirst()
    }

    static func slot(_ key: String) -> Int {
        Array(key.utf8).withUnsafeBytes { Listing.kilnMemberKeySlot($0) }
    }

    /// Each distinct plain ASCII key has a slot, in the order the model reads them; a key beyond
    /// ASCII, a path, and any other text have none.
    @Test func eachPlainKeyHasOneSlot() {
        #expect(Listing.kilnMemberKeyCount == 5)
        #expect(["listingId", "listing_id", "title", "name", "tags"].map(Self.slot) == [0, 1, 2, 3, 4])
        #expect(["café", "owner.name", "owner", "", "Tags", "tag", "tagss", "listing_Id", "listingid"].map(Self.slot) == Array(repeating: -1, count: 9))
    }

    /// Members in any order, with keys the model does not read between them, decode as
    /// Foundation decodes them; the Swift name wins over the snake_case key wherever each sits.
    @Test(arguments: [
        #"{"tags": ["a"], "x": 1, "name": "n", "listing_id": 7, "owner": {"name": "o"}, "café": true}"#,
        #"{"listing_id": 7, "listingId": 8, "title": "t", "name": "n"}"#,
        #"{"name": "n", "listingId": 8, "listing_id": 7, "title": null, "tags": null}"#,
        #"{"listing_id": "9", "tags": [1, "b"], "z": {"listingId": 1}, "title": 5}"#,
        #"{"caf\u00e9": true, "listing_id": 7, "title": "t"}"#,
        #"{"listing_id": 7, "tit\u006ce": "t", "name": "n"}"#,
        #"{"listingId": null, "title": "t", "listing_id": 7}"#,
        #"{"listing_id": 1, "name": "m", "listing_id": 2, "name": "n"}"#,
        #"{"title": "t", "listing_id": "x", "tags": "y"}"#,
    ])
    func outOfOrderMembersReadAsFoundationReadsThem(_ text: String) throws {
        let (small, _) = try ModelIntentTests.decodeAllWays(Listing.self, text)
        let (large, _) = try ModelIntentTests.decodeAllWays(Listing.self, Self.large(text))
        #expect(small == large)
    }

    @DataModel
    struct Shelf: Equatable, Sendable {
        var shelfName = ""
        var mainListing = Listing()
        var topListing: Listing?
        var allListings: [Listing] = []
        var spareListings: [Listing]?
    }

    /// Nested models, optional ones and lists of them, read by slot from members out of order
    /// under their snake_case keys, with their own members out of order too.
    @Test(arguments: [
        #"{"all_listings": [{"title": "a", "listing_id": 1}, {"name": "b"}], "top_listing": null, "main_listing": {"tags": ["m"], "listingId": 2}, "shelf_name": "s"}"#,
        #"{"spare_listings": [], "top_listing": {"listing_id": 3}, "topListing": null, "shelfName": "t", "shelf_name": "u"}"#,
        #"{"main_listing": 5, "all_listings": {"title": "x"}, "top_listing": [], "shelf_name": null}"#,
    ])
    func nestedModelsReadBySlot(_ text: String) throws {
        _ = try ModelIntentTests.decodeAllWays(Shelf.self, text)
    }

    /// A list of models whose members are all out of order: each element files its own
    /// members, and the slots of one do not leak into the next.
    @Test func eachElementFilesItsOwnMembers() throws {
        let elements = (0..<40).map { Self.large(#"{"tags": ["t\#($0)"], "listing_id": \#($0), "name": "n\#($0)"}"#) }
        let text = #"{"items": [\#(elements.joined(separator: ","))]}"#
        let (page, _) = try ModelIntentTests.decodeAllWays(Page.self, text)
        #expect(page.items.map(\.listingId) == Array(0..<40))
        #expect(page.items.map(\.title) == (0..<40).map { "n\($0)" })
    }

    @DataModel
    struct Page: Equatable, Sendable {
        var items: [Listing] = []
    }

    /// A reader is copied into each call on it: at 128 bytes or less, the copy is a few moves
    /// rather than a call to `memcpy` (which cost citm_catalog.json 2% of its decode at 144).
    @Test func aReaderIsSmall() {
        if MemoryLayout<Int>.size == 8 {
            #expect(MemoryLayout<KilnObjectReader>.size <= 128)
        }
    }

    /// A conformance written by hand whose slots are out of range files nothing there, and its
    /// keys are still found among the members.
    struct HandWritten: KilnFastDecodable, Equatable {
        var a = 0
        var b = 0

        static var kilnMemberKeyCount: Int { 1 }
        static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int { key.count == 1 && key[0] == UInt8(ascii: "a") ? 5 : -9 }

        init(kiln reader: inout KilnObjectReader) {
            b = reader.value("b", property: "b", default: 0)
            a = reader.value("a", property: "a", default: 0)
        }

        init(from decoder: any Decoder) throws {
            let container = try ModelDecodingContainer(decoder: decoder, model: Self.self)
            b = container.value("b", property: "b", default: 0)
            a = container.value("a", property: "a", default: 0)
        }
    }

    /// A hand-written read whose slots are out of the model's range, or none, finds its keys by
    /// their text.
    struct HandWrittenSlots: KilnFastDecodable, Equatable {
        var a = 0
        var b = 0

        static var kilnMemberKeyCount: Int { 2 }
        static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {
            guard key.count == 1 else { return -1 }
            return key[0] == UInt8(ascii: "a") ? 0 : key[0] == UInt8(ascii: "b") ? 1 : -1
        }

        init(kiln reader: inout KilnObjectReader) {
            b = reader.value("b", "bee", slots: KilnKeySlots(9, -4), property: "b", default: 0)
            a = reader.value("a", slots: KilnKeySlots(-1), property: "a", default: 0)
        }

        init(from decoder: any Decoder) throws {
            let container = try ModelDecodingContainer(decoder: decoder, model: Self.self)
            b = container.value("b", "bee", property: "b", default: 0)
            a = container.value("a", property: "a", default: 0)
        }
    }

    @Test(arguments: [#"{"a": 1, "x": 0, "b": 2}"#, #"{"bee": 2, "x": 0, "a": 1}"#])
    func slotsOutOfRangeInReadsAreIgnored(_ text: String) throws {
        for text in [text, Self.large(text)] {
            let (value, repairs) = try ModelIntentTests.decodeAllWays(HandWrittenSlots.self, text)
            #expect(value.a == 1 && value.b == 2)
            #expect(repairs.isEmpty)
        }
    }

    @Test func slotsOutOfRangeAreIgnored() throws {
        let (value, repairs) = try ModelIntentTests.decodeAllWays(HandWritten.self, Self.large(#"{"a": 1, "x": 0, "b": 2}"#))
        #expect(value == HandWritten(a: 1, b: 2))
        #expect(repairs.isEmpty)
    }
}

extension KeySlotTests.HandWritten {
    init(a: Int, b: Int) {
        self.a = a
        self.b = b
    }
}

import Foundation
import Testing
@testable import KilnModel

/// How the fast path finds a model's members: at the hint (the member after the one read last),
/// through a key filter and a scan in objects of a few members, through a hashed table in larger
/// ones. Whatever the order of the keys, whichever are absent, the values and the repair logs are
/// Foundation's.
@Suite struct MemberLookUpTests {
    @DataModel
    struct Wide: Equatable {
        var alpha = 0
        var bravo = ""
        var charlieDelta = 0
        var echo: Int?
        var foxtrotGolfHotelIndia = ""
        var juliet = 0
        var kilo = false
        var lima = 0
        var mike = ""
        var novemberOscarPapa = 0
        var quebec = 0
        var romeo = ""
        var sierraTangoUniform = 0
        var victor = 0
        var whiskey = ""
        var xray = 0
        var yankeeZulu = 0
        var absentOne = -1
        var absentTwo = "none"
        var nested = Small()
        var rows: [Small] = []
        /// Read last: an optional that is absent is not looked for again by the tolerant rules.
        var tail: String?
    }

    @DataModel
    struct Small: Equatable {
        var a = 0
        var bName = ""
        var missing = 9
    }

    /// The keys of `Wide` as the document writes them, with extra members a model does not read.
    static let members: [(String, String)] = [
        ("alpha", "1"), ("bravo", #""b""#), ("charlie_delta", "3"), ("echo", "null"), ("foxtrot_golf_hotel_india", #""f""#),
        ("juliet", #""6""#), ("kilo", "true"), ("lima", "8"), ("mike", #""m""#), ("november_oscar_papa", "10"), ("quebec", "11"),
        ("romeo", "12"), ("sierra_tango_uniform", "13"), ("victor", "14"), ("whiskey", #""w""#), ("xray", "16"), ("yankee_zulu", "17"),
        ("nested", #"{"a": 1, "b_name": "x"}"#), ("rows", #"[{"a": "2"}, {"b_name": 5, "a": 3}]"#), ("tail", #""t""#),
        ("extra1", "[1, 2]"), ("extra2", #"{"alpha": 0}"#), ("extra3", "0"), ("an_extra_key_longer_than_sixteen_bytes", "0"),
    ]

    static func document(_ members: [(String, String)]) -> String {
        "{" + members.map { #""\#($0.0)": \#($0.1)"# }.joined(separator: ", ") + "}"
    }

    @Test func membersInDeclarationOrder() throws {
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(Self.members))
        #expect(read.value.yankeeZulu == 17 && read.value.juliet == 6 && read.value.rows.count == 2)
        #expect(read.value.absentOne == -1 && read.value.absentTwo == "none")
    }

    @Test func membersInReverseOrder() throws {
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(Self.members.reversed()))
        #expect(read.value.alpha == 1 && read.value.whiskey == "w" && read.value.nested.bName == "x")
    }

    @Test(arguments: 0..<8)
    func membersShuffled(seed: Int) throws {
        var generator = NumberCorpusTests.Generator(state: UInt64(seed))
        let shuffled = Self.members.shuffled(using: &generator)
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(shuffled))
        #expect(read.value.sierraTangoUniform == 13 && read.value.rows.map(\.a) == [2, 3])
    }

    /// Keys equal in their length, first and last eight bytes fall in one hash chain; the table
    /// still tells them apart.
    @Test func keysSharingTheirEdgesAreToldApart() throws {
        var members = Self.members
        members.append(("foxtrot_golf_XXXX_india", #""wrong""#))
        members.insert(("foxtrot_golf_YYYY_india", #""wrong""#), at: 0)
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(members.reversed()))
        #expect(read.value.foxtrotGolfHotelIndia == "f")
    }

    /// Objects wide enough that their tables outgrow the context's first storage, nested inside
    /// each other: the storage grows and every table still finds its keys.
    @Test func tablesOfVeryWideObjectsGrowTheirStorage() throws {
        let extras = (0..<300).map { ("extra_\($0)", "\($0)") }
        var generator = NumberCorpusTests.Generator(state: 7)
        var inner = Self.members + extras
        inner.shuffle(using: &generator)
        // `rows` and `tail`, read after `nested`, come first: they are found through the outer
        // table again once the nested object's table has grown the storage.
        var others = Self.members.filter { !["nested", "rows", "tail"].contains($0.0) } + extras
        others.shuffle(using: &generator)
        let outer = Self.members.filter { ["rows", "tail"].contains($0.0) } + others + [("nested", Self.document(inner))]
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(outer))
        #expect(read.value.yankeeZulu == 17 && read.value.rows.map(\.a) == [2, 3] && read.value.tail == "t")
    }

    /// A key written twice in a large object, found away from the hint: the first wins.
    @Test func theFirstOfTwoEqualKeysWinsInALargeObject() throws {
        var members = Self.members
        members.insert(members.removeFirst(), at: 5)
        members.append(("alpha", "99"))
        let read = try ModelIntentTests.decodeAllWays(Wide.self, Self.document(members))
        #expect(read.value.alpha == 1)
    }
}

/// A number written with a fraction or an exponent whose value is an integer reads as that
/// integer, exactly as written, when a rule coerces it (to text here) and in the repair log, on
/// Kiln's fast path as through a `Decoder` (a difference the differential fuzzer found).
@Suite struct IntegralNumberCoercionTests {
    @DataModel
    struct Texts: Equatable {
        var a = ""
        var b = ""
        var c = ""
        var d = false
    }

    @Test func integralNumbersWithAFractionCoerceAlikeOnEveryPath() throws {
        let read = try ModelIntentTests.decodeAllWays(
            Texts.self, #"{"a": 9007199791611905.0, "b": -9.2233720368547758e18, "c": 1.5e300, "d": 1.0}"#)
        #expect(read.value.a == "9007199791611905")
        #expect(read.value.b == "-9223372036854775800")
        #expect(read.value.d == true)
        #expect(read.repairs.first?.found == "9007199791611905")
    }

    /// What the log shows as found, whatever the property's type.
    @Test func foundNumbersReadAlikeOnEveryPath() throws {
        let read = try ModelIntentTests.decodeAllWays(Texts.self, #"{"d": -46116860184273879.9e0}"#)
        #expect(read.repairs.first { $0.path == "d" }?.found == "-46116860184273879")
    }

    /// A `JSONValue` decoded by `KilnDecoder` is the one `JSONDecoder` gives.
    @Test func decodedJSONValuesMatchFoundation() throws {
        let text = Data(#"[1.0, 2.5, 1e2, -0.0, 1e300, {"a": [3.0]}]"#.utf8)
        let kiln = try KilnDecoder().decode(JSONValue.self, from: text)
        #expect(kiln == (try JSONDecoder().decode(JSONValue.self, from: text)))
        #expect(kiln == [.int(1), .double(2.5), .int(100), .int(0), .double(1e300), ["a": [.int(3)]]])
    }
}

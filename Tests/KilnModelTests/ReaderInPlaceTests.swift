import Foundation
import Testing

@testable import KilnModel

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `KilnDecoder` reads a document's bytes in place, copying only its end: no load may reach past
/// the last byte. Each document here ends on the last byte of a page whose next page is not
/// readable, so a load past the end would stop the test process.
@Suite("Reading in place")
struct ReaderInPlaceTests {
    /// Bytes placed to end where readable memory ends.
    final class GuardedBytes {
        let mapping: UnsafeMutableRawPointer
        let length: Int
        let bytes: UnsafeRawBufferPointer

        init?(_ content: [UInt8]) {
            let page = Int(sysconf(Int32(_SC_PAGESIZE)))
            let pages = (content.count + page - 1) / page + 1
            length = pages * page
            #if os(Linux)
            let flags = MAP_PRIVATE | MAP_ANONYMOUS
            #else
            let flags = MAP_PRIVATE | MAP_ANON
            #endif
            guard let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, flags, -1, 0), mapped != MAP_FAILED else { return nil }
            mapping = mapped
            let fence = mapped + (pages - 1) * page
            guard mprotect(fence, page, PROT_NONE) == 0 else {
                munmap(mapped, length)
                return nil
            }
            let start = fence - content.count
            content.withUnsafeBytes { start.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(start), byteCount: content.count) }
            bytes = UnsafeRawBufferPointer(start: start, count: content.count)
        }

        deinit { munmap(mapping, length) }
    }

    /// What a document gives read from a copy (`JSONDocument`) and read in place at the edge of
    /// readable memory: equal values, or the same error.
    static func expectSameReading(_ text: [UInt8], _ comment: Comment? = nil, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let copied = Result { () throws(ModelDecodingError) in try JSONDocument(parsing: text).value }
        let guarded = try #require(GuardedBytes(text))
        let inPlace = Result { () throws(ModelDecodingError) in
            try JSONDocument.reading(inPlace: guarded.bytes, options: JSONReaderOptions()) { document throws(ModelDecodingError) in
                try KilnDecoder().decode(JSONValue.self, from: document)
            }
        }
        switch (copied, inPlace) {
        case (.success(let a), .success(let b)):
            #expect(a == b, comment, sourceLocation: sourceLocation)
        case (.failure(let a), .failure(let b)):
            #expect("\(a)" == "\(b)", comment, sourceLocation: sourceLocation)
        default:
            Issue.record("copy: \(copied), in place: \(inPlace) \(comment.map { "\($0)" } ?? "")", sourceLocation: sourceLocation)
        }
    }

    /// Every file of JSONTestSuite, accepted or refused.
    @Test func everyJSONTestSuiteFileReadsAsFromACopy() throws {
        for file in JSONTestSuite.files {
            try Self.expectSameReading([UInt8](try Data(contentsOf: file)), "\(file.lastPathComponent)")
        }
    }

    /// Endings that make the reader look furthest ahead, with the anchor (the last quote sixteen
    /// bytes or more before the end) at every distance from them: strings closing on the last
    /// bytes, escapes, text beyond ASCII, numbers, literals, whitespace and indentation, and
    /// documents cut short in each of these.
    @Test func everyEndingReadsAsFromACopy() throws {
        let endings = [
            #""}"#, #"\"\\\/\b\f\n\r\t"}"#, #"\u00e9\ud83d\ude00"}"#, "é日本😀\"}", #"",1234567890123456789}"#,
            #"",-12.5e-300}"#, #"",1e"#, #"",[true,false,null]}"#, #"",tru"#, #"",nul"#, "\"}" + String(repeating: " ", count: 40),
            "\",\n" + String(repeating: " ", count: 30) + "\"k\": 1\n}\n", "\",\n\t\t\t\t\t\t\t\t\t\t\t\t\"k\":2}\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t",
            "", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb", #"\"#, #"\u00"#, "\u{E9}\u{E9}", "\",\"k\"", "\",\"k\"" + String(repeating: " ", count: 33),
            "\",\"k\":12345678901234567890123", #"",[1,2,3"#, "\"\u{1}\"}",
            // Runs of three-byte characters, read fifteen bytes at a time, up to the end.
            "日本語の文字列はここで終わる\"}", "あいうえおかきくけこさしすせそ\"}", "あいうえおかきくけこ", "日本語😀\"}",
        ]
        for ending in endings {
            for filler in 0...40 {
                let text = #"{"a":""# + String(repeating: "x", count: filler) + ending
                try Self.expectSameReading(Array(text.utf8), "\(text.debugDescription)")
            }
        }
    }

    /// Documents with no quote near their end (numbers to the end, as in canada.json), whose
    /// anchor is their last bracket, brace, comma or colon: every ending, after every number of
    /// lines, and after a string left open.
    @Test func everyEndingWithoutAQuoteReadsAsFromACopy() throws {
        let endings = [
            "2]", "2.5e-3]\n", "-0]  \n\n", "true, false, null]", "[[1,2],[3,4]]]", "123456789012345678901234567890]",
            "1e", "tru", "1,", "  \t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t\t", "\t1\t,\r\n2]", "[1,\n" + String(repeating: " ", count: 40) + "2]",
            "{}]" + String(repeating: "\n", count: 30), "1" + String(repeating: "0", count: 40), "-", "[[[[", "]]",
        ]
        for ending in endings {
            for lines in 0...40 {
                let text = "[" + String(repeating: "1,\n", count: lines) + ending
                try Self.expectSameReading(Array(text.utf8), "\(text.debugDescription)")
            }
            // A string left open more than four kilobytes before the end, with commas in it: its
            // scan reaches the anchor (its last comma), with no quote after it.
            for opening in ["[\"", "{\"", "[\"\\\"", "[\"é"] {
                let text = opening + String(repeating: "a,", count: 2_100) + ending
                try Self.expectSameReading(Array(text.utf8), "\(opening.debugDescription) a… \(ending.debugDescription)")
            }
        }
    }

    /// The benchmark's documents, to the last byte.
    @Test func largeDocumentsReadAsFromACopy() throws {
        for name in ["twitter.json", "citm_catalog.json", "canada.json"] {
            try Self.expectSameReading([UInt8](try Data(contentsOf: SharedData.benchdata.appendingPathComponent(name))), "\(name)")
        }
    }

    /// A model that keeps its `Decoder` reads from it after the decode returned and its bytes
    /// changed: the document copied them before the decode let them go.
    @Test func aDecoderKeptAfterTheDecodeReadsTheBytesItWasGiven() throws {
        struct Keeper: Decodable {
            let decoder: any Decoder
            init(from decoder: any Decoder) throws { self.decoder = decoder }
        }
        var data = Data(#"{"name": "the name, long enough to be read in place", "count": 12}"#.utf8)
        let keeper = try KilnDecoder().decode(Keeper.self, from: data)
        data.resetBytes(in: 0..<data.count)
        struct Read: Decodable {
            var name: String
            var count: Int
        }
        let read = try Read(from: keeper.decoder)
        #expect(read.name == "the name, long enough to be read in place")
        #expect(read.count == 12)
    }
}

/// A repair log made while reading bytes in place keeps copies of what its texts show (the
/// values found, the keys on the paths), not the whole document.
@Suite("A repair log of bytes read in place")
struct RepairLogInPlaceTests {
    @DataModel
    struct Owner: Equatable {
        var name = "--"
        var followers = 0
        var tags: [String] = []
    }

    @DataModel
    struct Row: Equatable {
        var id = 0
        var isTop = false
        var score = 0.0
        var title = "--"
        var owner = Owner()
        /// A key as long as `owner`'s: the two are told apart by their text.
        var buyer = Owner()
        var notes: [String: Int] = [:]
    }

    /// Rows whose repairs find every kind of value: strings with escapes and text beyond ASCII,
    /// integers, integral and other doubles, numbers too large, literals, objects and arrays;
    /// under keys written with escapes; with long text between them that no repair shows.
    static func document(rows: Int) -> String {
        let filler = String(repeating: "text no repair shows ", count: 40)
        let odd = [
            #""id": "1\u0032", "is_top": 1, "score": "2.5", "title": 7"#,
            #""id": 3.0, "is_top": "yes", "score": true, "title": {"a": [1, "b\n"]}"#,
            #""id": 1e300, "is_top": 1.0, "score": [1, 2], "title": null"#,
            #""id": "日本", "is_top": "1", "score": "NaN", "title": ["x"]"#,
            #""id": 123456789012345678901234567890, "is_top": 0, "score": -0.0, "title": false"#,
        ]
        var rows_: [String] = []
        for index in 0..<rows {
            let owner =
                index % 3 == 0
                ? #"{"n\u0061me": 5, "followers": "12k", "tags": [1, "ok", null, {"x": "é"}]}"#
                : #"{"name": "owner \#(index)", "followers": \#(index)}"#
            let buyer = index.isMultiple(of: 2) ? #", "buyer": {"name": \#(index)}"# : ""
            rows_.append(#"{\#(odd[index % odd.count]), "owner": \#(owner)\#(buyer), "notes": {"a": "1", "b": "x", "c": 2}, "filler": "\#(filler)"}"#)
        }
        return #"{"data": {"list": [\#(rows_.joined(separator: ",\n"))], "end": 12"# + "}}"
    }

    @Test func theLogReadsAsFromACopyWithoutKeepingTheDocument() throws {
        let text = Self.document(rows: 60)
        let expected = try KilnDecoder().decodeWithRepairs([Row].self, from: text, at: "data.list")
        #expect(expected.repairs.count > 300)
        for bytesKind in ["Data", "[UInt8]"] {
            var data = Data(text.utf8)
            var bytes = [UInt8](text.utf8)
            let read =
                try bytesKind == "Data"
                ? KilnDecoder().decodeWithRepairs([Row].self, from: data, at: "data.list")
                : KilnDecoder().decodeWithRepairs([Row].self, from: bytes, at: "data.list")
            // The caller's bytes change once the decode is over.
            data.resetBytes(in: 0..<data.count)
            for index in bytes.indices { bytes[index] = 0 }
            #expect(read.value == expected.value)
            #expect(read.repairs.map(\.description) == expected.repairs.map(\.description), "\(bytesKind)")
            let kept = read.repairs.map(\.keptDocumentBytes).max() ?? 0
            #expect(kept > 0 && kept < text.utf8.count / 10, "kept \(kept) of \(text.utf8.count) bytes (\(bytesKind))")
        }
    }

    /// Repairs handed to the policy's `onRepair` as they happen, kept after the decode: they
    /// still read what the document said once the caller's bytes change.
    @Test func repairsKeptByOnRepairReadTheBytesTheyWereGiven() throws {
        let kept = RepairLogSessionTests.LockedList<Repair>()
        var policy = DecodingPolicy()
        policy.onRepair = { kept.append($0) }
        let text = Self.document(rows: 6)
        var data = Data(text.utf8)
        let read = try KilnDecoder(policy: policy).decodeWithRepairs([Row].self, from: data, at: "data.list")
        data.resetBytes(in: 0..<data.count)
        let expected = try KilnDecoder().decodeWithRepairs([Row].self, from: text, at: "data.list")
        #expect(kept.all.map(\.description) == expected.repairs.map(\.description))
        #expect(read.repairs.map(\.description) == expected.repairs.map(\.description))
    }

    @DataModel
    struct Page: Equatable {
        @Key("data.list") var rows: [Row] = []
    }

    /// A model of many properties whose names are too long for a `String` to hold in its own
    /// bits: their repairs' keys are told apart by more than their length.
    @DataModel
    struct Wide: Equatable {
        var aPropertyWithALongName00 = 0
        var aPropertyWithALongName01 = 0
        var aPropertyWithALongName02 = 0
        var aPropertyWithALongName03 = 0
        var aPropertyWithALongName04 = 0
        var aPropertyWithALongName05 = 0
        var aPropertyWithALongName06 = 0
        var aPropertyWithALongName07 = 0
        var aPropertyWithALongName08 = 0
        var aPropertyWithALongName09 = 0
        var aPropertyWithALongName10 = 0
        var aPropertyWithALongName11 = 0
        var aPropertyWithALongName12 = 0
        var aPropertyWithALongName13 = 0
        var aPropertyWithALongName14 = 0
        var aPropertyWithALongName15 = 0
        var aPropertyWithALongName16 = 0
        var aPropertyWithALongName17 = 0
        var aPropertyWithALongName18 = 0
        var aPropertyWithALongName19 = 0
    }

    /// A repair as the reader records it stays 48 bytes on 64-bit platforms: the cases of what
    /// was found and of the result share a byte beside the kind, and tokens are 32-bit.
    @Test func aRecordedRepairIsSmall() {
        if MemoryLayout<Int>.size == 8 {
            #expect(MemoryLayout<PendingRepair>.stride == 48)
        }
    }

    /// Repairs of many properties, then of some again: each reads its own key, however the
    /// log stores the keys it met before.
    @Test func repairsOfManyPropertiesReadTheirOwnKeys() throws {
        let members = (0..<20).map { #""a_property_with_a_long_name\#($0 < 10 ? "0" : "")\#($0)": "n\#($0)""# }
        let text = #"[{\#(members.joined(separator: ", "))}, {\#(members[3]), \#(members[17])}]"#
        let expected = try KilnDecoder().decodeWithRepairs([Wide].self, from: text)
        let read = try KilnDecoder().decodeWithRepairs([Wide].self, from: Data(text.utf8))
        #expect(read.value == expected.value)
        #expect(read.repairs.map(\.description) == expected.repairs.map(\.description))
        #expect(Set(read.repairs.map(\.path)).count == 40, "\(read.repairs.prefix(3))")
    }

    /// A type that reads the log half-way through its decode, through the `Decoder` protocol.
    struct Watcher: Decodable, Equatable {
        var first: Page
        var seen: [String]
        var second: Page

        enum CodingKeys: String, CodingKey {
            case first, second
        }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            first = try container.decode(Page.self, forKey: .first)
            // Texts read only after the decode, when the caller's bytes have changed.
            let repairs = DecodingSession.current(in: decoder)?.repairs ?? []
            seen = []
            second = try container.decode(Page.self, forKey: .second)
            seen = repairs.map(\.description)
        }
    }

    /// Repairs published while the document is still being read (a model asking its session
    /// for the log so far) read what the document said once the caller's bytes change.
    @Test func repairsPublishedDuringTheDecodeReadTheBytesTheyWereGiven() throws {
        let rows = Self.document(rows: 12)
        let text = #"{"first": "# + rows + #", "second": "# + rows + "}"
        let expected = try KilnDecoder().decodeWithRepairs(Watcher.self, from: text)
        #expect(!expected.value.seen.isEmpty)
        #expect(expected.value.seen.count < expected.repairs.count)
        var data = Data(text.utf8)
        let read = try KilnDecoder().decodeWithRepairs(Watcher.self, from: data)
        data.resetBytes(in: 0..<data.count)
        #expect(read.value == expected.value)
        #expect(read.value.first.rows.count == 12)
        #expect(read.repairs.map(\.description) == expected.repairs.map(\.description))
    }

    /// Models in dictionaries, under keys that are numbers, words and escapes: their repairs'
    /// paths start from a node per member, copied as the members' keys are.
    @Test func repairsInDictionaryValuesReadTheirKeys() throws {
        var members: [String] = []
        for index in 0..<40 {
            let key = index % 3 == 0 ? "\(index * 7919)" : index % 3 == 1 ? "k\\u00e9y \(index)" : "member \(index)"
            members.append(#""\#(key)": {"name": \#(index), "followers": "\#(index)", "tags": [\#(index), "x"]}"#)
        }
        let text = #"{"groups": {"a": {\#(members.joined(separator: ", "))}, "b": {}}}"#
        let expected = try KilnDecoder().decodeWithRepairs([String: [String: Owner]].self, from: text, at: "groups")
        #expect(expected.repairs.count >= 80)
        var data = Data(text.utf8)
        let read = try KilnDecoder().decodeWithRepairs([String: [String: Owner]].self, from: data, at: "groups")
        data.resetBytes(in: 0..<data.count)
        #expect(read.value == expected.value)
        #expect(read.repairs.map(\.description) == expected.repairs.map(\.description))
        let kept = read.repairs.map(\.keptDocumentBytes).max() ?? 0
        #expect(kept > 0 && kept < text.utf8.count / 2, "kept \(kept) of \(text.utf8.count) bytes")
    }

    /// Decodes at the root: a repair's found value at the very end of the document (a number,
    /// nothing after it), and repairs of the root (a place of no steps) before a nested object's.
    @Test func decodesAtTheRoot() throws {
        let texts = [
            #"{"is_top": 1, "id": 12.0e0}"#, #"{"title": 123456789012345678901234}"#, #"{"id": "4"}"#,
            #"{"id": "4", "owner": {"n\u0061me": 5, "followers": "7"}, "title": 3}"#,
        ]
        for text in texts {
            let expected = try KilnDecoder().decodeWithRepairs(Row.self, from: text)
            let read = try KilnDecoder().decodeWithRepairs(Row.self, from: Data(text.utf8))
            #expect(read.value == expected.value)
            #expect(read.repairs.map(\.description) == expected.repairs.map(\.description), "\(text)")
            #expect(!read.repairs.isEmpty)
        }
    }
}

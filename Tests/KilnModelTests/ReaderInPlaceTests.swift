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

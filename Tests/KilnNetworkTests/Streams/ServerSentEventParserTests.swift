import Foundation
import KilnNetwork
import Testing

/// The parser against the WHATWG HTML standard's rules and examples (§9.2 Server-sent events).
@Suite("ServerSentEventParser")
struct ServerSentEventParserTests {
    private func parse(
        _ chunks: [[UInt8]], maximumLineLength: Int = ServerSentEventParser.defaultMaximumLineLength
    ) throws -> (events: [ServerSentEvent], parser: ServerSentEventParser) {
        var parser = ServerSentEventParser(maximumLineLength: maximumLineLength)
        var events: [ServerSentEvent] = []
        for chunk in chunks { try parser.feed(chunk) { events.append($0) } }
        parser.finish()
        return (events, parser)
    }

    private func parse(_ text: String) throws -> [ServerSentEvent] {
        try parse([Array(text.utf8)]).events
    }

    @Test func theStandardsExamplesDispatchAsItSays() throws {
        // "The following stream fires two events" — the second has no space after the colon.
        #expect(
            try parse("data\n\ndata\ndata\n\ndata:\n") == [
                ServerSentEvent(data: ""),
                ServerSentEvent(data: "\n"),
            ])
        #expect(try parse("data:test\n\ndata: test\n\n") == [ServerSentEvent(data: "test"), ServerSentEvent(data: "test")])
        // Stock ticker: multi-line data, comments, ids carried over.
        #expect(
            try parse(": test stream\n\ndata: first event\nid: 1\n\ndata:second event\nid\n\ndata:  third event\n\n") == [
                ServerSentEvent(data: "first event", id: "1"),
                ServerSentEvent(data: "second event", id: ""),
                ServerSentEvent(data: " third event", id: ""),
            ])
        #expect(
            try parse("event: add\ndata: 73857293\n\nevent: remove\ndata: 2153\n\n") == [
                ServerSentEvent(type: "add", data: "73857293"),
                ServerSentEvent(type: "remove", data: "2153"),
            ])
    }

    @Test func anIDCarriesOverToLaterEventsAndANulMakesItIgnored() throws {
        let events = try parse("id: 5\ndata: a\n\ndata: b\n\nid: x\u{0}y\ndata: c\n\n")
        #expect(events.map(\.id) == ["5", "5", "5"])
    }

    @Test func anEventWithoutDataIsNotDispatchedButItsIDIsKept() throws {
        let (events, parser) = try parse([Array("id: 9\nevent: ping\n\n".utf8)])
        #expect(events.isEmpty)
        #expect(parser.lastEventID == "9")
    }

    @Test func retryTakesOnlyASCIIDigits() throws {
        #expect(try parse([Array("retry: 1500\n\n".utf8)]).parser.reconnectionTime == .milliseconds(1500))
        #expect(try parse([Array("retry: 0\n".utf8)]).parser.reconnectionTime == .zero)
        for bad in ["retry: +5\n", "retry: 1.5\n", "retry: 5s\n", "retry:\n", "retry: -1\n", "retry: 99999999999999999999999\n"] {
            #expect(try parse([Array(bad.utf8)]).parser.reconnectionTime == nil, "\(bad)")
        }
    }

    @Test func anEventTheStreamEndsInTheMiddleOfIsDropped() throws {
        #expect(try parse("data: whole\n\ndata: half") == [ServerSentEvent(data: "whole")])
        #expect(try parse("data: whole\n\ndata: ended line, no blank\n") == [ServerSentEvent(data: "whole")])
    }

    @Test func onlyALeadingByteOrderMarkIsDropped() throws {
        let bom = "\u{FEFF}"
        #expect(try parse("\(bom)data: a\n\n") == [ServerSentEvent(data: "a")])
        // A second mark is part of a line: here, a field named "\u{FEFF}data", which is ignored.
        #expect(try parse("\(bom)data: a\n\n\(bom)data: b\n\n") == [ServerSentEvent(data: "a")])
    }

    @Test func fieldsAreCaseSensitiveAndUnknownOnesIgnored() throws {
        #expect(try parse("Data: no\nDATA: no\nfoo: bar\ndata: yes\n\n") == [ServerSentEvent(data: "yes")])
    }

    @Test(arguments: ["\n", "\r", "\r\n"])
    func everyLineEndWorks(lineEnd: String) throws {
        let text = ["event: e", "data: one", "data: two", "id: 3", "", "data: next", "", ""].joined(separator: lineEnd)
        #expect(try parse(text) == [ServerSentEvent(type: "e", data: "one\ntwo", id: "3"), ServerSentEvent(data: "next", id: "3")])
    }

    /// The byte-wise stream the real server test sends, cut at every pair of positions: the same
    /// events whatever the chunks (a CRLF split between chunks ends one line, not two).
    @Test func theEventsAreTheSameHoweverTheBytesAreCut() throws {
        let bytes = Array(SSEExamples.bytewiseText.utf8)
        let expected = SSEExamples.bytewiseEvents
        #expect(try parse([bytes]).events == expected)
        #expect(try parse(bytes.map { [$0] }).events == expected, "one byte at a time")
        for first in 0...bytes.count {
            for second in first...bytes.count where second - first <= 12 || second == bytes.count {
                let chunks = [Array(bytes[..<first]), Array(bytes[first..<second]), Array(bytes[second...])]
                let events = try parse(chunks).events
                if events != expected {
                    Issue.record("cut at \(first) and \(second): \(events)")
                    return
                }
            }
        }
    }

    @Test func aLineLongerThanTheLimitFailsTheStream() throws {
        #expect(throws: StreamFormatError.lineTooLong(limit: 64)) {
            try parse([Array("data: ".utf8), Array(repeating: UInt8(ascii: "x"), count: 100)], maximumLineLength: 64)
        }
        // Many short data lines add up to one event's data: the same limit.
        let many = String(repeating: "data: 0123456789\n", count: 10)
        #expect(throws: StreamFormatError.lineTooLong(limit: 64)) {
            try parse([Array(many.utf8)], maximumLineLength: 64)
        }
        #expect(try parse([Array("data: short\n\n".utf8)], maximumLineLength: 64).events == [ServerSentEvent(data: "short")])
    }

    @Test func invalidUTF8BecomesReplacementCharactersNotAFailure() throws {
        let events = try parse([Array("data: a".utf8) + [0xFF, 0xFE] + Array("b\n\n".utf8)]).events
        #expect(events == [ServerSentEvent(data: "a\u{FFFD}\u{FFFD}b")])
    }
}

extension SSEExamples {
    /// The text of the `/bytewise` route of `sse_server.py`.
    static let bytewiseText =
        "\u{FEFF}: a comment first\r\n"
        + "retry: 25\n"
        + "event: greeting\r"
        + "data: {\"n\": 1,\n"
        + "data:  \"text\": \"two lines\"}\r\n"
        + "id: 7\n"
        + "\n"
        + "data:{\"n\": 2, \"text\": \"no space after the colon\"}\r"
        + "\r"
        + "data\n"
        + "\n"
        + "id: 8\r\n"
        + "event: ignored-without-data\r\n"
        + "\r\n"
        + "data: {\"n\": 3, \"text\": \"caf\u{e9} \u{2603}\"}\n"
        + "unknown: field\n"
        + "\n"
        + "data: {\"n\": 4, \"text\": \"never finished\"}\n"
}

import Foundation
import KilnModel
import KilnNetwork
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@DataModel
struct StreamedRecord: Equatable {
    var id = -1
    var url = ""
}

/// JSON Lines and plain lines against httpbin (`/stream/{n}`, `/drip`) and the SSE peer's
/// `/ndjson` route.
@Suite("JSON Lines and lines against real servers", .timeLimit(.minutes(2)))
struct LineStreamTests {
    @Test func httpbinsStreamArrivesAsOneModelPerLine() async throws {
        try await withHTTPBin { url in
            let client = APIClient(baseURL: url)
            var records: [StreamedRecord] = []
            for try await item in client.jsonLines(Endpoint<StreamedRecord>.get("/stream/25")).items {
                records.append(try item.get())
                #expect(item.repairs.isEmpty)
            }
            #expect(records.map(\.id) == Array(0..<25))
            #expect(records.allSatisfy { $0.url.hasSuffix("/stream/25") })
        }
    }

    @Test func eachLineIsReadOnItsOwn() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            var items: [StreamItem<Tick>] = []
            for try await item in client.jsonLines(Endpoint<Tick>.get("/ndjson")).items { items.append(item) }
            #expect(items.count == 5, "the blank line is skipped")
            guard items.count == 5 else { return }
            #expect(items[0].value == Tick(n: 1, text: "one"))
            #expect(items[1].value == Tick(n: 2, text: ""))
            #expect(!items[1].repairs.isEmpty)
            #expect(items[2].value == nil, "a line cut short is a failure of that line")
            #expect(items[3].value == Tick(n: 4, text: "four"))
            #expect(items[4].value == Tick(n: 5, text: "last, with no line end"))
        }
    }

    @Test func plainLinesKeepEveryLineAndItsText() async throws {
        try await withSSEServer { server in
            let client = APIClient(baseURL: server.baseURL)
            var lines: [String] = []
            for try await item in client.lines(Endpoint<String>.get("/ndjson")).items { lines.append(try item.get()) }
            #expect(
                lines == [
                    #"{"n": 1, "text": "one"}"#, "", #"{"n": "2", "text": null}"#, #"{"n": 3, "text": "#,
                    #"{"n": 4, "text": "four"}"#, #"{"n": 5, "text": "last, with no line end"}"#,
                ])
        }
    }

    /// httpbin's `/drip` writes its bytes over a second: they reach the caller as they are sent,
    /// not when the response is complete.
    @Test func slowBytesArriveAsTheyAreSent() async throws {
        try await withHTTPBin { url in
            let transport = URLSessionTransport()
            var request = URLRequest(url: url.appendingPathComponent("drip"))
            request.url = URL(string: url.absoluteString + "/drip?numbytes=4&duration=1&delay=0&code=200")
            let (body, response) = try await transport.stream(request)
            #expect(response.statusCode == 200)
            var chunks: [Data] = []
            for try await chunk in body { chunks.append(chunk) }
            #expect(chunks.reduce(Data(), +) == Data("****".utf8))
            #expect(chunks.count > 1, "the body came in \(chunks.count) piece(s)")
        }
    }

    @Test func aFailureStatusEndsLinesWithTheStatus() async throws {
        try await withHTTPBin { url in
            let client = APIClient(baseURL: url)
            do throws(APIError) {
                for try await _ in client.lines(.get("/status/418")) {}
                Issue.record("expected HTTP 418")
            } catch {
                guard case .http(418, _) = error else {
                    Issue.record("expected HTTP 418, got \(error)")
                    return
                }
            }
        }
    }
}

import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("FixtureServer")
struct FixtureServerTests {
    @Test func servesJSONFilesInEnvelopes() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"list":[{"id":3,"title":"From file"}],"hasMore":true}"#.utf8).write(to: directory.appendingPathComponent("messages.json"))
        try await withFixtureServer { server in
            try server.routeJSONFiles(in: directory, at: "/api")
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let page = try await client.send(Endpoint<MessagePage>.get("/api/messages"))
            #expect(page == MessagePage(list: [Message(id: 3, title: "From file")], hasMore: true))
        }
    }

    @Test func slowBodyStillArrivesWhole() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/slow", .generated(byteCount: 8192, seed: 3).slowBody(chunkSize: 1024, interval: .milliseconds(20)))
            let client = APIClient(baseURL: server.baseURL, envelope: .none)
            let raw = try await client.data(for: Endpoint<Data>.get("/slow"))
            #expect(raw.value == GeneratedBytes.data(count: 8192, seed: 3))
        }
    }

    @Test func unknownRoutesAre404() async throws {
        try await withFixtureServer { server in
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<Int>.get("/nothing")) }
            guard case .http(404, _)? = error else {
                Issue.record("got \(String(describing: error))")
                return
            }
        }
    }

    @Test func sha256MatchesKnownVectors() {
        #expect(SHA256Digest.hex(of: Data()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256Digest.hex(of: Data("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        let long = Data(String(repeating: "a", count: 1_000_000).utf8)
        var chunked = SHA256Digest()
        for start in stride(from: 0, to: long.count, by: 333) { chunked.update(long[start..<min(start + 333, long.count)]) }
        #expect(chunked.finalize() == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }
}

import Foundation
import KilnCache
import KilnModel
@_spi(Testing) import KilnNetwork
import KilnNetworkCache
import KilnTesting
import Testing
import KilnSupport

/// Counts the bodies a client reads as JSON.
final class ReadCounter: Sendable {
    private let sizes = LockedValue([Int]())
    func record(_ size: Int) { sizes.withLock { $0.append(size) } }
    var reads: [Int] { sizes.current }
}

@Suite("APIClient reads each body once")
struct APIClientReadOnceTests {
    /// A body written by hand, with the spacing, escapes and number spellings a server may use.
    static let body = Data(
        """
        {"code" : "0000", "msg":"ok",
         "data" : {"list": [ {"id": 1, "title": "Hello \\u00e9\\n"}, {"id": 2.0, "title": "World"} ],
                   "hasMore" : false }  }
        """.utf8)
    static let dataBytes = Data(
        """
        {"list": [ {"id": 1, "title": "Hello \\u00e9\\n"}, {"id": 2.0, "title": "World"} ],
                   "hasMore" : false }
        """.utf8)

    func client(_ server: FixtureServer, counter: ReadCounter, cache: (any Cache)? = nil) -> APIClient {
        var client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, responseCache: cache.map { ResponseCache($0) })
        client.onBodyRead = { counter.record($0) }
        return client
    }

    @Test func aResponseIsReadOnceForEnvelopeAndValue() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .data(Self.body, contentType: "application/json"))
            let counter = ReadCounter()
            let page = try await client(server, counter: counter).send(Endpoint<MessagePage>.get("/messages"))
            #expect(page.list.map(\.title) == ["Hello é\n", "World"])
            #expect(counter.reads == [Self.body.count])
        }
    }

    @Test func theCacheStoresTheBytesOfDataAsSentAndAHitReadsOnlyThem() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .data(Self.body, contentType: "application/json"))
            let counter = ReadCounter()
            let memory = MemoryCache()
            let client = client(server, counter: counter, cache: memory)
            let endpoint = Endpoint<MessagePage>.get("/messages")
            let fresh = try await client.send(endpoint, policy: .networkOnly)
            #expect(counter.reads == [Self.body.count], "network path: one read for envelope, value and cache")

            let store = try #require(client.responseCache as? ResponseCache)
            let key = store.key(for: try #require(client.cacheableRequest(for: endpoint)))
            #expect(memory.value(forKey: key) == Self.dataBytes, "exactly the bytes of data, not written out again")

            // Another client on the same cache (an app's next launch) reads the stored bytes once.
            let relaunched = self.client(server, counter: counter, cache: memory)
            let cached = try await relaunched.send(endpoint, policy: .cacheOnly)
            #expect(cached.value == fresh.value)
            #expect(counter.reads == [Self.body.count, Self.dataBytes.count], "a hit reads the stored bytes once")
        }
    }

    @Test func aRepeatedHitOnUnchangedBytesIsNotDecodedAgain() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .data(Self.body, contentType: "application/json"))
            let counter = ReadCounter()
            let memory = MemoryCache()
            let client = client(server, counter: counter, cache: memory)
            let endpoint = Endpoint<MessagePage>.get("/messages")
            let fresh = try await client.send(endpoint, policy: .networkOnly)
            let first = try await client.send(endpoint, policy: .cacheOnly)
            let second = try await client.send(endpoint, policy: .cacheOnly)
            #expect(first.value == fresh.value && second.value == fresh.value)
            #expect(counter.reads == [Self.body.count], "the network's decode serves the hits on the bytes it stored")

            // The entry changes under the client: the new bytes are read, never the old value.
            let store = try #require(client.responseCache as? ResponseCache)
            let key = store.key(for: try #require(client.cacheableRequest(for: endpoint)))
            memory.set(Data(#"{"list":[{"id":9,"title":"Changed"}],"hasMore":true}"#.utf8), forKey: key)
            let changed = try await client.send(endpoint, policy: .cacheOnly)
            #expect(changed.value.list.map(\.title) == ["Changed"])
            #expect(counter.reads.count == 2)

            // Another decoder (another policy) decodes again.
            var strict = client
            strict.decodingPolicy = DecodingPolicy()
            _ = try await strict.send(endpoint, policy: .cacheOnly)
            #expect(counter.reads.count == 3)
        }
    }

    @Test func repairsOfAHitNameTheirPathInTheResponse() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .json(["code": "0000", "data": ["list": [["id": "7", "title": "x"]], "hasMore": false]]))
            let memory = MemoryCache()
            let endpoint = Endpoint<[Article]>.get("/messages", query: []).envelope(Envelope(dataPath: "data.list"))
            let network = try await APIClient(baseURL: server.baseURL, envelope: .codeMessageData, responseCache: ResponseCache(memory)).send(
                endpoint, policy: .networkOnly)
            let hit = try await APIClient(baseURL: server.baseURL, envelope: .codeMessageData, responseCache: ResponseCache(memory)).send(
                endpoint, policy: .cacheOnly)
            #expect(network.value.map(\.id) == [7])
            #expect(network.repairs.map(\.path) == ["data.list[0].id", "data.list[0].views"])
            #expect(hit.repairs == network.repairs)
        }
    }

    @Test func dataForGivesTheBytesAsSent() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .data(Self.body, contentType: "application/json"))
            let counter = ReadCounter()
            let raw = try await client(server, counter: counter).data(for: Endpoint<MessagePage>.get("/messages"))
            #expect(raw.value == Self.dataBytes)
            #expect(counter.reads.count == 1)
        }
    }

    @Test func aBareBodyNobodyReadsIsNotRead() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/blob", .data(Data([0xFF, 0x00, 0x7B])))
            let counter = ReadCounter()
            var client = client(server, counter: counter)
            client.envelope = .none
            #expect(try await client.data(for: Endpoint<Data>.get("/blob")).value == Data([0xFF, 0x00, 0x7B]))
            _ = try await client.send(Endpoint<NoContent>.get("/blob"))
            #expect(counter.reads.isEmpty)
        }
    }

    @Test func foundationDecodingIsAnExplicitChoiceWithTheSameResult() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .data(Self.body, contentType: "application/json"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let endpoint = Endpoint<MessagePage>.get("/messages")
            let kiln = try await client.response(for: endpoint)
            let foundation = try await client.response(for: endpoint.decoding(.foundation { JSONDecoder() }))
            #expect(kiln.value == foundation.value)
            #expect(kiln.repairs == foundation.repairs)
        }
    }

    @Test func aBodyThatIsNotJSONIsADecodingError() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/broken", .data(Data(#"{"code":"0000","data":[1,"#.utf8), contentType: "application/json"))
            let error = await failure { try await APIClient(baseURL: server.baseURL, envelope: .codeMessageData).send(Endpoint<[Int]>.get("/broken")) }
            #expect(error == .decoding(path: "", repairs: []))
        }
    }

    @Test func anOptionalValueWithNullOrAbsentDataIsNil() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/null", .json(["code": "0000", "data": nil]))
            server.route(.get, "/absent", .json(["code": "0000"]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let null = try await client.send(Endpoint<MessagePage?>.get("/null"))
            let absent = try await client.send(Endpoint<MessagePage?>.get("/absent"))
            #expect(null == nil && absent == nil)
        }
    }
}

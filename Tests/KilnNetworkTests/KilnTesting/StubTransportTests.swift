import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("StubTransport")
struct StubTransportTests {
    let base = URL(fileURLWithPath: "/").deletingLastPathComponent()

    func client(_ stub: StubTransport) throws -> APIClient {
        APIClient(baseURL: try #require(URL(string: "https://stub.local")), envelope: .codeMessageData, transport: stub)
    }

    @Test func routesByMethodAndPathAndCapturesRequests() async throws {
        let stub = StubTransport()
        stub.on(.get, "/messages", .envelope(data: messagesFixture))
        stub.on(.post, "/messages", .envelope(code: "2002", message: "read only"))
        let client = try client(stub)
        let page = try await client.send(Endpoint<MessagePage>.get("/messages"))
        #expect(page.list.count == 2)
        let error = await failure { try await client.send(Endpoint<MessagePage>.post("/messages", body: .form([("a", "b")]))) }
        #expect(error == .server(code: "2002", message: "read only"))
        #expect(stub.requests.map(\.method) == ["GET", "POST"])
        #expect(stub.requests.last?.formFields.first?.value == "b")
    }

    @Test func cannedErrorsBecomeTransportErrors() async throws {
        let stub = StubTransport()
        stub.on(.get, "/offline", failure: URLError(.notConnectedToInternet))
        stub.on(.get, "/slow", failure: URLError(.timedOut))
        let client = try client(stub)
        #expect(await failure { try await client.send(Endpoint<Int>.get("/offline")) }?.isTransport(.offline) == true)
        #expect(await failure { try await client.send(Endpoint<Int>.get("/slow")) }?.isTransport(.timedOut) == true)
        #expect(await failure { try await client.send(Endpoint<Int>.get("/unknown")) } == .http(status: 404, body: Data()))
    }
}

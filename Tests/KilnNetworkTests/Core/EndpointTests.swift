import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import KilnNetwork
import Testing

@Suite("Endpoint")
struct EndpointTests {
    @Test func retrySafetyFollowsMethod() {
        #expect(Endpoint<Int>(method: .get, path: "/").isRetrySafe)
        #expect(Endpoint<Int>(method: .put, path: "/").isRetrySafe)
        #expect(Endpoint<Int>(method: .delete, path: "/").isRetrySafe)
        #expect(Endpoint<Int>(method: .head, path: "/").isRetrySafe)
        #expect(!Endpoint<Int>(method: .post, path: "/").isRetrySafe)
        #expect(Endpoint<Int>(method: .post, path: "/", isRetrySafe: true).isRetrySafe)
    }

    @Test func defaultTimeoutIsTenSeconds() {
        #expect(Endpoint<Int>.get("/").timeout == 10)
    }

    @Test func requestJoinsBaseURLPathAndQuery() throws {
        let client = APIClient(
            baseURL: try #require(URL(string: "https://example.com/api/")), envelope: .codeMessageData, transport: StubTransportForEndpointTests())
        let endpoint = Endpoint<Int>.get("/messages", query: [URLQueryItem(name: "q", value: "a b+c&d")])
        let request = try client.makeRequest(for: endpoint)
        #expect(request.url?.absoluteString == "https://example.com/api/messages?q=a%20b%2Bc%26d")
        #expect(request.timeoutInterval == 10)
        #expect(request.httpMethod == "GET")
    }

    @Test func formBodyIsURLEncoded() throws {
        let client = APIClient(
            baseURL: try #require(URL(string: "https://example.com")), envelope: .codeMessageData, transport: StubTransportForEndpointTests())
        let request = try client.makeRequest(for: Endpoint<Int>.post("/f", body: .form([("name", "Ada Lovelace"), ("x", "1&2")])))
        #expect(request.httpBody == Data("name=Ada%20Lovelace&x=1%262".utf8))
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/x-www-form-urlencoded")
    }
}

/// A transport that is never called.
struct StubTransportForEndpointTests: Transport {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) { throw URLError(.unsupportedURL) }
    func upload(_ request: URLRequest, fromFile file: URL, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> (Data, HTTPURLResponse) {
        throw URLError(.unsupportedURL)
    }
    func download(_ request: URLRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> (URL, HTTPURLResponse) {
        throw URLError(.unsupportedURL)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KilnNetwork
import KilnTesting
import Testing

@Suite("Load")
struct LoadTests {
    @Test func thousandRequestsFromFiftyTasksAllSucceed() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages") { request in
                .envelope(data: ["list": [["id": .int(Int64(request.queryValue("n") ?? "0") ?? -1), "title": "t"]], "hasMore": false])
            }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 50
            let client = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [CommonParametersInterceptor(["service_code": "blog"])],
                transport: URLSessionTransport(configuration: configuration))
            let ids = try await withThrowingTaskGroup(of: [Int].self) { group in
                for worker in 0..<50 {
                    group.addTask {
                        var ids: [Int] = []
                        for index in 0..<20 {
                            let n = worker * 20 + index
                            let page = try await client.send(
                                Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "n", value: String(n))]).timeout(60))
                            ids.append(page.list[0].id)
                        }
                        return ids
                    }
                }
                return try await group.reduce(into: []) { $0 += $1 }
            }
            #expect(ids.sorted() == Array(0..<1000))
            #expect(server.requests(to: "/messages").count == 1000)
        }
    }
}

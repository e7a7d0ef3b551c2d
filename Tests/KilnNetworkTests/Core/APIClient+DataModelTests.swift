import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@DataModel
struct Article {
    var id = 0
    var title = "--"
    var views = 0
}

@Suite("APIClient with @DataModel")
struct APIClientDataModelTests {
    @Test func dataModelToleranceAndRepairLogApplyToEnvelopeData() async throws {
        try await withFixtureServer { server in
            server.route(
                .get, "/articles",
                .envelope(data: [
                    ["id": "7", "title": .null, "views": "12"],
                    ["id": 8, "title": "Fine", "views": 3],
                ]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let response = try await client.response(for: Endpoint<[Article]>.get("/articles"))
            #expect(response.value.map(\.id) == [7, 8])
            #expect(response.value.map(\.title) == ["--", "Fine"])
            #expect(response.value.map(\.views) == [12, 3])
            // "7" and "12" were coerced, null title defaulted: each is in the repair log with its path.
            let paths = Set(response.repairs.map(\.path))
            #expect(response.repairs.count == 3)
            #expect(paths.allSatisfy { $0.hasPrefix("data[0].") })
        }
    }
}

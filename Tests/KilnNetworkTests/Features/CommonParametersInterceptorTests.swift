import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("CommonParametersInterceptor")
struct CommonParametersInterceptorTests {
    @Test func commonParametersArePresentOnEveryRequest() async throws {
        try await withFixtureServer { server in
            server.route(nil, "/*", .envelope(data: ["ok": true]))
            let client = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData,
                interceptors: [
                    CommonParametersInterceptor(["service_code": "blog", "app": "kiln"]),
                    CommonParametersInterceptor { [("ts", "12345")] },
                ])
            struct Note: Encodable { var text: String }
            _ = try await client.send(Endpoint<JSONValue>.get("/a", query: [URLQueryItem(name: "page", value: "2")]))
            _ = try await client.send(Endpoint<JSONValue>(method: .delete, path: "/b"))
            _ = try await client.send(Endpoint<JSONValue>.post("/c", body: .form([("title", "hi")])))
            _ = try await client.send(Endpoint<JSONValue>.post("/d", body: try .json(Note(text: "hi"))))
            var form = MultipartFormData()
            form.append("v", name: "field")
            _ = try await client.send(Endpoint<JSONValue>.post("/e", body: .multipart(form)))

            let requests = server.requests
            #expect(requests.count == 5)
            for request in requests {
                #expect(request.parameter("service_code") == "blog", "\(request.method) \(request.path)")
                #expect(request.parameter("app") == "kiln", "\(request.method) \(request.path)")
                #expect(request.parameter("ts") == "12345", "\(request.method) \(request.path)")
            }
            // Where they went: query for GET/DELETE/multipart, the body for form and JSON.
            #expect(requests[0].queryValue("service_code") == "blog")
            #expect(requests[0].queryValue("page") == "2")
            #expect(requests[2].queryValue("service_code") == nil)
            #expect(requests[2].formFields.map(\.name) == ["title", "app", "service_code", "ts"])
            #expect(requests[3].json?["text"] == "hi")
            #expect(requests[3].json?["service_code"] == "blog")
            #expect(requests[4].queryValue("service_code") == "blog")
        }
    }

    @Test func endpointValuesWin() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/a", .envelope(data: 1))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData, interceptors: [CommonParametersInterceptor(["service_code": "blog"])])
            _ = try await client.send(Endpoint<Int>.get("/a", query: [URLQueryItem(name: "service_code", value: "mine")]))
            #expect(server.requests.first?.query.filter { $0.name == "service_code" }.map(\.value) == ["mine"])
        }
    }
}

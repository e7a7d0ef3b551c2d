import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("APIClient")
struct APIClientTests {
    @Test func successDecodesEnvelopeData() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messagesFixture))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let page = try await client.send(Endpoint<MessagePage>.get("/messages", query: [URLQueryItem(name: "page", value: "1")]))
            #expect(page.list.map(\.title) == ["Hello", "World"])
            #expect(server.requests(to: "/messages").first?.queryValue("page") == "1")
        }
    }

    @Test func responseCarriesRepairsStatusAndHeaders() async throws {
        try await withFixtureServer { server in
            // One bad element in a list: the list decodes lossily and the repair is reported.
            server.route(.get, "/messages", .envelope(data: [["id": 1, "title": "ok"], ["id": "x"]]).headers(["X-Trace": "abc"]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let response = try await client.response(for: Endpoint<[Message]>.get("/messages"))
            #expect(response.value == [Message(id: 1, title: "ok")])
            #expect(response.repairs.count == 1)
            #expect(response.status == 200)
            #expect(response.head.header("x-trace") == "abc")
            #expect(response.attempts == 1)
            #expect(response.duration > .zero)
        }
    }

    @Test func dataForReturnsValidatedEnvelopeDataThatDecodesLater() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messagesFixture))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let endpoint = Endpoint<MessagePage>.get("/messages")
            let raw = try await client.data(for: endpoint)
            let json = try JSONDecoder().decode(JSONValue.self, from: raw.value)
            #expect(json == messagesFixture)
            let decoded = try client.decode(raw.value, for: endpoint)
            #expect(decoded.value.list.count == 2)
        }
    }

    @Test func serverCodeBecomesServerError() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(code: "1001", message: "Token expired"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/messages")) }
            #expect(error == .server(code: "1001", message: "Token expired"))
            #expect(error?.description == "Token expired (code 1001)")
        }
    }

    @Test func serverErrorIsNotCachedThroughDataFor() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(code: "1001", message: "no"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.data(for: Endpoint<MessagePage>.get("/messages")) }
            #expect(error == .server(code: "1001", message: "no"))
        }
    }

    @Test func httpStatusBecomesHTTPError() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/missing", .status(404, body: "nothing here"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/missing")) }
            #expect(error == .http(status: 404, body: Data("nothing here".utf8)))
            #expect(error?.description.contains("404") == true)
        }
    }

    @Test func refusedConnectionBecomesTransportCannotConnect() async throws {
        try await withRefusingPort { url in
            let client = APIClient(baseURL: url, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/messages")) }
            #expect(error?.isTransport(.cannotConnect) == true, "got \(String(describing: error))")
        }
    }

    @Test func slowServerBecomesTransportTimeout() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/slow", .envelope(data: messagesFixture).delayed(by: .seconds(3)))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            // The answer comes after 3 s: a call that did not time out would end in a value.
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/slow").timeout(0.3)) }
            #expect(error?.isTransport(.timedOut) == true, "got \(String(describing: error))")
        }
    }

    @Test func connectionDroppedMidBodyBecomesTransportConnectionLost() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/cut", .generated(byteCount: 256 * 1024).droppingConnection(afterBytes: 10_000))
            let client = APIClient(baseURL: server.baseURL, envelope: .none)
            let error = await failure { try await client.send(Endpoint<JSONValue>.get("/cut")) }
            #expect(error?.isTransport(.connectionLost) == true, "got \(String(describing: error))")
        }
    }

    @Test func truncatedBodyBecomesDecodingError() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messagesFixture).truncated(to: 30))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/messages")) }
            #expect(error == .decoding(path: "", repairs: []))
        }
    }

    @Test func wrongShapeBecomesDecodingErrorWithPath() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: ["list": "not a list", "hasMore": false]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<MessagePage>.get("/messages")) }
            guard case .decoding(let path, _)? = error else {
                Issue.record("expected a decoding error, got \(String(describing: error))")
                return
            }
            #expect(path.contains("list"))
        }
    }

    @Test func missingCodeBecomesDecodingErrorAtCodePath() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/odd", .json(["data": 1]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await failure { try await client.send(Endpoint<Int>.get("/odd")) }
            #expect(error == .decoding(path: "code", repairs: []))
        }
    }

    @Test func cancellingTheTaskCancelsTheRequest() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/slow", .envelope(data: messagesFixture).delayed(by: .seconds(5)))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let task = Task { await failure { try await client.send(Endpoint<MessagePage>.get("/slow").timeout(30)) } }
            #expect(await eventually { server.requests(to: "/slow").count == 1 }, "the request reached the server")
            task.cancel()
            // The answer comes after 5 s: a request that was not cancelled would end in a value.
            let error = await task.value
            #expect(error == .cancelled)
        }
    }

    @Test func noContentAcceptsNullData() async throws {
        try await withFixtureServer { server in
            server.route(.post, "/logout", .envelope())
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let value = try await client.send(Endpoint<NoContent>.post("/logout", body: .none))
            #expect(value == NoContent())
        }
    }

    @Test func jsonBodyIsSentWithContentType() async throws {
        struct Login: Encodable {
            var user: String
            var password: String
        }
        try await withFixtureServer { server in
            server.route(.post, "/login", .envelope(data: ["token": "t1"]))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let body = try RequestBody.json(Login(user: "ada", password: "secret"))
            _ = try await client.send(Endpoint<JSONValue>.post("/login", body: body))
            let request = try #require(server.requests(to: "/login").first)
            #expect(request.header("Content-Type") == "application/json")
            #expect(request.json?["user"] == "ada")
        }
    }

    @Test func errorsReadLikeSentences() {
        #expect(APIError.cancelled.description == "The request was cancelled.")
        #expect(APIError.transport(TransportError(.offline)).localizedDescription == "You appear to be offline.")
        #expect(APIError.decoding(path: "data.list", repairs: []).description.contains("data.list"))
    }
}

@Suite("APIClient optional data")
struct APIClientOptionalDataTests {
    @Test func nullDataDecodesAsNilForOptionalResponses() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/maybe", .envelope(data: .null))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let value = try await client.send(Endpoint<Message?>.get("/maybe"))
            #expect(value == nil)
            let error = await failure { try await client.send(Endpoint<Message>.get("/maybe")) }
            #expect(error == .decoding(path: "data", repairs: []))
        }
    }
}

@Suite("APIClient typed throws")
struct APIClientTypedThrowsTests {
    @Test func callersCatchCasesDirectly() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(code: "1001", message: "Token expired"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            var shown = ""
            do throws(APIError) {
                _ = try await client.send(Endpoint<MessagePage>.get("/messages"))
            } catch .server(_, let message) {
                shown = message
            } catch {
                shown = error.description
            }
            #expect(shown == "Token expired")
        }
    }
}

@Suite("APIClient with an error status")
struct APIClientErrorStatusTests {
    @Test(arguments: [400, 401, 403, 422, 500, 503])
    func aRefusalInTheEnvelopeKeepsTheServersWords(status: Int) async throws {
        try await withFixtureServer { server in
            server.route(.get, "/orders", .envelope(code: "1001", message: "余额不足", status: status))
            let error = await failure { try await APIClient(baseURL: server.baseURL, envelope: .codeMessageData).send(Endpoint<[Int]>.get("/orders")) }
            #expect(error == .server(code: "1001", message: "余额不足"))
        }
    }

    @Test func anErrorBodyThatIsNotARefusalStaysAnHTTPError() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/html", .status(502, body: "<html>bad gateway</html>"))
            server.route(.get, "/ok-code", .envelope(code: "0000", message: "ok", status: 500))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let html = await failure { try await client.send(Endpoint<[Int]>.get("/html")) }
            #expect(html == .http(status: 502, body: Data("<html>bad gateway</html>".utf8)))
            guard case .http(500, _)? = await failure({ try await client.send(Endpoint<[Int]>.get("/ok-code")) }) else {
                Issue.record("a success code under a 500 is still an HTTP failure")
                return
            }
        }
    }

    @Test func retriesSeeTheStatusAndTheEndIsTheServersWords() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/busy", .envelope(code: "503", message: "系统维护中", status: 503))
            let client = APIClient(
                baseURL: server.baseURL,
                envelope: .codeMessageData,
                interceptors: [RetryInterceptor(policy: RetryPolicy(maxRetries: 2))],
                sleep: { _ in })
            let error = await failure { try await client.send(Endpoint<[Int]>.get("/busy")) }
            #expect(error == .server(code: "503", message: "系统维护中"))
            #expect(server.requests(to: "/busy").count == 3, "the 503 was retried as an HTTP failure first")
        }
    }
}

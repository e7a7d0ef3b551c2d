import Foundation
import KilnModel
import KilnNetwork
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Every call ends in a value or one error, against httpbin: challenges, compressed bodies,
/// redirects and cookies as a real server sends them.
@Suite("Against httpbin", .serialized, .timeLimit(.minutes(2)))
struct HTTPBinTests {
    func client(_ base: URL, challenges: ChallengeResponder = .standard, interceptors: [any Interceptor] = []) -> APIClient {
        APIClient(baseURL: base, envelope: .none, interceptors: interceptors, transport: URLSessionTransport(challenges: challenges))
    }

    @Test func aBasicChallengeWithNoCredentialIsA401NotAHang() async throws {
        try await withHTTPBin { base in
            let error = await failure { try await client(base).send(Endpoint<JSONValue>.get("/basic-auth/u/p")) }
            guard case .http(401, _)? = error else {
                Issue.record("expected the 401 as an HTTP failure, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func basicCredentialsFromTheResponderSignIn() async throws {
        try await withHTTPBin { base in
            let signedIn = client(base, challenges: .credential(user: "u", password: "p", for: "127.0.0.1"))
            let answer = try await signedIn.send(Endpoint<JSONValue>.get("/basic-auth/u/p"))
            #expect(answer["authenticated"] == true)
            #expect(answer["user"] == "u")
        }
    }

    @Test func digestCredentialsSignInWhereThePlatformCan() async throws {
        try await withHTTPBin { base in
            let signedIn = client(base, challenges: .credential(user: "u", password: "p", for: "127.0.0.1"))
            #if canImport(FoundationNetworking)
            // Linux's URLSession sends Basic credentials only: the 401 arrives, no crash, no hang.
            let error = await failure { try await signedIn.send(Endpoint<JSONValue>.get("/digest-auth/auth/u/p")) }
            guard case .http(401, _)? = error else {
                Issue.record("expected a 401, got \(String(describing: error))")
                return
            }
            #else
            let answer = try await signedIn.send(Endpoint<JSONValue>.get("/digest-auth/auth/u/p"))
            #expect(answer["authenticated"] == true)
            #endif
        }
    }

    @Test func aWrongCredentialIsTriedOnceThenThe401Arrives() async throws {
        try await withHTTPBin { base in
            let wrong = client(base, challenges: .credential(user: "u", password: "nope", for: "127.0.0.1"))
            let error = await failure { try await wrong.send(Endpoint<JSONValue>.get("/basic-auth/u/p")) }
            guard case .http(401, _)? = error else {
                Issue.record("expected a 401, got \(String(describing: error))")
                return
            }
        }
    }

    @Test func theAuthInterceptorRefreshesOnABasicChallenge() async throws {
        try await withHTTPBin { base in
            let session = AuthSession(token: "stale") { Data("u:p".utf8).base64EncodedString() }
            let auth = AuthInterceptor(session: session, format: { "Basic \($0)" })
            let answer = try await client(base, interceptors: [auth]).send(Endpoint<JSONValue>.get("/basic-auth/u/p"))
            #expect(answer["authenticated"] == true)
            #expect(await session.refreshCount == 1)
        }
    }

    @Test(arguments: ["gzip", "deflate"])
    func aCompressedDownloadArrivesDecompressed(encoding: String) async throws {
        try await withHTTPBin { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-httpbin-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("body.json")
            var finished: DownloadedFile?
            for try await event in client(base).download(Endpoint<Data>.get("/\(encoding)"), to: destination) {
                if case .finished(let file) = event { finished = file }
            }
            let file = try #require(finished)
            let json = try JSONValue(parsing: Data(contentsOf: file.url))
            #expect(json[encoding == "gzip" ? "gzipped" : "deflated"] == true)
            #expect(file.byteCount == Int64(try Data(contentsOf: file.url).count))
        }
    }

    @Test func aDownloadOverAnExistingFileReplacesItOnlyOnSuccess() async throws {
        try await withHTTPBin { base in
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-httpbin-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            let destination = folder.appendingPathComponent("file.bin")
            try Data("the user's file".utf8).write(to: destination)

            let failed = await failure {
                for try await _ in client(base).download(Endpoint<Data>.get("/status/500"), to: destination) {}
            }
            #expect(failed != nil)
            #expect(try Data(contentsOf: destination) == Data("the user's file".utf8), "a failed download leaves the file alone")

            for try await _ in client(base).download(Endpoint<Data>.get("/bytes/4096", query: [URLQueryItem(name: "seed", value: "7")]), to: destination) {}
            #expect(try Data(contentsOf: destination).count == 4096, "a successful one replaces it")
            let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0 != "file.bin" }
            #expect(leftovers.isEmpty, "no staged file is left beside it: \(leftovers)")
        }
    }

    @Test(arguments: [307, 308])
    func aTemporaryOrPermanentRedirectKeepsMethodAndBody(status: Int) async throws {
        try await withHTTPBin { base in
            let body: JSONValue = ["title": "kept", "n": 3]
            let endpoint = Endpoint<JSONValue>.post(
                "/redirect-to", body: try .json(body),
                query: [URLQueryItem(name: "url", value: "/post"), URLQueryItem(name: "status_code", value: String(status))])
            let echo = try await client(base).send(endpoint)
            #expect(echo["json"] == body, "the body survived the \(status)")
        }
    }

    @Test(arguments: [(301, "POST", "/get"), (302, "POST", "/get"), (303, "POST", "/get"), (303, "PUT", "/get"), (302, "PUT", "/put")])
    func otherRedirectsBehaveAsBrowsersDo(status: Int, method: String, target: String) async throws {
        try await withHTTPBin { base in
            let endpoint = Endpoint<JSONValue>(
                method: HTTPMethod(rawValue: method), path: "/redirect-to",
                query: [URLQueryItem(name: "url", value: target), URLQueryItem(name: "status_code", value: String(status))],
                body: .jsonData(Data(#"{"a":1}"#.utf8)))
            let echo = try await client(base).send(endpoint)
            #expect(echo["url"].string?.hasSuffix(target) == true, "\(status) \(method) → \(target)")
        }
    }

    @Test func cookiesSetByARedirectGoOnTheNextHop() async throws {
        try await withHTTPBin { base in
            let echo = try await client(base).send(Endpoint<JSONValue>.get("/cookies/set", query: [URLQueryItem(name: "flavour", value: "oat")]))
            #expect(echo["cookies"] == ["flavour": "oat"])
        }
    }
}

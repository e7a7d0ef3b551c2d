import Foundation
import KilnNetwork
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("URLSessionTransport")
struct URLSessionTransportTests {
    @Test func errorStatusesAreResponsesNotErrors() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/teapot", .status(418, body: "short and stout"))
            let transport = URLSessionTransport()
            let (data, response) = try await transport.send(URLRequest(url: server.baseURL.appendingPathComponent("teapot")))
            #expect(response.statusCode == 418)
            #expect(data == Data("short and stout".utf8))
        }
    }

    @Test func downloadReturnsATemporaryFileTheCallerOwns() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/blob", .generated(byteCount: 300_000, seed: 9))
            let transport = URLSessionTransport()
            let counter = FixtureCounter()
            let (file, response) = try await transport.download(URLRequest(url: server.baseURL.appendingPathComponent("blob"))) { _ in
                _ = counter.next()
            }
            defer { try? FileManager.default.removeItem(at: file) }
            #expect(response.statusCode == 200)
            #expect(try Data(contentsOf: file) == GeneratedBytes.data(count: 300_000, seed: 9))
            #expect(counter.count > 0)
        }
    }

    @Test func uploadStreamsAFileBody() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let body = directory.appendingPathComponent("body.bin")
        try GeneratedBytes.data(count: 500_000, seed: 4).write(to: body)
        try await withFixtureServer { server in
            server.route(.put, "/sink") { request in .json(.string(SHA256Digest.hex(of: request.body))) }
            var request = URLRequest(url: server.baseURL.appendingPathComponent("sink"))
            request.httpMethod = "PUT"
            let (data, response) = try await URLSessionTransport().upload(request, fromFile: body) { _ in }
            #expect(response.statusCode == 200)
            #expect(String(decoding: data, as: UTF8.self) == "\"\(try SHA256Digest.hex(ofFileAt: body))\"")
        }
    }
}

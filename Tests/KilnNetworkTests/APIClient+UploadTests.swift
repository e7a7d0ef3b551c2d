import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing

@Suite("APIClient+Upload")
struct APIClientUploadTests {
    @Test func threePartUploadArrivesIntactWithMonotonicProgress() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let image = GeneratedBytes.data(count: 700_000, seed: 1)
        let document = directory.appendingPathComponent("report.pdf")
        try GeneratedBytes.data(count: 3_000_000, seed: 2).write(to: document)
        let expected: [String: (size: Int, sha: String, type: String?)] = [
            "photo": (image.count, SHA256Digest.hex(of: image), "image/jpeg"),
            "report": (3_000_000, try SHA256Digest.hex(ofFileAt: document), "application/pdf"),
            "caption": (7, SHA256Digest.hex(of: Data("holiday".utf8)), nil),
        ]

        try await withFixtureServer { server in
            // The server side checks sizes and checksums and answers what it saw.
            server.route(.post, "/upload") { request in
                let parts = try request.multipartParts()
                let seen: [JSONValue] = parts.map { part in
                    [
                        "name": .string(part.name),
                        "filename": part.filename.map(JSONValue.string) ?? .null,
                        "type": part.contentType.map(JSONValue.string) ?? .null,
                        "size": .int(Int64(part.data.count)),
                        "sha256": .string(part.sha256),
                    ]
                }
                return .envelope(data: .array(seen))
            }
            var form = MultipartFormData()
            form.append(image, name: "photo", filename: "photo.jpg", mimeType: "image/jpeg")
            form.append(fileAt: document, name: "report")
            form.append("holiday", name: "caption")
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)

            var progress: [TransferProgress] = []
            var result: JSONValue?
            // The server hashes 3.7 MB before answering: slow under a sanitizer, hence the timeout.
            for try await event in client.upload(Endpoint<JSONValue>.post("/upload", body: .multipart(form)).timeout(120)) {
                switch event {
                case .progress(let value): progress.append(value)
                case .finished(let value): result = value
                }
            }

            let parts = try #require(result?.array)
            #expect(parts.count == 3)
            for part in parts {
                let name = try #require(part["name"].string)
                let want = try #require(expected[name])
                #expect(part["size"].int == want.size, "\(name)")
                #expect(part["sha256"].string == want.sha, "\(name)")
                #expect(part["type"].string == want.type, "\(name)")
            }
            #expect(parts.map { $0["filename"].string } == ["photo.jpg", "report.pdf", nil])
            #expect(!progress.isEmpty)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed })
            #expect(progress.last?.fraction == 1)
        }
    }

    @Test func missingSourceFileFailsBeforeSending() async throws {
        try await withFixtureServer { server in
            server.route(.post, "/upload", .envelope())
            var form = MultipartFormData()
            form.append(fileAt: URL(fileURLWithPath: "/nonexistent/\(UUID().uuidString).bin"), name: "file")
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            await #expect(throws: APIError.self) {
                for try await _ in client.upload(Endpoint<NoContent>.post("/upload", body: .multipart(form))) {}
            }
            #expect(server.requests.isEmpty)
        }
    }
}

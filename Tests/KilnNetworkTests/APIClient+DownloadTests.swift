import Foundation
import KilnNetwork
import KilnTesting
import Testing

@Suite("APIClient+Download")
struct APIClientDownloadTests {
    @Test func largeDownloadMatchesChecksumWithMonotonicProgress() async throws {
        let size = 50 * 1024 * 1024
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("nested/big.bin")

        try await withFixtureServer { server in
            server.route(.get, "/big", .generated(byteCount: size, seed: 42))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            var progress: [TransferProgress] = []
            var file: DownloadedFile?
            for try await event in client.download(Endpoint<Data>.get("/big").timeout(60), to: destination) {
                switch event {
                case .progress(let value): progress.append(value)
                case .finished(let value): file = value
                }
            }
            #expect(file?.byteCount == Int64(size))
            #expect(file?.url == destination)
            #expect((try? SHA256Digest.hex(ofFileAt: destination)) == GeneratedBytes.sha256(count: size, seed: 42))
            #expect(progress.count > 10)
            #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.completed < $1.completed })
            #expect(progress.allSatisfy { $0.total == Int64(size) })
            #expect(progress.last?.completed == Int64(size))
        }
    }

    @Test func interruptedDownloadLeavesNoFileAtDestination() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("cut.bin")
        try await withFixtureServer { server in
            server.route(.get, "/cut", .generated(byteCount: 2_000_000).droppingConnection(afterBytes: 500_000))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            var received: Int64 = 0
            let error = await #expect(throws: APIError.self) {
                for try await event in client.download(Endpoint<Data>.get("/cut"), to: destination) {
                    if case .progress(let value) = event { received = value.completed }
                }
            }
            #expect(error?.isTransport(.connectionLost) == true, "got \(String(describing: error))")
            #expect(received < 2_000_000)
            #expect(!FileManager.default.fileExists(atPath: destination.path))
            #expect((try? FileManager.default.contentsOfDirectory(atPath: directory.path))?.isEmpty == true)
        }
    }

    @Test func failedDownloadKeepsThePreviousFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("keep.bin")
        try Data("old".utf8).write(to: destination)
        try await withFixtureServer { server in
            server.route(.get, "/missing", .status(404, body: "no"))
            let client = APIClient(baseURL: server.baseURL, envelope: .codeMessageData)
            let error = await #expect(throws: APIError.self) {
                for try await _ in client.download(Endpoint<Data>.get("/missing"), to: destination) {}
            }
            #expect(error == .http(status: 404, body: Data("no".utf8)))
            #expect((try? Data(contentsOf: destination)) == Data("old".utf8))
        }
    }
}

@Suite("APIClient+Download cancellation")
struct APIClientDownloadCancellationTests {
    @Test func stoppingTheIterationCancelsAndLeavesNoFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let destination = directory.appendingPathComponent("slow.bin")
        try await withFixtureServer { server in
            // Uncancelled, this body takes at least 32 × 100 ms = 3.2 s to arrive.
            server.route(.get, "/slow", .generated(byteCount: 32 * 32 * 1024).slowBody(chunkSize: 32 * 1024, interval: .milliseconds(100)))
            let cancelled = AsyncStream<Void>.makeStream()
            let client = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData,
                eventMonitors: [
                    EventMonitor { event in
                        if case .attemptFailed(_, .cancelled, _, _, _) = event { cancelled.continuation.yield() }
                    }
                ])
            var events = 0
            for try await event in client.download(Endpoint<Data>.get("/slow"), to: destination) {
                events += 1
                if case .progress = event { break }
            }
            #expect(events == 1)
            // The attempt ends as cancelled, after which a download never moves its file: wait for
            // that, then look.
            for await _ in cancelled.stream { break }
            #expect(!FileManager.default.fileExists(atPath: destination.path))
        }
    }
}

import Foundation
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// httpbin (the server Alamofire's own suite runs against) under gunicorn on a loopback port,
/// for the length of one test: a real HTTP peer that no one here wrote.
///
/// The test installs it on first use when the system's Python lacks it (``PythonPeers``: a
/// virtual environment under `.build/`). When that cannot be done (no Python, no network) the
/// test fails saying what is missing rather than passing unseen.
struct HTTPBin {
    let baseURL: URL
    private let server: ServerProcess

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Runs gunicorn with a clear signal mask: a test runner's threads may block `SIGTERM`, a
    /// spawned process inherits the mask, and gunicorn would never hear that it should stop.
    static let launcher = """
        import signal, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        from gunicorn.app.wsgiapp import run
        sys.argv = ["gunicorn"] + sys.argv[1:]
        run()
        """

    static func start() async throws -> HTTPBin {
        let python = try await PythonPeers.shared.python()
        var lastFailure = "no attempt"
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000)
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-httpbin-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errors) }
            let server = try ServerProcess(
                "/usr/bin/env",
                [python, "-c", launcher, "--bind", "127.0.0.1:\(port)", "--workers", "2", "--log-level", "warning", "httpbin:app"],
                errors: try FileHandle(forWritingTo: errors)
            )
            guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { continue }
            if await server.waitUntilAnswering(baseURL.appendingPathComponent("get")) {
                return HTTPBin(baseURL: baseURL, server: server)
            }
            await server.stop()
            lastFailure = (try? String(contentsOf: errors, encoding: .utf8)) ?? "no output"
            if lastFailure.contains("No module named") { break }
        }
        throw Unavailable(description: "httpbin did not start with \(python): \(lastFailure.suffix(400))")
    }

    /// Stops the server and waits until it has exited.
    func stop() async {
        await server.stop()
    }
}

/// Runs `body` with an httpbin server, stopping it afterwards.
func withHTTPBin(_ body: (URL) async throws -> Void) async throws {
    let server = try await HTTPBin.start()
    do {
        try await body(server.baseURL)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

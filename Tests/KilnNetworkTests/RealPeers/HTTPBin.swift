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
struct HTTPBin: PeerServer {
    let baseURL: URL
    private let server: ServerProcess

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
        let (server, baseURL) = try await ServerProcess.startOnLoopback(name: "httpbin", readyPath: "get") { port in
            ("/usr/bin/env", [python, "-c", launcher, "--bind", "127.0.0.1:\(port)", "--workers", "2", "--log-level", "warning", "httpbin:app"])
        }
        return HTTPBin(baseURL: baseURL, server: server)
    }

    /// Stops the server and waits until it has exited.
    func stop() async {
        await server.stop()
    }
}

/// Runs `body` with an httpbin server, stopping it afterwards.
func withHTTPBin(_ body: (URL) async throws -> Void) async throws {
    try await withPeer(HTTPBin.start) { try await body($0.baseURL) }
}

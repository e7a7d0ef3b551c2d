import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import KilnSupport

/// A server a test started as a child process, and a way to wait until it has exited.
struct ServerProcess {
    let process: Process
    private let exited: AsyncStream<Void>

    /// Starts `executable` with `arguments`, its standard error into `errors`.
    init(_ executable: String, _ arguments: [String], errors: FileHandle) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        let (exited, ended) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in
            ended.yield()
            ended.finish()
        }
        try process.run()
        self.process = process
        self.exited = exited
    }

    var isRunning: Bool { process.isRunning }

    /// Waits until `url` answers with a `200`; `false` when the process exited first (a taken
    /// port, a missing module) or ten seconds passed.
    func waitUntilAnswering(_ url: URL) async -> Bool {
        for _ in 0..<200 where process.isRunning {
            if let (_, response) = try? await URLSession.shared.data(from: url), (response as? HTTPURLResponse)?.statusCode == 200 {
                return true
            }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    /// Sends `signal` (`SIGTERM` by default) and waits until the process has exited.
    func stop(signal: Int32 = SIGTERM) async {
        if process.isRunning { kill(process.processIdentifier, signal) }
        for await _ in exited {}
    }

    /// Runs a command to its end (in `folder`, when given); its exit status and what it wrote.
    static func run(_ executable: String, _ arguments: [String], in folder: URL? = nil) async throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let folder { process.currentDirectoryURL = folder }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-peers-\(UUID().uuidString).log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        let (ended, end) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in end.finish() }
        try process.run()
        for await _ in ended {}
        try? handle.close()
        return (process.terminationStatus, (try? String(contentsOf: log, encoding: .utf8)) ?? "")
    }

    /// Why a peer server could not be started.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts the server `command` gives for a port on a random loopback port, trying another
    /// port when it does not come up (a port taken), until `readyPath` answers with a `200`.
    static func startOnLoopback(
        name: String,
        readyPath: String,
        command: (Int) -> (executable: String, arguments: [String])
    ) async throws -> (ServerProcess, URL) {
        var lastFailure = "no attempt"
        for _ in 0..<10 {
            let port = Int.random(in: 20_000..<60_000)
            let errors = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-\(name)-\(UUID().uuidString).log")
            _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
            defer { try? FileManager.default.removeItem(at: errors) }
            let (executable, arguments) = command(port)
            let server = try ServerProcess(executable, arguments, errors: try FileHandle(forWritingTo: errors))
            guard let baseURL = URL(string: "http://127.0.0.1:\(port)") else { continue }
            if await server.waitUntilAnswering(baseURL.appendingPathComponent(readyPath)) {
                return (server, baseURL)
            }
            await server.stop()
            lastFailure = (try? String(contentsOf: errors, encoding: .utf8)) ?? "no output"
            if lastFailure.contains("No module named") { break }
        }
        throw Unavailable(description: "\(name) did not start with \(command(0).executable): \(lastFailure.suffix(400))")
    }

    /// `.build/kiln-peers` of this package, found from this file's path: where the tests keep the
    /// peers they set up themselves.
    static var peersFolder: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent(".build/kiln-peers")
    }
}

/// A server a test started and stops.
protocol PeerServer {
    func stop() async
}

/// Runs `body` with the server `start` starts, stopping it afterwards whatever happens.
func withPeer<Server: PeerServer>(
    isolation: isolated (any Actor)? = #isolation,
    _ start: () async throws -> Server,
    _ body: (Server) async throws -> Void
) async throws {
    let server = try await start()
    do {
        try await body(server)
    } catch {
        await server.stop()
        throw error
    }
    await server.stop()
}

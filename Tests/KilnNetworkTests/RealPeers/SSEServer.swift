import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A Server-Sent Events server from PyPI — sse-starlette under uvicorn — on a loopback port, for
/// the length of one test, running `sse_server.py` beside this file (its routes say what each
/// test needs). Provisioned like httpbin (``PythonPeers``).
struct SSEServer: PeerServer {
    let baseURL: URL
    private let server: ServerProcess

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("sse_server.py")
    }

    static func start() async throws -> SSEServer {
        let python = try await PythonPeers.shared.python()
        let (server, baseURL) = try await ServerProcess.startOnLoopback(name: "sse-starlette", readyPath: "ready") { port in
            ("/usr/bin/env", [python, script.path, String(port)])
        }
        return SSEServer(baseURL: baseURL, server: server)
    }

    /// What the server logged under `key` (`Last-Event-ID`s seen, connections and disconnections).
    func log(_ key: String) async throws -> [ServerLogEntry] {
        let (data, _) = try await URLSession.shared.data(from: baseURL.appendingPathComponent("log/\(key)"))
        return try JSONDecoder().decode([ServerLogEntry].self, from: data)
    }

    /// Lets a `/gated/{key}` stream send the rest of its events.
    func release(_ key: String) async throws {
        _ = try await URLSession.shared.data(from: baseURL.appendingPathComponent("release/\(key)"))
    }

    func stop() async {
        await server.stop()
    }
}

/// One entry of the server's log: a word (`"connected"`) or the `Last-Event-ID` a connection sent.
enum ServerLogEntry: Decodable, Equatable, Sendable {
    case word(String)
    case lastEventID(String?)

    private enum Keys: String, CodingKey { case last_event_id }

    init(from decoder: any Decoder) throws {
        if let word = try? decoder.singleValueContainer().decode(String.self) {
            self = .word(word)
        } else {
            self = .lastEventID(try decoder.container(keyedBy: Keys.self).decodeIfPresent(String.self, forKey: .last_event_id))
        }
    }
}

/// Runs `body` with an SSE server, stopping it afterwards.
func withSSEServer(_ body: (SSEServer) async throws -> Void) async throws {
    try await withPeer(SSEServer.start, body)
}

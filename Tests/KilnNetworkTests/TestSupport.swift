import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
import KilnSupport
#endif

struct Message: Decodable, Sendable, Hashable {
    var id: Int
    var title: String
}

struct MessagePage: Decodable, Sendable, Hashable {
    var list: [Message]
    var hasMore: Bool
}

/// The error a call failed with, or `nil` if it succeeded. Any error that is not an
/// `APIError` is recorded as an issue (the client promises to throw only `APIError`).
func failure<V>(_ operation: () async throws -> V) async -> APIError? {
    do {
        _ = try await operation()
        return nil
    } catch let error as APIError {
        return error
    } catch {
        Issue.record("not an APIError: \(error)")
        return nil
    }
}

/// Records the delays a client was asked to wait, without waiting.
final class SleepRecorder: Sendable {
    private let recorded = Recorder<Duration>()

    var delays: [Duration] { recorded.entries }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [recorded] delay in recorded.append(delay) }
    }
}

/// A scratch directory removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The message list, as the fixture serves it.
let messagesFixture: JSONValue = [
    "list": [
        ["id": 1, "title": "Hello"],
        ["id": 2, "title": "World"],
    ],
    "hasMore": false,
]

/// Runs `body` with the URL of a loopback port that refuses connections: a TCP socket is bound
/// to it but never listens, so the port stays taken for the whole call and no server started by
/// another test can answer there (a stopped server's port could be handed out again at once).
func withRefusingPort<T>(_ body: (URL) async throws -> T) async throws -> T {
    #if canImport(Darwin)
    let descriptor = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard descriptor >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    defer { close(descriptor) }
    var address = sockaddr_in()
    #if canImport(Darwin)
    address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = 0
    address.sin_addr.s_addr = in_addr_t(UInt32(0x7F00_0001).bigEndian)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
            bind(descriptor, socketAddress, length) == 0 && getsockname(descriptor, socketAddress, &length) == 0
        }
    }
    guard bound else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
    let port = UInt16(bigEndian: address.sin_port)
    return try await body(try #require(URL(string: "http://127.0.0.1:\(port)")))
}

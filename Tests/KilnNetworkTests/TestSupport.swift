import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
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
final class SleepRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Duration] = []

    var delays: [Duration] { lock.withLock { recorded } }

    var sleep: @Sendable (Duration) async throws -> Void {
        { [self] delay in lock.withLock { recorded.append(delay) } }
    }
}

/// A scratch directory removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The seed's message list, as the fixture serves it.
let messagesFixture: JSONValue = [
    "list": [
        ["id": 1, "title": "Hello"],
        ["id": 2, "title": "World"],
    ],
    "hasMore": false,
]

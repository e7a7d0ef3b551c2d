import Foundation
import KilnModel
import KilnNetwork

/// What a ``FixtureServer`` route answers, including the faults it can inject.
///
/// ```swift
/// server.route(.get, "/messages", .envelope(data: ["list": [["id": 1]]]))
/// server.route(.get, "/broken", .envelope(code: "1001", message: "Token expired"))
/// server.route(.get, "/slow", .json(["ok": true]).delayed(by: .seconds(3)))
/// server.route(.get, "/cut", .generated(byteCount: 1 << 20).droppingConnection(afterBytes: 4096))
/// ```
public struct FixtureResponse: Sendable {
    /// Where the body bytes come from.
    public enum Body: Sendable {
        /// Bytes in memory.
        case data(Data)
        /// Deterministic bytes (see ``GeneratedBytes``), produced while sending.
        case generated(count: Int, seed: UInt64)
        /// A file, streamed.
        case file(URL)
    }

    /// A fault injected into the body.
    public enum Fault: Sendable, Hashable {
        /// Declare the full `Content-Length`, send this many bytes, then close the connection.
        case dropConnection(afterBytes: Int)
        /// Send the body in chunks with a pause before each chunk after the first.
        case slowBody(chunkSize: Int, interval: Duration)
    }

    /// The HTTP status.
    public var status: Int
    /// Response headers.
    public var headers: [String: String]
    /// The body.
    public var body: Body
    /// A fault, if any.
    public var fault: Fault?
    /// Time to wait before answering.
    public var latency: Duration

    /// Creates a response.
    public init(status: Int = 200, headers: [String: String] = [:], body: Body = .data(Data()), fault: Fault? = nil, latency: Duration = .zero) {
        self.status = status
        self.headers = headers
        self.body = body
        self.fault = fault
        self.latency = latency
    }

    // MARK: Bodies

    /// A JSON document.
    public static func json(_ value: JSONValue, status: Int = 200) -> FixtureResponse {
        let data = (try? JSONEncoder().encode(value)) ?? Data("null".utf8)
        return FixtureResponse(status: status, headers: ["Content-Type": "application/json"], body: .data(data))
    }

    /// The common envelope: `{"code": code, "msg": message, "data": data}`.
    public static func envelope(data: JSONValue = .null, code: String = "0000", message: String = "ok", status: Int = 200) -> FixtureResponse {
        .json(.object(["code": .string(code), "msg": .string(message), "data": data]), status: status)
    }

    /// A status with an optional text body.
    public static func status(_ status: Int, body: String = "", headers: [String: String] = [:]) -> FixtureResponse {
        var headers = headers
        if headers["Content-Type"] == nil { headers["Content-Type"] = "text/plain; charset=utf-8" }
        return FixtureResponse(status: status, headers: headers, body: .data(Data(body.utf8)))
    }

    /// Raw bytes with a content type.
    public static func data(_ data: Data, contentType: String = "application/octet-stream", status: Int = 200) -> FixtureResponse {
        FixtureResponse(status: status, headers: ["Content-Type": contentType], body: .data(data))
    }

    /// A JSON file from disk (for example the demo's fixtures), sent as it is.
    public static func jsonFile(_ url: URL, status: Int = 200) -> FixtureResponse {
        FixtureResponse(status: status, headers: ["Content-Type": "application/json"], body: .file(url))
    }

    /// A JSON file wrapped in a success envelope as its `data`.
    public static func envelope(dataFile url: URL, code: String = "0000", message: String = "ok") throws -> FixtureResponse {
        let value = try JSONDecoder().decode(JSONValue.self, from: Data(contentsOf: url))
        return .envelope(data: value, code: code, message: message)
    }

    /// `byteCount` deterministic bytes with a `Content-Length`, generated while sending.
    public static func generated(byteCount: Int, seed: UInt64 = 0) -> FixtureResponse {
        FixtureResponse(headers: ["Content-Type": "application/octet-stream"], body: .generated(count: byteCount, seed: seed))
    }

    // MARK: Modifiers

    /// Waits before answering.
    public func delayed(by latency: Duration) -> FixtureResponse {
        var copy = self
        copy.latency = latency
        return copy
    }

    /// Declares the full length but closes the connection after `bytes` bytes of body.
    public func droppingConnection(afterBytes bytes: Int) -> FixtureResponse {
        var copy = self
        copy.fault = .dropConnection(afterBytes: max(0, bytes))
        return copy
    }

    /// Sends the body in `chunkSize` pieces, pausing `interval` between them.
    public func slowBody(chunkSize: Int = 1024, interval: Duration) -> FixtureResponse {
        var copy = self
        copy.fault = .slowBody(chunkSize: max(1, chunkSize), interval: interval)
        return copy
    }

    /// Cuts the body to its first `bytes` bytes with a matching `Content-Length`: valid HTTP,
    /// broken payload (a truncated JSON document fails to decode).
    public func truncated(to bytes: Int) -> FixtureResponse {
        var copy = self
        copy.body = .data(copy.bodyData().prefix(max(0, bytes)))
        return copy
    }

    /// Adds or replaces headers.
    public func headers(_ extra: [String: String]) -> FixtureResponse {
        var copy = self
        copy.headers.merge(extra) { _, new in new }
        return copy
    }

    /// The body as bytes (reads a file body; generates a generated one).
    public func bodyData() -> Data {
        switch body {
        case .data(let data): data
        case .generated(let count, let seed): GeneratedBytes.data(count: count, seed: seed)
        case .file(let url): (try? Data(contentsOf: url)) ?? Data()
        }
    }
}

/// Deterministic pseudo-random bytes: the same `(count, seed)` always gives the same bytes, and
/// any range can be produced without the bytes before it.
///
/// ```swift
/// server.route(.get, "/big", .generated(byteCount: 50 << 20))
/// let expected = GeneratedBytes.sha256(count: 50 << 20)
/// ```
public enum GeneratedBytes {
    /// The bytes at `range` of the stream for `seed`.
    public static func data(in range: Range<Int>, seed: UInt64 = 0) -> Data {
        var data = Data(count: range.count)
        data.withUnsafeMutableBytes { raw in
            guard let out = raw.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
            var index = range.lowerBound
            var word = Self.word(index >> 3, seed: seed)
            for position in 0..<range.count {
                let shift = UInt64((index & 7) * 8)
                out[position] = UInt8(truncatingIfNeeded: word >> shift)
                index += 1
                if index & 7 == 0 { word = Self.word(index >> 3, seed: seed) }
            }
        }
        return data
    }

    /// The first `count` bytes for `seed`.
    public static func data(count: Int, seed: UInt64 = 0) -> Data {
        data(in: 0..<max(0, count), seed: seed)
    }

    /// The SHA-256 hex digest of the first `count` bytes, computed in 1 MiB pieces.
    public static func sha256(count: Int, seed: UInt64 = 0) -> String {
        var hasher = SHA256Digest()
        var offset = 0
        while offset < count {
            let end = min(count, offset + (1 << 20))
            hasher.update(data(in: offset..<end, seed: seed))
            offset = end
        }
        return hasher.finalize()
    }

    /// SplitMix64 of the word index: fast, well mixed, stateless.
    private static func word(_ index: Int, seed: UInt64) -> UInt64 {
        var z = UInt64(truncatingIfNeeded: index) &+ seed &* 0x9E37_79B9_7F4A_7C15 &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

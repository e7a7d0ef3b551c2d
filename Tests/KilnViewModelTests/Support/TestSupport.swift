import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
import KilnSupport

/// Lets the main actor run what is already queued on it (scheduled observation calls, landed
/// tasks), and what those queue in turn: main-actor jobs of one priority run in order, so a job
/// queued after them ends after them.
@MainActor
func settle() async {
    for _ in 0..<3 {
        await Task { @MainActor in }.value
    }
}

/// A stub-backed client for unit tests.
func stubClient(_ stub: StubTransport) -> APIClient {
    APIClient(baseURL: URL(string: "https://stub.local")!, envelope: .codeMessageData, transport: stub)
}

/// A JSON article, as the server sends it.
func articleJSON(_ id: Int, _ title: String, desc: String = "desc", body: String = "") -> JSONValue {
    ["id": .int(Int64(id)), "title": .string(title), "desc": .string(desc), "body": .string(body)]
}

/// A page of articles `ids`, titled `"\(prefix)\(id)"`.
func articlePage(_ ids: ClosedRange<Int>, prefix: String = "A", hasMore: Bool) -> FixtureResponse {
    .envelope(data: ["list": .array(ids.map { articleJSON($0, "\(prefix)\($0)") }), "hasMore": .bool(hasMore)])
}

/// A gate a test opens to let a stubbed loader continue: deterministic ordering without timing.
final class Gate: Sendable {
    private let stream: AsyncStream<Void>
    private let continuation: AsyncStream<Void>.Continuation

    init() {
        (stream, continuation) = AsyncStream.makeStream(of: Void.self)
    }

    func open() {
        continuation.yield()
        continuation.finish()
    }

    func wait() async {
        for await _ in stream { return }
    }
}

/// An article model built in code.
func makeArticle(_ id: Int, _ title: String, desc: String = "desc", body: String = "") -> Article {
    var article = Article()
    article.id = id
    article.title = title
    article.desc = desc
    article.body = body
    return article
}

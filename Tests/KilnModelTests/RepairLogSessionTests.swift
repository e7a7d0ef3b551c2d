import Foundation
import Testing
@testable import KilnModel

/// One ``DecodingSession`` kept over several decodes: each repair reads its text from its own
/// document, the log read between decodes stays the start of the log read after, and the log
/// equals the logs of separate sessions one after the other.
@Suite struct RepairLogSessionTests {
    @DataModel
    struct Owner: Equatable, Sendable {
        var name = "--"
        var followers = 0
    }

    @DataModel
    struct Row: Equatable, Sendable {
        var id = 0
        var owner = Owner()
    }

    @DataModel
    struct Page: Equatable, Sendable {
        var rows: [Row] = []
    }

    static let first = #"{"rows": [{"id": "12", "owner": {"name": 5}}]}"#
    static let second = #"{"rows": [{"id": 1}, {"id": "7", "owner": {"followers": "9k", "name": "Ann"}}]}"#

    private func log(_ texts: [String], in session: DecodingSession) throws -> [String] {
        for text in texts {
            _ = try KilnDecoder().decode(Page.self, from: JSONDocument(parsing: Data(text.utf8)), at: nil, session: session)
        }
        return session.repairs.map(\.description)
    }

    @Test func aSessionOverTwoDocumentsLogsEachFromItsOwn() throws {
        let firstAlone = try log([Self.first], in: DecodingSession())
        let secondAlone = try log([Self.second], in: DecodingSession())
        #expect(firstAlone.contains(#"rows[0].id: expected Int, found "12" → 12"#))
        #expect(secondAlone.contains(#"rows[1].owner.followers: expected Int, found "9k" → 0"#))

        let shared = DecodingSession()
        let early = try log([Self.first], in: shared)
        let all = try log([Self.second], in: shared)
        #expect(early == firstAlone)
        #expect(all == firstAlone + secondAlone)
    }

    /// An object with the token of one placed in an earlier document (token 7: the first
    /// document's owner, the fifth row here) is placed in its own document.
    @Test func anObjectWithTheTokenOfAnotherDocumentsIsPlacedInItsOwn() throws {
        let fifthRow = #"{"rows": [{}, {}, {}, {}, {"id": "3"}]}"#
        let alone = try log([fifthRow], in: DecodingSession())
        #expect(alone.contains(#"rows[4].id: expected Int, found "3" → 3"#))
        let firstAlone = try log([Self.first], in: DecodingSession())
        #expect(try log([Self.first, fifthRow], in: DecodingSession()) == firstAlone + alone)
    }

    /// What `onRepair` hears from the second document of a session reads that document.
    @Test func onRepairReadsEachRepairFromItsOwnDocument() throws {
        let heard = LockedList<String>()
        var policy = DecodingPolicy()
        policy.onRepair = { heard.append($0.description) }
        let session = DecodingSession(policy: policy, keepsRepairs: false)
        _ = try log([Self.first, Self.second], in: session)
        #expect(heard.all.contains(#"rows[1].owner.followers: expected Int, found "9k" → 0"#), "\(heard.all)")
    }

    /// What a `@Sendable` callback hears, in order.
    final class LockedList<Element>: @unchecked Sendable {
        private let lock = NSLock()
        private var elements: [Element] = []
        func append(_ element: Element) { lock.withLock { elements.append(element) } }
        var all: [Element] { lock.withLock { elements } }
    }

    /// Repairs made as text (here by a model decoded through `init(from:)` inside the fast path's
    /// document) keep their place among the reader's.
    @Test func textAndCompactRepairsKeepTheirOrder() throws {
        let session = DecodingSession()
        let text = #"{"rows": [{"id": "1", "owner": {"name": 5}}, {"id": "2"}]}"#
        _ = try KilnDecoder().decode(Page.self, from: JSONDocument(parsing: Data(text.utf8)), at: nil, session: session)
        let viaFoundation = try JSONDecoder().decodeWithRepairs(Page.self, from: Data(text.utf8)).repairs
        #expect(session.repairs.map(\.description) == viaFoundation.map(\.description))
    }
}

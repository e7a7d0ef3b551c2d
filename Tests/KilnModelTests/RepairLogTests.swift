import Foundation
import KilnModel
import Testing
import KilnSupport

@DataModel
struct Follower: Equatable, Sendable {
    var name = ""
    var followers: Int
}

@DataModel
struct FeedEntry: Equatable, Sendable {
    var id = 0
    var author: Follower
}

@Suite struct RepairLogTests {
    @Test func pathsNameTheExactPlaceInsideAnEnvelope() throws {
        let data = json(
            #"{"code": "0000", "data": [{"author": {"followers": 1}}, {"author": {"followers": 2}}, {"author": {"followers": 3}}, {"author": {"followers": "12k"}}]}"#
        )
        let (entries, repairs) = try JSONDecoder().decodeWithRepairs([FeedEntry].self, from: data, at: "data")
        #expect(entries.count == 4)
        #expect(entries[3].author.followers == 0)
        #expect(repairs.map(\.description).contains(#"data[3].author.followers: expected Int, found "12k" → 0"#))
    }

    @Test func policyCallbackReceivesEveryRepair() throws {
        let received = Received()
        var policy = DecodingPolicy()
        policy.onRepair = { received.append($0) }
        let entry = try JSONDecoder().decode(FeedEntry.self, from: json(#"{"id": "7", "author": null}"#), at: nil, policy: policy)
        #expect(entry.id == 7)
        #expect(received.values.map(\.path).sorted() == ["author", "id"])
    }

    @Test func nothingIsRecordedWithoutASession() throws {
        // Plain JSONDecoder, no session: tolerant all the same, and no log kept anywhere.
        let entry = try JSONDecoder().decode(FeedEntry.self, from: json(#"{"id": "7"}"#))
        #expect(entry.id == 7)
    }

    @Test func concurrentDecodesKeepTheirOwnLogs() async throws {
        let results = try await withThrowingTaskGroup(of: (Int, [Repair]).self) { group in
            for i in 0..<64 {
                group.addTask {
                    let data = json(#"{"id": "\#(i)", "author": {"followers": "x\#(i)"}}"#)
                    let (entry, repairs) = try JSONDecoder().decodeWithRepairs(FeedEntry.self, from: data)
                    return (entry.id, repairs)
                }
            }
            var all: [(Int, [Repair])] = []
            for try await result in group { all.append(result) }
            return all
        }
        #expect(results.count == 64)
        for (id, repairs) in results {
            #expect(repairs.count == 3, "id coerced, followers invalid, name missing")
            #expect(repairs.contains { $0.path == "author.followers" && $0.found == #""x\#(id)""# })
        }
    }

    @Test func aSessionCarriesPolicyAndLogThroughAnyDecoder() throws {
        let session = DecodingSession()
        let decoder = JSONDecoder()
        decoder.userInfo[.kilnDecodingSession] = session
        _ = try decoder.decode(FeedEntry.self, from: json(#"{"id": true}"#))
        #expect(session.repairs.map(\.path).contains("id"))
    }
}

final class Received: Sendable {
    private let stored = LockedValue([Repair]())
    func append(_ repair: Repair) { stored.withLock { $0.append(repair) } }
    var values: [Repair] { stored.current }
}

import Foundation
import KilnModel
import Testing
import KilnSupport

/// The repair log `KilnDecoder` keeps as compact values: each repair once, in order, equal to
/// Foundation's, readable and editable like any other.
@Suite struct CompactRepairLogTests {
    @DataModel
    struct Row: Equatable, Sendable {
        var id = 0
        var isTop = false
        var owner = Owner()
    }

    @DataModel
    struct Owner: Equatable, Sendable {
        var name = "--"
        var followers = 0
    }

    @DataModel
    struct Page: Equatable, Sendable {
        var rows: [Row] = []
        var counts: [Int] = []
        var rings: [[Double]] = []
    }

    /// A list with an element that is not an object is decoded once strictly, then again
    /// leniently: the first elements' repairs are met twice and logged once.
    @Test func aListDecodedAgainLogsEachRepairOnce() throws {
        let text = #"""
            {"rows": [{"id": "1", "is_top": 1, "owner": {"name": 5, "followers": "12k"}},
                      {"id": 2, "is_top": 0, "owner": null},
                      7,
                      {"id": "4", "owner": {"followers": "9"}}]}
            """#
        let (page, repairs) = try ModelIntentTests.decodeAllWays(Page.self, text)
        #expect(page.rows.map(\.id) == [1, 2, 4])
        #expect(Set(repairs).count == repairs.count, "\(repairs)")
        #expect(repairs.map(\.path).contains("rows[0].owner.followers"))
        #expect(repairs.contains { $0.path == "rows[2]" && $0.kind == .dropped }, "\(repairs)")
    }

    @DataModel
    struct Post: Equatable, Sendable {
        var score = 0
        var owner = Owner()
        var owners: [Owner] = []
        var rank = 0
    }

    @DataModel
    struct Feed: Equatable, Sendable {
        var posts: [Post] = []
    }

    /// A parent's repairs after its children's (`rank` after `owner`), a list of posts read
    /// again because one element is not an object, and a parent whose repairs are hundreds of
    /// entries apart: each repair is logged once, in the order Foundation's decode logs them.
    @Test(arguments: [1, 300])
    func repairsAroundNestedModelsAreLoggedOnce(owners: Int) throws {
        let list = Array(repeating: #"{"name": 5, "followers": "12k"}"#, count: owners).joined(separator: ", ")
        let text = """
            {"posts": [{"score": "x", "owner": {"name": 5, "followers": "12k"}, "owners": [\(list)], "rank": "y"},
                       {"score": "7", "owner": null, "rank": true},
                       9,
                       {"owner": {"followers": "3"}, "owners": [\(list)], "rank": [1]}]}
            """
        let (feed, repairs) = try ModelIntentTests.decodeAllWays(Feed.self, text)
        #expect(feed.posts.map(\.score) == [0, 7, 0])
        #expect(Set(repairs).count == repairs.count)
        #expect(repairs.filter { $0.path == "posts[0].rank" }.count == 1)
        #expect(repairs.filter { $0.path.hasPrefix("posts[0].owners[") }.count == 2 * owners)
        #expect(repairs.filter { $0.path.hasPrefix("posts[3].owners[") }.count == 2 * owners)
    }

    /// A property whose key and snake_case twin are both absent, null or unusable in every
    /// combination logs what Foundation's decode logs: the first unusable value, else the first
    /// null, else "missing".
    @Test(arguments: [
        #"{}"#, #"{"isTop": null}"#, #"{"is_top": null}"#, #"{"isTop": null, "is_top": null}"#,
        #"{"isTop": null, "is_top": "maybe"}"#, #"{"isTop": "maybe", "is_top": null}"#,
        #"{"isTop": [1], "is_top": "maybe"}"#, #"{"is_top": {"a": 1}}"#, #"{"isTop": null, "is_top": 1}"#,
    ])
    func aKeyAndItsTwinLogWhatFoundationLogs(text: String) throws {
        let (_, repairs) = try ModelIntentTests.decodeAllWays(Row.self, text)
        #expect(repairs.filter { $0.path == "isTop" || $0.path == "is_top" }.count <= 1, "\(repairs)")
    }

    /// `onRepair` hears each repair once too, the same ones the log keeps.
    @Test func onRepairHearsWhatTheLogKeeps() throws {
        let heard = Heard()
        var policy = DecodingPolicy()
        policy.onRepair = { heard.append($0) }
        let text = #"{"rows": [{"id": "1", "is_top": 1}, 3, {"id": "x"}]}"#
        let (_, repairs) = try KilnDecoder(policy: policy).decodeWithRepairs(Page.self, from: Data(text.utf8))
        #expect(heard.repairs == repairs)
        #expect(!repairs.isEmpty)
    }

    /// A repair's text is made when read and can be changed like a plain value's; copies and
    /// hashes agree with repairs made from text.
    @Test func aCompactRepairReadsAndChangesLikeAnyOther() throws {
        let text = #"{"rows": [{"id": "12", "owner": {"followers": "12k"}}]}"#
        let (_, repairs) = try KilnDecoder().decodeWithRepairs(Page.self, from: Data(text.utf8))
        let followers = try #require(repairs.first { $0.path == "rows[0].owner.followers" })
        #expect(followers.description == #"rows[0].owner.followers: expected Int, found "12k" → 0"#)
        let same = Repair(path: followers.path, kind: followers.kind, expected: "Int", found: #""12k""#, result: "0")
        #expect(followers == same)
        #expect(Set([followers, same]).count == 1)
        var moved = followers
        moved.path = "data." + moved.path
        #expect(moved.path == "data.rows[0].owner.followers")
        #expect(moved.found == #""12k""# && moved.expected == "Int" && moved.result == "0")
        #expect(followers.path == "rows[0].owner.followers")
    }

    /// Number lists read straight from the document keep Foundation's rules: integral doubles
    /// are integers, integers are doubles, anything else goes through the lenient rules.
    @Test(arguments: [
        #"{"counts": [1, 2.0, -3], "rings": [[1, 2.5], [], [-0.25, 1e3]]}"#,
        #"{"counts": [1, "2", null, 4.5], "rings": [[1, "x"], 7, [2, null]]}"#,
        #"{"counts": [], "rings": [[-65.613616999999977, 43.420273000000009]]}"#,
        #"{"counts": [9223372036854775807, 9223372036854775808], "rings": 3}"#,
    ])
    func numberListsFollowFoundation(text: String) throws {
        _ = try ModelIntentTests.decodeAllWays(Page.self, text)
    }

    /// `[[[Double]]]`, the GeoJSON shape, read straight from the document equals Foundation's.
    @Test func coordinatesEqualFoundations() throws {
        let text = #"{"type": "Polygon", "coordinates": [[[-65.6, 43.4], [-65.61, 43.41], [1, 2]], [[0, 0]]]}"#
        let data = Data(text.utf8)
        let kiln = try KilnDecoder().decode(Geometry.self, from: data)
        let foundation = try JSONDecoder().decode(Geometry.self, from: data)
        #expect(kiln == foundation)
        #expect(kiln.coordinates[0][2] == [1, 2])
    }

    struct Geometry: Decodable, Equatable {
        var type: String
        var coordinates: [[[Double]]]
    }

    final class Heard: Sendable {
        private let log = LockedValue([Repair]())
        func append(_ repair: Repair) { log.withLock { $0.append(repair) } }
        var repairs: [Repair] { log.current }
    }
}

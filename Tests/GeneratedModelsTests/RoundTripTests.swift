import Foundation
import KilnModel
import Testing

/// The committed models in `Generated/` are `kiln generate`'s output (see `GoldenTests`): here
/// they compile, decode their own samples without repairs, and encode back to the same values.
@Suite struct RoundTripTests {
    /// The sample's own keys come back, whichever decoder read it, and as request parameters.
    @Test(arguments: ["articles/page1.json", "articles/page2.json"], ModelReader.allCases)
    func articlesRoundTrip(_ file: String, through reader: ModelReader) throws {
        let data = try sampleData(file)
        let (articles, repairs) = try reader.decodeWithRepairs([Article].self, from: data, at: "data.list")
        #expect(repairs == [])
        let sample = try JSONDecoder().decode(JSONValue.self, from: data)[path: "data.list"]
        #expect(differences(sample: sample, model: try reencoded(articles)) == [])
        let parameters = try #require(articles.first).parameters()
        #expect(parameters["pub_date"] != nil && parameters["view_count"] != nil && parameters["author[nick_name]"] != nil)
        #expect(parameters.keys.allSatisfy { !$0.contains(where: \.isUppercase) })
    }

    @Test func articleValuesAreTyped() throws {
        let (articles, _) = try JSONDecoder().decodeWithRepairs([Article].self, from: try sampleData("articles/page1.json"), at: "data.list")
        let first = try #require(articles.first)
        #expect(first.id == 101)
        #expect(first.status == .published)
        #expect(articles[1].status == .draft)
        #expect(first.author.nickName == "Kai")
        #expect(first.author.avatarURL == URL(string: "https://img.example.com/u/7.png"))
        #expect(articles[1].coverURL == nil)
        #expect(first.score == 4.0 && articles[1].score == 3.5)
        #expect(first.pubDate == Date(timeIntervalSince1970: 1_476_057_600)) // 2016-10-10 UTC
        #expect(first.createdAt == Date(timeIntervalSince1970: 1_476_088_200)) // 2016-10-10T08:30:00Z
        #expect(first.comments.map(\.likes) == [3, 0])
    }

    @Test func unknownEnumValueFallsBack() throws {
        let data = Data(#"{"code": "0000", "data": {"list": [{"id": 1, "status": "archived"}]}}"#.utf8)
        let (articles, repairs) = try JSONDecoder().decodeWithRepairs([Article].self, from: data, at: "data.list")
        #expect(articles.first?.status == .unknown)
        #expect(repairs.contains { $0.kind == .fallback && $0.path == "data.list[0].status" })
    }

    @Test func messagesWithDefaultsDecodeNullsAsDefaults() throws {
        let data = try sampleData("messages.json")
        let (messages, repairs) = try JSONDecoder().decodeWithRepairs([Message].self, from: data, at: "data")
        // The sample's nulls and absent prices are the only repairs: every one a default.
        #expect(repairs.allSatisfy { $0.kind == .null || $0.kind == .missing })
        #expect(Set(repairs.map(\.path)) == ["data[1].sender.name", "data[1].content", "data[1].images", "data[1].price", "data[2].price"])
        #expect(messages.map(\.price) == ["12.00", "", ""])
        #expect(messages[1].images == [])
        let sample = try JSONDecoder().decode(JSONValue.self, from: data)[path: "data"]
        #expect(differences(sample: sample, model: try reencoded(messages), nullsBecomeDefaults: true) == [])
    }

    @Test(arguments: ["tickets/coupon.json", "tickets/discount.json", "tickets/exchange.json"])
    func ticketsRoundTrip(_ file: String) throws {
        let data = try sampleData(file)
        let (ticket, repairs) = try JSONDecoder().decodeWithRepairs(Ticket.self, from: data)
        #expect(repairs == [])
        #expect(differences(sample: try JSONDecoder().decode(JSONValue.self, from: data), model: try reencoded(ticket)) == [])
    }

    @Test func ticketClassesAreHashableByValue() throws {
        let data = try sampleData("tickets/exchange.json")
        let a = try JSONDecoder().decode(Ticket.self, from: data, at: nil)
        let b = try JSONDecoder().decode(Ticket.self, from: data, at: nil)
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a.rule?.text == "one per person")
        #expect(Set([a, b]).count == 1)
    }

    @Test(arguments: ["profiles/1.json", "profiles/2.json", "profiles/3.json"])
    func profilesWhereKeysComeAndGoRoundTrip(_ file: String) throws {
        let data = try sampleData(file)
        let (profile, repairs) = try JSONDecoder().decodeWithRepairs(Profile.self, from: data)
        // `extra` is seen as text and as a number: each sample's value keeps its kind.
        #expect(repairs == [])
        let sample = try JSONDecoder().decode(JSONValue.self, from: data)
        #expect(differences(sample: sample, model: try reencoded(profile)) == [])
    }

    @Test func profileKeysThatCollideStayApart() throws {
        let profile = try JSONDecoder().decode(Profile.self, from: try sampleData("profiles/1.json"), at: nil)
        #expect(profile.userName == "kai")
        #expect(profile.userName2 == "Kai")
        #expect(profile.id == "3f1c2a9e-5b7d-4e8f-9a01-23456789abcd") // lower-case: kept as text to round-trip
        #expect(profile.id2 == 1)
        #expect(profile.class == .admin && profile.default == true)
        #expect(profile.selfValue == URL(string: "https://api.example.com/users/1"))
        #expect(profile._2faEnabled == true)
        #expect(profile.updatedAt == Date(timeIntervalSince1970: 1_476_086_400.123))
        #expect(profile.lastLoginTime == Date(timeIntervalSince1970: 1_476_086_400))
        #expect(profile.matrix == [[1, 2], [3]])
        #expect(profile.aliases == ["k", nil])
        #expect(profile.extra == .string("x"))
        #expect(profile.data.first?.value == 1)
    }

    @Test func edgeCasesRoundTrip() throws {
        let data = try sampleData("edge-cases.json")
        let (cases, repairs) = try JSONDecoder().decodeWithRepairs([EdgeCase].self, from: data)
        // `v` is seen as a number, text and a boolean: each value keeps its kind.
        #expect(repairs == [])
        #expect(differences(sample: try JSONDecoder().decode(JSONValue.self, from: data), model: try reencoded(cases)) == [])
        #expect(cases.map(\.kind) == [.default, .inProgress, .default])
        #expect(cases.map(\.initValue) == ["a", "b", "c"] && cases.map(\.selfValue) == ["s", "t", "u"] && cases[0].type == "x")
        #expect(cases[0].item.item?.item?.leaf == true && cases[0].rows[1][0].extra == "e")
        #expect(cases.map(\.v) == [.int(1), .string("one"), .bool(true)] && cases[0].maybe == ["x", nil])
        #expect(cases[0].field == "12.00" && cases[2].tag == nil && cases[0].tags[0].weight == 1)
        #expect(cases[0].url.href == URL(string: "https://example.com/a"))
    }

    /// Values seen as several scalar kinds (`0` and `"0"` as ids, `false` in a list of text, a
    /// timestamp as a number and as text, `edited` as `false` or a number) keep each value's
    /// kind: no repair, every element of the mixed list, and each value written back as it came.
    @Test(arguments: ModelReader.allCases)
    func postsWithMixedScalarKindsRoundTripUnrepaired(through reader: ModelReader) throws {
        let data = try sampleData("posts.json")
        let (posts, repairs) = try reader.decodeWithRepairs([Post].self, from: data, at: nil)
        #expect(repairs == [])
        #expect(posts.map(\.id) == [.int(0), .string("0"), .int(7)])
        #expect(posts[0].labels == [.string("news"), .bool(false), .string("swift"), .string("ios")])
        #expect(posts.map(\.createdAt) == [.int(1_476_086_400), .string("1476086401"), .int(1_476_086_402)])
        #expect(posts.map(\.edited) == [.bool(false), .int(1_476_090_000), .bool(false)])
        #expect(posts.map(\.pinned) == [.bool(false), .int(1), .bool(true)])
        #expect(posts.map(\.score) == [.double(1.5), .string("2"), .int(3)])
        let sample = try JSONDecoder().decode(JSONValue.self, from: data)
        let written = try reencoded(posts)
        #expect(differences(sample: sample, model: written) == [])
        // The same kinds, not only values that coercion would call equal.
        for index in 0..<3 {
            for key in ["id", "labels", "created_at", "edited", "pinned", "score"] {
                #expect(written[index][key] == sample[index][key], "[\(index)].\(key)")
            }
        }
    }

    /// A comment listing whose replies hold another listing (or `""`): the recursion runs through
    /// nested records and a union, and the model decodes all three levels and writes them back.
    @Test(arguments: ModelReader.allCases)
    func aCommentTreeRoundTripsThroughItsIndirectUnion(through reader: ModelReader) throws {
        let data = try sampleData("thread.json")
        let (listing, repairs) = try reader.decodeWithRepairs(Listing.self, from: data, at: nil)
        #expect(repairs == [])
        let first = try #require(listing.data.children?.first)
        guard case .object(let replies) = first.data.replies, case .object(let deeper) = replies.data.children?.first?.data.replies else {
            Issue.record("replies are not listings: \(String(describing: first.data.replies))")
            return
        }
        #expect(deeper.data.children?.first?.data.body == "Deeper")
        #expect(deeper.data.children?.first?.data.replies == .string(""))
        #expect(listing.data.children?.last?.data.replies == .string(""))
        #expect(differences(sample: try JSONDecoder().decode(JSONValue.self, from: data), model: try reencoded(listing)) == [])
    }

    @Test
    func twitterRoundTrips() throws {
        let data = try sampleData(twitterPath)
        let (search, repairs) = try JSONDecoder().decodeWithRepairs(TwitterSearch.self, from: data)
        #expect(repairs.isEmpty, "\(repairs.count) repairs, first: \(repairs.prefix(5))")
        #expect(search.statuses.count == 100)
        let problems = differences(sample: try JSONDecoder().decode(JSONValue.self, from: data), model: try reencoded(search))
        #expect(problems == [], "\(problems.prefix(10))")
    }
}

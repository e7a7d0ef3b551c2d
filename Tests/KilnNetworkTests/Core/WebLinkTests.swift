import Foundation
@testable import KilnNetwork
import Testing

/// `Link` headers (RFC 8288) as servers send them, and as they sometimes break them.
@Suite("Link headers")
struct WebLinkTests {
    static let base = URL(string: "https://example.com/TheBook/chapter3")

    static func url(_ string: String) throws -> URL { try #require(URL(string: string)) }

    // MARK: RFC 8288, section 3.5

    @Test func rfcExampleWithATitle() throws {
        let links = WebLink.parse(#"<http://example.com/TheBook/chapter2>; rel="previous"; title="previous chapter""#)
        #expect(
            links == [WebLink(url: try Self.url("http://example.com/TheBook/chapter2"), relations: ["previous"], parameters: ["title": "previous chapter"])])
    }

    @Test func rfcExampleWithARelativeTargetAndAnExtensionRelation() throws {
        let links = WebLink.parse(#"</>; rel="http://example.net/foo""#, relativeTo: Self.base)
        #expect(links.map(\.url) == [try Self.url("https://example.com/")])
        #expect(links.first?.relations == ["http://example.net/foo"])
    }

    @Test func rfcExampleWithAnAnchor() throws {
        let links = WebLink.parse(##"</terms>; rel="copyright"; anchor="#foo""##, relativeTo: Self.base)
        #expect(links.first?.url == (try Self.url("https://example.com/terms")))
        #expect(links.first?.parameters["anchor"] == "#foo")
        // A link with an anchor is about another resource: `link(_:)` passes it over.
        let head = ResponseHead(status: 200, headers: ["Link": ##"</terms>; rel="copyright"; anchor="#foo""##], url: Self.base)
        #expect(head.link("copyright") == nil)
    }

    @Test func rfcExampleWithExtendedTitlesAndTwoLinks() throws {
        let header =
            "</TheBook/chapter2>; rel=\"previous\"; title*=UTF-8'de'letztes%20Kapitel, "
            + "</TheBook/chapter4>; rel=\"next\"; title*=UTF-8'de'n%c3%a4chstes%20Kapitel"
        let links = WebLink.parse(header, relativeTo: Self.base)
        #expect(links.map(\.url.absoluteString) == ["https://example.com/TheBook/chapter2", "https://example.com/TheBook/chapter4"])
        #expect(links.map(\.relations) == [["previous"], ["next"]])
        #expect(links.map { $0.parameters["title*"] } == ["letztes Kapitel", "nächstes Kapitel"])
    }

    @Test func rfcExampleWithTwoRelationsInOneValue() throws {
        let links = WebLink.parse(#"<http://example.org/>; rel="start http://example.net/relation/other""#)
        #expect(links.first?.relations == ["start", "http://example.net/relation/other"])
        #expect(links.first?.hasRelation("START") == true)
    }

    @Test func rfcExampleWithTwoLinks() throws {
        let links = WebLink.parse(#"<https://example.org/>; rel="start", <https://example.org/index>; rel="index""#)
        #expect(links.map(\.url.absoluteString) == ["https://example.org/", "https://example.org/index"])
        #expect(links.map(\.relations) == [["start"], ["index"]])
    }

    // MARK: Real APIs

    @Test func githubsHeader() throws {
        let header =
            #"<https://api.github.com/repositories/1300192/issues?page=2>; rel="prev", <https://api.github.com/repositories/1300192/issues?page=4>; rel="next", <https://api.github.com/repositories/1300192/issues?page=515>; rel="last", <https://api.github.com/repositories/1300192/issues?page=1>; rel="first""#
        let head = ResponseHead(status: 200, headers: ["link": header], url: try Self.url("https://api.github.com/repos/octocat/Spoon-Knife/issues?page=3"))
        #expect(head.links.count == 4)
        #expect(head.link("next")?.absoluteString == "https://api.github.com/repositories/1300192/issues?page=4")
        #expect(head.link("Last")?.absoluteString == "https://api.github.com/repositories/1300192/issues?page=515")
        #expect(head.link("prev")?.absoluteString == "https://api.github.com/repositories/1300192/issues?page=2")
        #expect(head.link("alternate") == nil)
    }

    @Test func mastodonsHeader() throws {
        let header =
            #"<https://mastodon.example/api/v1/accounts/1/followers?limit=2&max_id=7163058>; rel="next", <https://mastodon.example/api/v1/accounts/1/followers?limit=2&since_id=7675824>; rel="prev""#
        let head = ResponseHead(status: 200, headers: ["Link": header])
        #expect(head.link("next")?.absoluteString == "https://mastodon.example/api/v1/accounts/1/followers?limit=2&max_id=7163058")
    }

    // MARK: What the grammar allows

    @Test func separatorsInsideQuotesAndBracketsBelongToTheValue() throws {
        let header = #"<https://example.com/a?x=1,2;y=3>; title="one, two; three"; rel="next", <https://example.com/b>; rel=last"#
        let links = WebLink.parse(header)
        #expect(links.map(\.url.absoluteString) == ["https://example.com/a?x=1,2;y=3", "https://example.com/b"])
        #expect(links.first?.parameters["title"] == "one, two; three")
        #expect(links.map(\.relations) == [["next"], ["last"]])
    }

    @Test func tokenValuesSpacesAndUpperCaseNamesAreRead() throws {
        let header = "  <https://example.com/2>\t;REL = Next ;\tTitle=Two ;crossorigin ,<https://example.com/9>;rel=LAST  "
        let links = WebLink.parse(header)
        #expect(links.map(\.relations) == [["next"], ["last"]])
        #expect(links.first?.parameters == ["title": "Two", "crossorigin": ""])
    }

    @Test func escapesInQuotedValuesAreUndone() throws {
        let links = WebLink.parse(#"<https://example.com/>; rel="next"; title="say \"hi\", \\ bye""#)
        #expect(links.first?.parameters["title"] == #"say "hi", \ bye"#)
    }

    @Test func theFirstRelWinsAndRelIsNotAParameter() throws {
        let links = WebLink.parse(#"<https://example.com/>; rel="next"; rel="prev"; title="a"; title="b""#)
        #expect(links.first?.relations == ["next"])
        #expect(links.first?.parameters == ["title": "a"])
    }

    @Test func relativeTargetsResolveAgainstTheResponsesURL() throws {
        let head = ResponseHead(
            status: 200,
            headers: ["Link": #"<items?page=2>; rel="next", <?page=9>; rel="last", <//cdn.example.com/x>; rel="icon", <>; rel="self""#],
            url: try Self.url("https://api.example.com/v1/items?page=1")
        )
        #expect(head.link("next")?.absoluteString == "https://api.example.com/v1/items?page=2")
        #expect(head.link("last")?.absoluteString == "https://api.example.com/v1/items?page=9")
        #expect(head.link("icon")?.absoluteString == "https://cdn.example.com/x")
        #expect(head.link("self")?.absoluteString == "https://api.example.com/v1/items?page=1")
    }

    @Test func linesFoundationJoinedWithACommaReadAsOne() throws {
        // Two `Link` header lines arrive as one value joined by ", ".
        let head = ResponseHead(status: 200, headers: ["Link": #"</a>; rel="next", </b>; rel="help""#], url: Self.base)
        #expect(head.links.map(\.url.path) == ["/a", "/b"])
    }

    @Test func noHeaderNoLinks() {
        let head = ResponseHead(status: 200, headers: ["Content-Type": "application/json"])
        #expect(head.links.isEmpty)
        #expect(head.link("next") == nil)
        #expect(WebLink.parse("").isEmpty)
    }

    // MARK: Broken headers

    @Test(arguments: [
        ("garbage, <https://example.com/2>; rel=next", ["https://example.com/2"]),
        ("<https://example.com/1>; rel=next junk; title=x, <https://example.com/2>; rel=last", ["https://example.com/1", "https://example.com/2"]),
        (#"<https://example.com/1>; rel=next "stray", <https://example.com/2>; rel=last"#, ["https://example.com/1", "https://example.com/2"]),
        ("rel=next, <https://example.com/2>; rel=last", ["https://example.com/2"]),
        (";;;,,, ;", []),
        ("<https://example.com/1", []),
        (#"<https://example.com/1>; title="never closed, <https://example.com/2>; rel=next"#, ["https://example.com/1"]),
        ("<https://exa mple.com/1>; rel=next, <https://example.com/2>; rel=last", ["https://example.com/2"]),
        ("<https://example.com/1>; rel=, <https://example.com/2>; =x; rel", ["https://example.com/1", "https://example.com/2"]),
    ])
    func badPiecesAreSkipped(header: String, urls: [String]) {
        #expect(WebLink.parse(header).map(\.url.absoluteString) == urls)
    }

    @Test func anyStringParsesWithoutACrash() {
        // Deterministic noise from the characters the grammar cares about.
        let alphabet = Array(#"<>;,="\ '*relnxt:/?#%aé"#) + ["\t", "\r", "\n"]
        var state: UInt64 = 27
        for _ in 0..<5_000 {
            var text = ""
            for _ in 0..<Int(state % 40) {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                text.append(alphabet[Int((state >> 33) % UInt64(alphabet.count))])
            }
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            _ = WebLink.parse(text, relativeTo: Self.base)
        }
    }

    // MARK: Following a link

    @Test func followingSendsTheSameCallToTheLink() throws {
        let endpoint = Endpoint<[Int]>(
            method: .get, path: "/repos/apple/swift/issues", query: [URLQueryItem(name: "per_page", value: "2")],
            headers: ["Accept": "application/vnd.github+json"], timeout: 30, envelope: .codeMessageData
        ).sharingTransfer(false)
        let next = try Self.url("https://api.github.com/repositories/44838949/issues?per_page=2&page=2")
        let followed = endpoint.following(next)
        #expect(followed.method == .get)
        #expect(followed.path == next.absoluteString)
        #expect(followed.query.isEmpty)
        #expect(followed.headers == endpoint.headers)
        #expect(followed.timeout == 30)
        #expect(followed.envelope == .codeMessageData)
        #expect(!followed.sharesTransfer)

        let client = APIClient(baseURL: try Self.url("https://api.github.com/v3"))
        let request = try client.makeRequest(for: followed)
        #expect(request.url == next)
        #expect(request.value(forHTTPHeaderField: "Accept") == "application/vnd.github+json")
        #expect(request.timeoutInterval == 30)
    }

    @Test func anAbsolutePathIsUsedAsItIsWhateverTheCaseOfItsScheme() throws {
        let client = APIClient(baseURL: try Self.url("https://api.example.com/v1"))
        #expect(try client.resolve("HTTPS://other.example.com/items?page=2", query: []).host == "other.example.com")
        #expect(try client.resolve("Http://other.example.com/x", query: []).host == "other.example.com")
        #expect(try client.resolve("/items", query: []).absoluteString == "https://api.example.com/v1/items")
    }
}

import Foundation
import KilnCache
import KilnNetwork
import KilnNetworkCache
import Testing

struct ResponseCacheKeyTests {
    let cache = ResponseCache(MemoryCache())

    func key(_ method: HTTPMethod = .get, _ url: String, form: [URLQueryItem] = [], body: Data? = nil, in cache: ResponseCache? = nil) throws -> String {
        let request = CacheableRequest(method: method, url: try #require(URL(string: url)), formFields: form, body: body)
        return (cache ?? self.cache).key(for: request).rawValue
    }

    @Test func parametersAreSortedSoOrderDoesNotMatter() throws {
        let first = try key(.get, "https://api.example.com/feed?b=2&a=1&c=3")
        #expect(first == (try key(.get, "https://api.example.com/feed?c=3&a=1&b=2")))
        #expect(first == "GET https://api.example.com/feed?a=1&b=2&c=3")
    }

    @Test func defaultVolatileParametersAreLeftOut() throws {
        let key = try key(.get, "https://h/feed?page=2&timestamp=1&ts=2&nonce=x&sign=y&signature=z&_=9")
        #expect(key == "GET https://h/feed?page=2")
    }

    @Test func volatileParametersAreConfigurableAndCaseInsensitive() throws {
        let custom = ResponseCache(MemoryCache(), volatileParameters: ["token"])
        #expect(try key(.get, "https://h/a?Token=t&ts=1", in: custom) == "GET https://h/a?ts=1")
    }

    @Test func repeatedNamesAreKeptSortedAndFormFieldsTakePart() throws {
        let key = try key(.post, "https://h/s?tag=b&nonce=1&tag=a&flag", form: [URLQueryItem(name: "q", value: "x")])
        #expect(key == "POST https://h/s?flag&q=x&tag=a&tag=b")
    }

    @Test func separatorsInsideValuesCannotCollide() throws {
        #expect(try key(.get, "https://h/p?a=1%26b%3D2") != (try key(.get, "https://h/p?a=1&b=2")))
    }

    @Test func twoHostsNeverShareAKey() throws {
        #expect(try key(.get, "https://one.example.com/feed") != (try key(.get, "https://two.example.com/feed")))
        #expect(try key(.get, "http://h:8080/feed") != (try key(.get, "http://h:8081/feed")))
    }

    @Test func bodiesTakePartAsADigest() throws {
        let a = try key(.post, "https://h/search", body: Data(#"{"q":"a"}"#.utf8))
        let b = try key(.post, "https://h/search", body: Data(#"{"q":"b"}"#.utf8))
        #expect(a != b)
        #expect(a == (try key(.post, "https://h/search", body: Data(#"{"q":"a"}"#.utf8))))
    }

    @Test func aNamespaceKeepsAccountsApart() throws {
        let scoped = ResponseCache(MemoryCache(), namespace: "user-7")
        #expect(try key(.get, "https://h/feed", in: scoped) == "user-7|GET https://h/feed")
    }
}

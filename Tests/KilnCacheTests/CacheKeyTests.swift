import Foundation
import Testing
import KilnCache

struct CacheKeyTests {
    @Test func parametersAreSortedSoOrderDoesNotMatter() {
        let first = CacheKey(method: "GET", path: "/feed", parameters: ["b": "2", "a": "1", "c": "3"])
        let second = CacheKey(method: "GET", path: "/feed", parameters: ["c": "3", "a": "1", "b": "2"])
        #expect(first == second)
        #expect(first.rawValue == "GET /feed?a=1&b=2&c=3")
    }

    @Test func defaultVolatileParametersAreLeftOut() {
        let key = CacheKey(
            method: "get", path: "/feed",
            parameters: ["page": "2", "timestamp": "1", "ts": "2", "nonce": "x", "sign": "y", "signature": "z", "_": "9"]
        )
        #expect(key.rawValue == "GET /feed?page=2")
        #expect(key == CacheKey(method: "GET", path: "/feed", parameters: ["page": "2", "ts": "other"]))
    }

    @Test func volatileParametersAreConfigurableAndCaseInsensitive() {
        let key = CacheKey(method: "GET", path: "/a", parameters: ["Token": "t", "ts": "1"], volatileParameters: ["token"])
        #expect(key.rawValue == "GET /a?ts=1")
    }

    @Test func queryItemsKeepRepeatedNamesSorted() {
        let key = CacheKey(method: "GET", path: "/s", queryItems: [
            URLQueryItem(name: "tag", value: "b"), URLQueryItem(name: "nonce", value: "1"),
            URLQueryItem(name: "tag", value: "a"), URLQueryItem(name: "flag", value: nil),
        ])
        #expect(key.rawValue == "GET /s?flag&tag=a&tag=b")
    }

    @Test func separatorsInsideValuesCannotCollide() {
        let packed = CacheKey(method: "GET", path: "/p", parameters: ["a": "1&b=2"])
        let split = CacheKey(method: "GET", path: "/p", parameters: ["a": "1", "b": "2"])
        #expect(packed != split)
    }

    @Test func noParametersGiveMethodAndPath() {
        #expect(CacheKey(method: "post", path: "/x", parameters: [:]).rawValue == "POST /x")
        let literal: CacheKey = "plain"
        #expect(literal.rawValue == "plain")
    }
}

import Foundation
import KilnNetwork
import Testing

/// What a response's headers say about reusing it, read as RFC 9111 asks of a private cache.
@Suite("HTTP cache information")
struct HTTPCacheInfoTests {
    let now = Date(timeIntervalSince1970: 784_111_777) // Sun, 06 Nov 1994 08:49:37 GMT

    func info(_ headers: [String: String], request: [String: String] = [:]) -> HTTPCacheInfo? {
        HTTPCacheInfo(head: ResponseHead(status: 200, headers: headers), requestHeaders: request, responseTime: now)
    }

    @Test func noStoreAndVaryStarAreNeverStored() {
        #expect(info(["Cache-Control": "no-store"]) == nil)
        #expect(info(["cache-control": "private, NO-STORE"]) == nil)
        #expect(info(["Vary": "*"]) == nil)
        #expect(info(["Cache-Control": "no-cache"]) != nil)
    }

    @Test func maxAgeWinsOverExpires() throws {
        let stored = try #require(
            info(["Cache-Control": "public, max-age=60", "Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(stored.freshnessLifetime == 60)
        #expect(stored.isFresh(residentFor: 59))
        #expect(!stored.isFresh(residentFor: 60))
    }

    @Test func expiresCountsFromTheServersDate() throws {
        let stored = try #require(info(["Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(stored.freshnessLifetime == 3600)
        // An Expires that is not a date is already expired.
        #expect(info(["Expires": "0"])?.freshnessLifetime == 0)
    }

    @Test func everyHTTPDateFormIsRead() throws {
        for text in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
            let stored = try #require(info(["Expires": "Sun, 06 Nov 1994 09:49:37 GMT", "Date": text]), "\(text)")
            #expect(stored.freshnessLifetime == 3600, "\(text)")
        }
    }

    @Test func ageAndTheServersClockAddToTheInitialAge() throws {
        let stored = try #require(info(["Cache-Control": "max-age=100", "Age": "30", "Date": "Sun, 06 Nov 1994 08:49:27 GMT"]))
        #expect(stored.initialAge == 30)
        #expect(stored.currentAge(residentFor: 20) == 50)
        #expect(stored.isFresh(residentFor: 69))
        #expect(!stored.isFresh(residentFor: 70))
        let late = try #require(info(["Cache-Control": "max-age=100", "Date": "Sun, 06 Nov 1994 08:48:37 GMT"]))
        #expect(late.initialAge == 60)
    }

    @Test func lastModifiedAloneGivesAHeuristicTenthOfItsAge() throws {
        let stored = try #require(info(["Last-Modified": "Sun, 06 Nov 1994 07:49:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(stored.freshnessLifetime == 360)
        let ancient = try #require(info(["Last-Modified": "Sun, 06 Nov 1984 07:49:37 GMT"]))
        #expect(ancient.freshnessLifetime == HTTPCacheInfo.heuristicLimit)
        #expect(info([:])?.freshnessLifetime == 0)
    }

    @Test func directivesAreReadCaseInsensitivelyWithQuotedArguments() throws {
        let stored = try #require(info(["Cache-Control": #"Private="set-cookie, x", MAX-AGE="120", must-revalidate"#]))
        #expect(stored.freshnessLifetime == 120)
        #expect(stored.mustRevalidate)
        #expect(info(["Cache-Control": "max-age=abc"])?.freshnessLifetime == 0)
        #expect(info(["Cache-Control": "no-cache"])?.isFresh(residentFor: 0) == false)
    }

    @Test func validatorsBecomeConditionalHeaders() throws {
        let stored = try #require(info(["ETag": #"W/"abc""#, "Last-Modified": "Sun, 06 Nov 1994 07:49:37 GMT"]))
        #expect(stored.conditionalHeaders == ["If-None-Match": #"W/"abc""#, "If-Modified-Since": "Sun, 06 Nov 1994 07:49:37 GMT"])
        #expect(info([:])?.canRevalidate == false)
    }

    @Test func varyMatchesTheNamedRequestHeadersOnly() throws {
        let stored = try #require(info(["Vary": "Accept-Language, X-Absent"], request: ["accept-language": "en", "Authorization": "a"]))
        #expect(stored.matches(requestHeaders: ["Accept-Language": "en", "Authorization": "b"]))
        #expect(!stored.matches(requestHeaders: ["Accept-Language": "fr"]))
        #expect(!stored.matches(requestHeaders: ["Accept-Language": "en", "X-Absent": "1"]))
    }

    @Test func a304RenewsFreshnessAndKeepsWhatItLeavesOut() throws {
        let stored = try #require(info(["ETag": #""v1""#, "Cache-Control": "max-age=60", "Vary": "Accept"], request: ["Accept": "application/json"]))
        let plain = try #require(stored.updated(by: ResponseHead(status: 304, headers: [:]), requestHeaders: [:], responseTime: now))
        #expect(plain.etag == #""v1""#)
        #expect(plain.freshnessLifetime == 60)
        #expect(plain.vary == ["accept": "application/json"])
        let renewed = try #require(
            stored.updated(by: ResponseHead(status: 304, headers: ["ETag": #""v2""#, "Cache-Control": "max-age=10"]), requestHeaders: [:], responseTime: now))
        #expect(renewed.etag == #""v2""#)
        #expect(renewed.freshnessLifetime == 10)
        #expect(stored.updated(by: ResponseHead(status: 304, headers: ["Cache-Control": "no-store"]), requestHeaders: [:]) == nil)
    }
}

import Foundation
import Testing

@testable import KilnModel

/// Kiln reads RFC 3339 dates (`2011-04-22T13:33:48Z`) itself and leaves every other form to
/// Foundation's ISO 8601 parser: whatever it reads itself must be Foundation's date to the bit.
@Suite struct ISO8601DateTests {
    /// Seeded, so a failure names a text that fails again.
    struct Generator {
        var state: UInt64
        mutating func next(_ range: ClosedRange<Int>) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            z ^= z >> 31
            return range.lowerBound + Int(z % UInt64(range.count))
        }
    }

    static func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }

    /// Random dates of the form Kiln reads itself, each with a time zone (`Z` or an offset) and,
    /// where `zeros`, sometimes a fraction of zeros.
    static func texts(count: Int, zeros: Bool) -> [String] {
        var random = Generator(state: 0x0150_8601)
        return (0..<count).map { _ in
            let year = random.next(1583...9999)
            let month = random.next(1...12)
            let day = random.next(1...ISO8601Dates.daysIn(month: month, year: year))
            var text = "\(year)-\(two(month))-\(two(day))T\(two(random.next(0...23))):\(two(random.next(0...59))):\(two(random.next(0...59)))"
            if zeros, random.next(0...2) == 0 { text += "." + String(repeating: "0", count: random.next(1...9)) }
            if random.next(0...2) == 0 {
                text += "Z"
            } else {
                text += (random.next(0...1) == 0 ? "+" : "-") + two(random.next(0...14)) + ":" + two(random.next(0...59))
            }
            return text
        }
    }

    static func foundation(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    @Test func readsWhatFoundationReadsToTheBit() throws {
        for text in Self.texts(count: 20_000, zeros: true) {
            let kiln = try #require(ISO8601Dates.internetDate(text, zeroFraction: true), "\(text)")
            let foundation = try #require(Self.foundation(text), "\(text)")
            #expect(kiln.timeIntervalSinceReferenceDate.bitPattern == foundation.timeIntervalSinceReferenceDate.bitPattern, "\(text)")
        }
    }

    /// Leap days, the last day of each month, the ends of the range.
    @Test(arguments: [
        "2012-02-29T00:00:00Z", "2000-02-29T23:59:59Z", "1600-02-29T12:00:00Z", "2011-04-30T13:33:48Z", "2011-12-31T23:59:59-14:00",
        "1583-01-01T00:00:00Z", "9999-12-31T23:59:59+14:00", "1970-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2011-04-22T13:33:48.000Z",
    ])
    func edges(text: String) throws {
        let kiln = try #require(ISO8601Dates.internetDate(text, zeroFraction: true))
        #expect(kiln == Self.foundation(text))
    }

    /// Texts Kiln leaves to Foundation: whatever Foundation makes of them stays the answer.
    @Test(arguments: [
        "2011-02-29T13:33:48Z", "1900-02-29T00:00:00Z", "2011-04-31T13:33:48Z", "2011-13-22T13:33:48Z", "2011-04-22T24:00:00Z",
        "2011-04-22T23:59:60Z", "1582-10-10T00:00:00Z", "0001-01-01T00:00:00Z", "2011-04-22T13:33:48+0530", "2011-04-22T13:33:48+05",
        "2011-04-22T13:33:48+15:00", "2011-04-22T13:33:48+05:60", "2011-04-22T13:33:48Zjunk", "2011-04-22T13:33:48.250Z",
        "2011-04-22T13:33:48.0000000000Z", "2011-04-22T13:33:48.Z", "2011-04-22t13:33:48z", "2011-04-22 13:33:48Z", "2011-04-22T13:33:48",
        "2011-4-22T13:33:48Z", "2011-04-22T1:33:48Z", "+2011-04-22T13:33:48Z", "2011-04-22T13:33:48UTC", "２０11-04-22T13:33:48Z",
    ])
    func leftToFoundation(text: String) {
        #expect(ISO8601Dates.internetDate(text, zeroFraction: true) == nil)
        #expect(ISO8601Dates.date(from: text) == Self.foundation(text))
    }

    /// `KilnDecoder`'s `.iso8601` strategy gives `JSONDecoder`'s dates, and leaves fractions to
    /// Foundation even when they are zeros.
    @Test func strategyMatchesJSONDecoder() throws {
        var texts = Self.texts(count: 2_000, zeros: false)
        texts += ["2011-04-22T13:33:48.000Z", "2011-04-22T13:33:48+0530", "2011-04-31T13:33:48Z", "2011-04-22T24:00:00Z"]
        #expect(ISO8601Dates.internetDate("2011-04-22T13:33:48.000Z", zeroFraction: false) == nil)
        for text in texts {
            let data = Data(#"["\#(text)"]"#.utf8)
            let foundation = JSONDecoder()
            foundation.dateDecodingStrategy = .iso8601
            var kiln = KilnDecoder()
            kiln.dateDecodingStrategy = .iso8601
            let expected = try? foundation.decode([Date].self, from: data)
            let read = try? kiln.decode([Date].self, from: data)
            #expect(read?.map(\.timeIntervalSinceReferenceDate.bitPattern) == expected?.map(\.timeIntervalSinceReferenceDate.bitPattern), "\(text)")
        }
    }
}

import Foundation
import KilnModel
import Testing

/// Date formats people meet, as transforms: read the same through both decoders, written back
/// as read, and an unreadable value is a logged repair.
@Suite("Date transforms: RFC 2822, yyyy-MM-dd, micro- and nanoseconds")
struct DateFormatTransformTests {
    @DataModel
    struct Stamps: Equatable {
        @Transform(.rfc2822) var mailed: Date?
        @Transform(.yearMonthDay) var born: Date?
        @Transform(.unixMicroseconds) var micro: Date?
        @Transform(.unixNanoseconds) var nano: Date?
    }

    static let moment = Date(timeIntervalSince1970: 1_479_025_800)

    @Test func eachFormatReadsThroughBothDecodersAndWritesBackAsRead() throws {
        let json = #"{"mailed": "Sun, 13 Nov 2016 08:30:00 +0000", "born": "2016-11-13", "micro": 1479025800000000, "nano": "1479025800000000000"}"#
        let data = Data(json.utf8)
        let (viaFoundation, foundationRepairs) = try JSONDecoder().decodeWithRepairs(Stamps.self, from: data)
        let (viaKiln, kilnRepairs) = try KilnDecoder().decodeWithRepairs(Stamps.self, from: data)
        #expect(viaKiln == viaFoundation)
        #expect(kilnRepairs.isEmpty && foundationRepairs.isEmpty, "\(kilnRepairs)")
        #expect(viaKiln.mailed == Self.moment)
        #expect(viaKiln.born == Date(timeIntervalSince1970: 1_478_995_200))
        #expect(viaKiln.micro == Self.moment)
        #expect(viaKiln.nano == Self.moment)

        let written = try JSONValue(parsing: JSONEncoder().encode(viaKiln))
        #expect(written["mailed"] == "Sun, 13 Nov 2016 08:30:00 +0000")
        #expect(written["born"] == "2016-11-13")
        #expect(written["micro"] == 1_479_025_800_000_000)
        #expect(written["nano"] == 1_479_025_800_000_000_000)
    }

    @Test func unreadableValuesAreRepairsThroughBoth() throws {
        let data = Data(#"{"mailed": "13/11/2016", "born": "2016-02-30", "micro": "soon", "nano": true}"#.utf8)
        let (viaFoundation, foundationRepairs) = try JSONDecoder().decodeWithRepairs(Stamps.self, from: data)
        let (viaKiln, kilnRepairs) = try KilnDecoder().decodeWithRepairs(Stamps.self, from: data)
        #expect(viaKiln == Stamps() && viaFoundation == Stamps())
        #expect(kilnRepairs.map(\.description) == foundationRepairs.map(\.description))
        #expect(kilnRepairs.map(\.path) == ["mailed", "born", "micro", "nano"], "\(kilnRepairs)")
    }
}

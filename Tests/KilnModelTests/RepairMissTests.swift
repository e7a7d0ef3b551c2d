@testable import KilnModel
import Testing

/// The one rule for which repair a property with no usable value reports.
@Suite struct RepairMissTests {
    @Test func nothingSeenIsMissingAtTheFirstKey() {
        let miss = Repair.Miss<String>()
        #expect(miss.verdict(absent: "a") == (.missing, "a"))
    }

    @Test func aNullBeatsAnAbsence() {
        var miss = Repair.Miss<String>()
        miss.sawNull("b")
        miss.sawNull("c")
        #expect(miss.verdict(absent: "a") == (.null, "b"))
        #expect(!miss.isSettled)
    }

    @Test func anUnusableValueBeatsANullWhereverItWas() {
        var miss = Repair.Miss<String>()
        miss.sawNull("a")
        miss.sawUnusable("b")
        miss.sawUnusable("c")
        #expect(miss.isSettled)
        #expect(miss.verdict(absent: "a") == (.invalid, "b"))
    }
}

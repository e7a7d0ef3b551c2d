import Foundation
import KilnModel
import Testing

/// Dictionaries with non-`String` keys are lossy like `[String: V]`: a bad entry is dropped, the
/// rest kept, through both decoders with the same repairs.
@Suite("Lossy dictionaries with any key")
struct LossyDictionaryTests {
    @DataModel
    struct Scores {
        var byID: [Int: String] = [:]
        var byName: [String: Int] = [:]
    }

    @Test func aBadEntryIsDroppedAndTheRestKept() throws {
        let data = Data(#"{"byID": {"1": "a", "2": null, "3": 5, "x": "not an int key"}, "byName": {"a": 1, "b": "two", "c": "3"}}"#.utf8)
        let (viaFoundation, foundationRepairs) = try JSONDecoder().decodeWithRepairs(Scores.self, from: data)
        let (viaKiln, kilnRepairs) = try KilnDecoder().decodeWithRepairs(Scores.self, from: data)
        #expect(viaKiln.byID == [1: "a", 3: "5"])
        #expect(viaKiln.byName == ["a": 1, "c": 3])
        #expect(viaFoundation.byID == viaKiln.byID && viaFoundation.byName == viaKiln.byName)
        #expect(Set(kilnRepairs.map(\.description)) == Set(foundationRepairs.map(\.description)))
        #expect(Set(kilnRepairs.map(\.path)) == ["byID.2", "byID.3", "byID.x", "byName.b", "byName.c"], "\(kilnRepairs)")
    }

    /// (Of values that are not numbers: a collection of numbers at the root is read exactly, as
    /// `JSONDecoder` reads it.)
    @Test func aLossyRootDictionaryWithIntegerKeys() throws {
        let data = Data(#"{"10": "a", "11": null, "12": 2, "x": "b"}"#.utf8)
        let (value, repairs) = try KilnDecoder().decodeWithRepairs([Int: String].self, from: data)
        #expect(value == [10: "a", 12: "2"])
        #expect(repairs.map(\.path) == ["11", "12", "x"])
        #expect(throws: ModelDecodingError.self) { try KilnDecoder().decode([Int: Double].self, from: #"{"10": 1.5, "11": "n/a"}"#) }
    }
}

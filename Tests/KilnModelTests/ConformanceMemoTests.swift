import Foundation
import Testing

@testable import KilnModel

/// A decode remembers which types conform to the protocols it asks about (`FallbackEnum`,
/// models with a fast path) in a small table: whatever the order of the questions and however
/// many types share a slot, its answers are the runtime's.
@Suite struct ConformanceMemoTests {
    enum Plain: String, Codable { case a, b }
    enum PlainNumber: Int, Codable { case one = 1 }
    enum Fallback: String, FallbackEnum {
        case a, other
        static let fallback = Fallback.other
    }
    enum FallbackNumber: Int, FallbackEnum {
        case one = 1, other = 0
        static let fallback = FallbackNumber.other
    }
    enum ThirdFallback: String, FallbackEnum {
        case x, other
        static let fallback = ThirdFallback.other
    }
    struct Box<T> {}

    static let types: [Any.Type] = [
        Int.self, String.self, Double.self, Bool.self, Float.self, Int8.self, Int16.self, Int32.self, Int64.self,
        UInt.self, UInt8.self, UInt16.self, UInt32.self, UInt64.self, [Int].self, [String].self, [Double].self,
        [String: Int].self, Set<Int>.self, Int?.self, String?.self, Date.self, URL.self, UUID.self, Data.self,
        Decimal.self, JSONValue.self, Plain.self, PlainNumber.self, Fallback.self, FallbackNumber.self,
        ThirdFallback.self, Fallback?.self, [Fallback].self, Box<Int>.self, Box<String>.self, Box<Plain>.self,
        Box<Fallback>.self, Box<Box<Int>>.self, (Int, Int).self,
    ]

    /// The list holds types that share a slot, so that answers replace one another.
    @Test func typesShareSlots() {
        let slots = Self.types.map { ConformanceMemo<Bool>.slot(of: ObjectIdentifier($0)) }
        #expect(Set(slots).count < slots.count)
        #expect(slots.allSatisfy { (0..<(1 << ConformanceMemo<Bool>.slotBits)).contains($0) })
    }

    @Test func answersAreTheCastsInAnyOrder() {
        var memo = ConformanceMemo<Bool>()
        var state: UInt64 = 0x5EED
        var remembered = 0
        for _ in 0..<20_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            // Runs of one type, as the values of one property come, and jumps between types.
            let type = Self.types[Int(state >> 33) % (state >> 62 == 0 ? 4 : Self.types.count)]
            let expected = type is any FallbackEnum.Type
            if let known = memo.remembered(type) {
                remembered += 1
                #expect(known == expected, "\(type)")
            } else {
                #expect(memo.remember(type) { $0 is any FallbackEnum.Type } == expected, "\(type)")
            }
        }
        #expect(remembered > 10_000)
    }

    /// The answer kept is the type's own, not only whether there is one: the model type asked
    /// for is the one the answer reads.
    @Test func answersThatAreValuesStayTheTypes() {
        var memo = ConformanceMemo<Any.Type?>()
        for round in 0..<3 {
            for type in Self.types {
                let answer = memo.remembered(type) ?? memo.remember(type) { $0 }
                #expect(answer.map(ObjectIdentifier.init) == ObjectIdentifier(type), "round \(round): \(type)")
            }
        }
    }
}

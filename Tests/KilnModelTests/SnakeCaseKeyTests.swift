import Foundation
import Testing

@testable import KilnModel

/// `.convertFromSnakeCase` converts a key of ASCII letters byte by byte: the same key as
/// Foundation's rule, written with `lowercased()` and `capitalized`, for every such key.
@Suite struct SnakeCaseKeyTests {
    @Test func asciiKeysConvertAsFoundationsRuleDoes() {
        var state: UInt64 = 0x5AA4_E000_CA5E
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((state >> 33) % UInt64(bound))
        }
        let alphabet = Array("abcxyzABCXYZ___".utf8)
        var converted = 0
        for _ in 0..<20_000 {
            let key = String(decoding: (0..<next(12)).map { _ in alphabet[next(alphabet.count)] }, as: UTF8.self)
            #expect(SnakeCaseKeys.camelCased(key) == SnakeCaseKeys.foundationCamelCased(key), "\(key)")
            var copy = key
            if case .some(.some) = copy.withUTF8({ SnakeCaseKeys.asciiCamelCased($0) }) { converted += 1 }
        }
        #expect(converted > 5_000)
    }

    @Test(arguments: [
        ("user_id", "userId"), ("user_ID", "userId"), ("HTML_URL", "htmlUrl"), ("a__b", "aB"), ("_leading_key_", "_leadingKey_"),
        ("__", "__"), ("", ""), ("plain", "plain"), ("ALLCAPS", "ALLCAPS"), ("_private", "_private"),
    ])
    func examples(key: String, expected: String) {
        #expect(SnakeCaseKeys.camelCased(key) == expected)
        #expect(SnakeCaseKeys.foundationCamelCased(key) == expected)
    }

    /// Keys with digits or text beyond ASCII take Foundation's rule whole.
    @Test(arguments: ["html5_url", "x_2fa", "naïve_key", "a-b_c", "user_id_ß"])
    func otherKeysTakeFoundationsRule(key: String) {
        var copy = key
        #expect(copy.withUTF8 { SnakeCaseKeys.asciiCamelCased($0) } == nil)
        #expect(SnakeCaseKeys.camelCased(key) == SnakeCaseKeys.foundationCamelCased(key))
    }
}

import Foundation
import KilnModel
import Testing

/// `@DataModel`'s generated `init(kiln:)` must read exactly what its `init(from:)` reads.
@Suite struct MacroFastPathTests {
    let messy = Data(
        #"""
        {"data": [
          {"id": "7", "title": null, "desc": 5, "pub_date": "20161010", "author": {"userID": "3", "nick_name": null, "followers": "12k"},
           "tags": ["a", 2, {}], "score": "4.5", "isTop": "yes", "coverURL": "x", "status": "archived", "isExpanded": true},
          {"id": 8, "author": "nobody", "tags": null, "status": "published"},
          7
        ]}
        """#.utf8)

    @Test func generatedFastPathMatchesTheDecoderPath() throws {
        var policy = DecodingPolicy()
        policy.setDefault("--", for: String.self)
        let viaFoundation = try JSONDecoder().decodeWithRepairs([Article].self, from: messy, at: "data", policy: policy)
        let viaKiln = try KilnDecoder(policy: policy).decodeWithRepairs([Article].self, from: messy, at: "data")
        #expect(viaKiln.value == viaFoundation.value)
        #expect(viaKiln.value.count == 2)
        #expect(Set(viaKiln.repairs) == Set(viaFoundation.repairs))
        #expect(viaKiln.repairs.count == viaFoundation.repairs.count)
        #expect(viaKiln.value[0].author.followers == 0 && viaKiln.value[0].status == .unknown)
    }

    @Test func dataModelsAreFastDecodable() {
        #expect((Article.self as Any.Type) is any KilnFastDecodable.Type)
        #expect((Author.self as Any.Type) is any KilnFastDecodable.Type)
    }
}

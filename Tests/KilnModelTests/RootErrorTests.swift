import Foundation
import KilnModel
import Testing

/// Bytes that are valid JSON but whose root value a type refuses fail with the same error
/// through both decoders, and never as invalid JSON.
@Suite("Root-level errors")
struct RootErrorTests {
    enum Plain: String, Codable { case a, b }

    @Test(arguments: [#""zzz""#, #"5"#, #"null"#, #"[1]"#])
    func aRootValueTheTypeRefusesIsTheSameErrorThroughBoth(json: String) {
        let data = Data(json.utf8)
        let foundation = Result { () throws(ModelDecodingError) in try JSONDecoder().decodeWithRepairs(Plain.self, from: data).value }
        let kiln = Result { () throws(ModelDecodingError) in try KilnDecoder().decodeWithRepairs(Plain.self, from: data).value }
        guard case .failure(let viaFoundation) = foundation, case .failure(let viaKiln) = kiln else {
            Issue.record("expected both to fail: \(foundation), \(kiln)")
            return
        }
        #expect(viaFoundation == viaKiln, "\(json)")
        if case .invalidJSON = viaFoundation { Issue.record("\(json) is valid JSON: \(viaFoundation)") }
    }

    @Test func invalidBytesAreStillInvalidJSONThroughBoth() {
        let data = Data(#"{"a": tru}"#.utf8)
        let foundation = Result { () throws(ModelDecodingError) in try JSONDecoder().decodeWithRepairs(Plain.self, from: data).value }
        let kiln = Result { () throws(ModelDecodingError) in try KilnDecoder().decodeWithRepairs(Plain.self, from: data).value }
        guard case .failure(.invalidJSON) = foundation, case .failure(.invalidJSON) = kiln else {
            Issue.record("expected invalidJSON through both: \(foundation), \(kiln)")
            return
        }
    }
}

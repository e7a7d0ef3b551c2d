import Foundation
import KilnModel
@testable import KilnNetwork
import Testing

@Suite("Envelope")
struct EnvelopeTests {
    @Test(arguments: [JSONValue.string("0000"), .int(0), .string("0"), .double(0)])
    func successCodeComparesTolerantly(code: JSONValue) {
        let body: JSONValue = ["code": code, "msg": "ok", "data": 1]
        #expect(Envelope.codeMessageData.verdict(for: body) == .success)
    }

    @Test func numericSuccessCodesMatchStrings() {
        let envelope = Envelope(successCodes: ["200"])
        #expect(envelope.verdict(for: ["code": 200]) == .success)
        #expect(envelope.verdict(for: ["code": "200"]) == .success)
        #expect(envelope.verdict(for: ["code": 201, "msg": "no"]) == .failure(code: "201", message: "no"))
    }

    /// Codes compare as the model layer reads them: the same integer by its integer rule
    /// (spaces and tabs around it, leading zeros, a sign, an integral fraction) is the same code.
    @Test(arguments: [JSONValue.string(" 0 "), .string("\t00"), .string("+0"), .string("0.0"), .double(-0.0)])
    func paddedAndSpelledOutZerosAreTheSuccessCode(code: JSONValue) {
        #expect(Envelope.codeMessageData.verdict(for: ["code": code]) == .success)
    }

    /// The code a failure carries is the text a `String` property would read from it.
    @Test func failureCodeIsWhatAStringPropertyReads() {
        #expect(Envelope.codeMessageData.verdict(for: ["code": 201.0, "msg": 7]) == .failure(code: "201", message: "7"))
        #expect(Envelope.codeMessageData.verdict(for: ["code": true]) == .failure(code: "true", message: ""))
        #expect(Envelope.codeMessageData.verdict(for: ["code": 0.5]) == .failure(code: "0.5", message: ""))
        #expect(Envelope.codeMessageData.verdict(for: ["code": nil]) == .missingCode(path: "code"))
        #expect(String.coerce(from: 201.0, truncating: false) == "201")
    }

    @Test func failureCarriesCodeAndMessage() {
        #expect(Envelope.codeMessageData.verdict(for: ["code": "1001", "msg": "Token expired"]) == .failure(code: "1001", message: "Token expired"))
    }

    @Test func customKeyPaths() {
        let envelope = Envelope(codePath: "status.code", messagePath: "status.text", dataPath: "result", successCodes: ["OK"])
        #expect(envelope.verdict(for: ["status": ["code": "OK"]]) == .success)
        #expect(envelope.verdict(for: ["status": ["code": "E1", "text": "bad"]]) == .failure(code: "E1", message: "bad"))
        #expect(envelope.verdict(for: ["result": 1]) == .missingCode(path: "status.code"))
    }

    @Test func noneAcceptsAnything() {
        #expect(Envelope.none.verdict(for: ["whatever": true]) == .success)
        #expect(Envelope.none.dataPath == nil)
    }

    /// Paths walk as every key path of the library walks (`JSONTape.locate`): indices in
    /// brackets, `list.0` is the key "0" (so, as the data path already did, it finds no element),
    /// and nothing is inside a scalar or a `null`.
    @Test func lookupWalksByTheDocumentsOneRule() throws {
        let document = try JSONDocument(parsing: #"{"data": {"list": [{"id": 7}], "gone": null, "n": 1, "o": {"0": "key"}}}"#)
        #expect(Envelope.lookup("data.list[0].id", in: document) == 7)
        #expect(Envelope.lookup("data.list.0.id", in: document) == nil)
        #expect(Envelope.lookup("data.o.0", in: document) == "key")
        #expect(Envelope.lookup("data.nope", in: document) == nil)
        #expect(Envelope.lookup("data.gone", in: document) == .null)
        #expect(Envelope.lookup("data.gone.code", in: document) == nil)
        #expect(Envelope.lookup("data.n.code", in: document) == nil)
        #expect(Envelope.lookup("data.n[0]", in: document) == nil)
        #expect(Envelope.lookup("data.o[0]", in: document) == nil)
        #expect(Envelope.lookup("data.list[1]", in: document) == nil)
        #expect(Envelope(codePath: "data.list.0.id").verdict(for: document) == .missingCode(path: "data.list.0.id"))
        #expect(Envelope(codePath: "data.list[0].id", successCodes: ["7"]).verdict(for: document) == .success)
    }
}

extension Envelope {
    /// The verdict on a body written as a `JSONValue`, read as the client reads bodies.
    func verdict(for body: JSONValue) -> Verdict {
        guard let document = try? JSONDocument(parsing: body.jsonText) else {
            Issue.record("not JSON: \(body)")
            return .missingCode(path: "")
        }
        return verdict(for: document)
    }
}

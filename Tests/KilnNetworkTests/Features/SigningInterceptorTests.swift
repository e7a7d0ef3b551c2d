import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

@Suite("SigningInterceptor")
struct SigningInterceptorTests {
    @Test func signsTheFinalRequestOnEveryAttempt() async throws {
        try await withFixtureServer { server in
            // The server accepts a request only when the signature matches what it received.
            server.route(.post, "/orders", sequence: [.status(503), .envelope(data: "ok")])
            let recorder = SleepRecorder()
            let client = APIClient(
                baseURL: server.baseURL,
                envelope: .codeMessageData,
                interceptors: [
                    CommonParametersInterceptor(["service_code": "shop"]),
                    RetryInterceptor(),
                    SigningInterceptor { request in
                        var request = request
                        let message = (request.url?.query ?? "") + String(decoding: request.httpBody ?? Data(), as: UTF8.self)
                        request.setValue(SHA256Digest.hex(of: Data(message.utf8)), forHTTPHeaderField: "X-Signature")
                        return request
                    },
                ],
                sleep: recorder.sleep
            )
            let value = try await client.send(Endpoint<String>.post("/orders", body: .form([("item", "42")])).retrySafe(true))
            #expect(value == "ok")
            let requests = server.requests(to: "/orders")
            #expect(requests.count == 2)
            for request in requests {
                let expected = SHA256Digest.hex(of: Data(String(decoding: request.body, as: UTF8.self).utf8))
                #expect(request.header("X-Signature") == expected)
                #expect(request.parameter("service_code") == "shop")
            }
        }
    }
}

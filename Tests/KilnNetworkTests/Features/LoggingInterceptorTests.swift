import Foundation
import KilnModel
import KilnNetwork
import KilnTesting
import Logging
import Testing
import KilnSupport

@Suite("LoggingInterceptor")
struct LoggingInterceptorTests {
    @Test func logsMethodPathStatusAndDurationWithoutSecrets() async throws {
        try await withFixtureServer { server in
            server.route(.get, "/messages", .envelope(data: messagesFixture))
            server.route(.get, "/gone", .status(410))
            let lines = Recorder<String>()
            var logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
            logger.logLevel = .trace
            let client = APIClient(
                baseURL: server.baseURL, envelope: .codeMessageData,
                interceptors: [
                    CommonParametersInterceptor(["token": "s3cret", "service_code": "blog"]),
                    LoggingInterceptor(logger: logger),
                ])
            _ = try await client.send(Endpoint<MessagePage>(method: .get, path: "/messages", headers: ["Authorization": "Bearer s3cret"]))
            _ = await failure { try await client.send(Endpoint<Int>.get("/gone")) }

            let text = lines.entries.joined(separator: "\n")
            #expect(!text.contains("s3cret"))
            #expect(text.contains("GET /messages?"))
            #expect(text.contains("token=<redacted>"))
            #expect(text.contains("service_code=blog"))
            #expect(text.contains("Authorization: <redacted>"))
            #expect(text.contains("→ 200 in "))
            #expect(text.contains("GET /gone"))
            #expect(text.contains("→ 410 in "))
        }
    }
}

struct CapturingLogHandler: LogHandler {
    let lines: Recorder<String>
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        lines.append("\(event.level): \(event.message)")
    }
}

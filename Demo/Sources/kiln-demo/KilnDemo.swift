import ArgumentParser
import Foundation
import Kiln

/// `swift run kiln-demo`: every seed scenario, for real, against a fixture server on loopback.
@main
struct KilnDemo: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiln-demo",
        abstract: "Kiln's showcase: blog list, article, cached messages, three requests, tickets, transfers and repairs, against a live fixture server.",
        discussion: """
            At a terminal it is interactive (Tab between screens, arrows or j/k, Enter, n next page, \
            r refresh, q quit). Otherwise, or with --script, it walks every screen, checks what it \
            shows, and exits 0 only if every check passed.
            """
    )

    @Option(help: "Latency the server adds to every response, in milliseconds.")
    var latency = 0

    @Option(name: .customLong("fail-rate"), help: "Share of requests (0...1) the server fails with 503; the client retries them.")
    var failRate = 0.0

    @Flag(help: "Run with no network: cached data stays on screen and the offline state shows.")
    var offline = false

    @Option(help: "Port for the fixture server (0 picks a free one).")
    var port: UInt16 = 0

    @Option(help: "Seed for the generated data and injected failures.")
    var seed: UInt64 = 2016

    @Flag(help: "Walk every screen without a keyboard and print what each shows.")
    var script = false

    func validate() throws {
        guard (0...1).contains(failRate) else { throw ValidationError("--fail-rate takes a number from 0 to 1") }
        guard latency >= 0 else { throw ValidationError("--latency takes milliseconds, 0 or more") }
    }

    func run() async throws {
        let options = DemoOptions(latency: latency, failRate: failRate, offline: offline, port: port, seed: seed, script: script || !Terminal.isInteractive)
        let succeeded = try await Self.main(options)
        if !succeeded { throw ExitCode(1) }
    }

    @MainActor
    static func main(_ options: DemoOptions) async throws -> Bool {
        let app = try await DemoApp.launch(options)
        let succeeded: Bool
        if options.script {
            succeeded = await ScriptedWalk(app: app).run()
        } else {
            await InteractiveSession(app: app).run()
            succeeded = true
        }
        await app.shutdown()
        return succeeded
    }
}

import Foundation
import Testing

/// Runs the real `kiln-demo` binary, as a newcomer would, and reads what it prints.
@Suite(.serialized) struct ScriptedDemoTests {
    /// `kiln-demo` beside the running test bundle, where `swift build` puts products.
    static let executable: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("kiln-demo")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let executable = try #require(Self.executable, "kiln-demo should be built next to the tests")
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }

    @Test func scriptedWalkShowsEveryScreenAndPasses() throws {
        let (status, output) = try run(["--script"])
        #expect(status == 0, "\(output)")
        for screen in ["1/9 Blog", "2/9 Article", "3/9 Messages", "4/9 Requests", "5/9 Tickets", "6/9 Transfers", "7/9 Issues", "8/9 Live", "9/9 Repairs"] {
            #expect(output.contains("── \(screen)"), "missing screen \(screen)")
        }
        // Cache, then network, in that order.
        let cached = try #require(output.range(of: "cache ("))
        let fresh = try #require(output.range(of: "network · 8 messages"))
        #expect(cached.lowerBound < fresh.lowerBound)
        #expect(output.contains("[##############################] 100%"), "progress bars reach 100%")
        #expect(output.contains("matches the server's"))
        #expect(output.contains(#"view_count: expected Int, found "1.2k" → 0"#), "repair lines with their paths")
        #expect(output.contains("skipped: data.list[3]"), "the unknown ticket kind is reported")
        #expect(output.contains("the server says: 余额不足"), "a server refusal shows the server's message")
        #expect(output.contains("25 issues, 3 pages · end of list (no rel=\"next\" link)"), "the Link-paged list ends where the links end")
        #expect(output.contains("#4 someone joined the Swift room"), "live events arrive, each repaired on its own")
        #expect(output.contains("stream ended"), "the live stream ends when the server says so")
        #expect(output.contains("0 failed"))
    }

    @Test func offlineKeepsTheCachedListAndSaysSo() throws {
        let (status, output) = try run(["--script", "--offline"])
        #expect(status == 0, "\(output)")
        #expect(output.contains("Showing the cached list, 2 h old"))
        #expect(output.contains("you are offline"))
        #expect(output.contains("the cached list stays"))
    }

    @Test func badFlagsAreRefusedWithAMessage() throws {
        let (status, output) = try run(["--fail-rate", "2"])
        #expect(status != 0)
        #expect(output.contains("--fail-rate takes a number from 0 to 1"))
    }
}

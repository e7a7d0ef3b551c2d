import Foundation
import Testing

/// Runs the `kiln` executable built beside the test bundle (when it was built) and checks what a
/// user sees: exit codes, one-line errors, and output equal to the library's.
@Suite(.enabled(if: KilnProcess.executable != nil, "the kiln executable is not built beside the tests"))
struct CommandLineTests {
    @Test func generateMatchesTheCommittedFixture() throws {
        let fixture = try #require(GeneratorFixture.all.first { $0.name == "Article" })
        let result = try KilnProcess.run(["generate", "--name", "Article", "--at", "data.list", "--enums", "--equatable", "Tests/Fixtures/Samples/articles"])
        #expect(result.status == 0 && result.error == "")
        #expect(result.output == (try fixture.generate()))
    }

    @Test func standardInputAndOutputFile() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-\(UUID().uuidString).swift")
        defer { try? FileManager.default.removeItem(at: output) }
        let result = try KilnProcess.run(["generate", "-n", "Item", "--no-header", "-", "-o", output.path], input: #"{"id": 1}"#)
        #expect(result.status == 0 && result.output == "")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("struct Item: Sendable {\n    var id: Int\n}"))
    }

    @Test(arguments: [
        ("{\"a\": [1 2]}", "kiln: stdin:1:10: not JSON: unexpected '2'; expected ',' or ']'\n"),
        ("", "kiln: stdin: empty input; a sample must be a JSON object or an array of objects\n"),
    ])
    func badInputIsOneLineAndFails(input: String, message: String) throws {
        for command in ["generate", "inspect"] {
            let arguments = command == "generate" ? ["generate", "-n", "A", "-"] : ["inspect", "-"]
            let result = try KilnProcess.run(arguments, input: input)
            #expect(result.status != 0)
            #expect(result.error == message)
            #expect(result.output == "")
        }
    }

    @Test func missingFileIsOneLineAndFails() throws {
        let result = try KilnProcess.run(["generate", "-n", "A", "no-such-sample.json"])
        #expect(result.status != 0 && result.error == "kiln: no-such-sample.json: no such file\n")
    }

    @Test func inspectPrintsTheTable() throws {
        let result = try KilnProcess.run(["inspect", "--at", "data", "Tests/Fixtures/Samples/messages.json"])
        #expect(result.status == 0)
        #expect(result.output.hasPrefix("1 sample, 3 records at data\npath "))
        #expect(result.output.contains("\nprice "))
    }
}

enum KilnProcess {
    /// The `kiln-cli` product in the directory of the running test bundle, as `swift build` lays
    /// products out.
    static let executable: URL? = {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent("kiln-cli")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }()

    struct Result {
        var status: Int32
        var output: String
        var error: String
    }

    static func run(_ arguments: [String], input: String = "") throws -> Result {
        guard let executable else { throw CancellationError() }
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.currentDirectoryURL = GeneratorFixture.repositoryRoot
        let stdin = Pipe(), stdout = Pipe(), stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        let error = stderr.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self), error: String(decoding: error, as: UTF8.self))
    }
}

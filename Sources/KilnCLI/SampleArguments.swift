import ArgumentParser
import Foundation
import KilnGenerator
import KilnModel

/// The samples both subcommands read, and where inside them to look.
struct SampleArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("JSON samples: files, directories (their .json files), or - for standard input.", valueName: "sample"))
    var samples: [String]

    @Option(name: .customLong("at"), help: ArgumentHelp("The key path of the value to model in each sample, skipping an envelope.", valueName: "key.path"))
    var keyPath: String?

    func parsedKeyPath() throws -> KilnModel.JSONPath? {
        guard let keyPath, !keyPath.isEmpty else { return nil }
        return try KilnModel.JSONPath(parsing: keyPath)
    }

    func load() throws -> [Sample] {
        try SampleLoader().load(samples)
    }
}

/// Runs `body`, turning Kiln's errors into one line on standard error and a failing exit code.
func reportingErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as SampleError {
        try fail(error.description)
    } catch let error as GeneratorError {
        try fail(error.description)
    } catch let error as JSONPathSyntaxError {
        try fail(error.description)
    } catch let error as CommandFailure {
        try fail(error.message)
    }
}

/// A failure the command explains in its own words.
struct CommandFailure: Error {
    var message: String
    init(_ message: String) { self.message = message }
}

private func fail(_ message: String) throws -> Never {
    FileHandle.standardError.write(Data("kiln: \(message)\n".utf8))
    throw ExitCode.failure
}

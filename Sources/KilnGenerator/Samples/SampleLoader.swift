import Foundation

/// Reads samples from files, directories (their `.json` files, by name) and standard input (`-`).
public struct SampleLoader: Sendable {
    /// Reads standard input when an argument is `-`.
    public var readStandardInput: @Sendable () -> [UInt8]

    /// A loader; `readStandardInput` is replaceable for tests.
    public init(readStandardInput: @escaping @Sendable () -> [UInt8] = { Array(FileHandle.standardInput.readDataToEndOfFile()) }) {
        self.readStandardInput = readStandardInput
    }

    /// Loads every argument, in order; a directory contributes its `.json` files sorted by name.
    public func load(_ arguments: [String]) throws(SampleError) -> [Sample] {
        guard !arguments.isEmpty else { throw .noSamples }
        var samples: [Sample] = []
        for argument in arguments {
            if argument == "-" {
                samples.append(try Sample(name: "stdin", bytes: readStandardInput()))
                continue
            }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else { throw .fileNotFound(argument) }
            if isDirectory.boolValue {
                let names: [String]
                do {
                    names = try FileManager.default.contentsOfDirectory(atPath: argument)
                } catch {
                    throw .unreadable(argument, error.localizedDescription)
                }
                let files = names.filter { $0.lowercased().hasSuffix(".json") }.sorted()
                guard !files.isEmpty else { throw .emptyDirectory(argument) }
                for file in files {
                    samples.append(try loadFile(URL(fileURLWithPath: argument).appendingPathComponent(file).relativePath))
                }
            } else {
                samples.append(try loadFile(argument))
            }
        }
        return samples
    }

    /// A sample named by its path as given, so messages point at the file.
    private func loadFile(_ path: String) throws(SampleError) -> Sample {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .unreadable(path, error.localizedDescription)
        }
        return try Sample(name: path, bytes: Array(data))
    }
}

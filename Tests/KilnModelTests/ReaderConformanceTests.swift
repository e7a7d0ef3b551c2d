import Foundation
import Testing
@testable import KilnModel

/// The test data kept in the repository's `TestData` folder (origins and licences in its README).
enum SharedData {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // KilnModelTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // repo
        .appendingPathComponent("TestData")

    static let jsonTestSuite = root.appendingPathComponent("JSONTestSuite/test_parsing")
    static let benchdata = root.appendingPathComponent("benchdata")

    static func files(prefix: String) throws -> [URL] {
        try FileManager.default.contentsOfDirectory(at: jsonTestSuite, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent.hasPrefix(prefix) && $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

@Suite("JSONTestSuite conformance")
struct ReaderConformanceTests {
    @Test func everyYesFileIsAccepted() throws {
        let files = try SharedData.files(prefix: "y_")
        #expect(files.count > 90)
        for file in files {
            let data = try Data(contentsOf: file)
            #expect(throws: Never.self, "\(file.lastPathComponent)") { _ = try JSONDocument(parsing: data) }
        }
    }

    @Test func everyNoFileIsRejectedWithATypedError() throws {
        let files = try SharedData.files(prefix: "n_")
        #expect(files.count > 180)
        for file in files {
            let data = try Data(contentsOf: file)
            do {
                _ = try JSONDocument(parsing: data)
                Issue.record("\(file.lastPathComponent) was accepted")
            } catch {
                guard case .invalidJSON(_, let offset, let line, let column) = error else {
                    Issue.record("\(file.lastPathComponent): \(error)")
                    continue
                }
                #expect(offset >= 0 && offset <= data.count, "\(file.lastPathComponent)")
                #expect(line >= 1 && column >= 1, "\(file.lastPathComponent)")
            }
        }
    }

    @Test func everyImplementationDefinedFileEndsEitherWay() throws {
        let files = try SharedData.files(prefix: "i_")
        #expect(files.count > 30)
        for file in files {
            let data = try Data(contentsOf: file)
            // Accepted or a typed error; the decoder must also survive it.
            _ = try? JSONDocument(parsing: data)
            _ = try? KilnDecoder().decode(JSONValue.self, from: data)
        }
    }

    @Test func everyFileDecodesThroughKilnDecoderAsTheReaderSaysItShould() throws {
        for file in try SharedData.files(prefix: "y_") {
            let data = try Data(contentsOf: file)
            let value = try KilnDecoder().decode(JSONValue.self, from: data)
            #expect(value == (try JSONDocument(parsing: data).value), "\(file.lastPathComponent)")
        }
        for file in try SharedData.files(prefix: "n_") {
            let data = try Data(contentsOf: file)
            #expect(throws: ModelDecodingError.self, "\(file.lastPathComponent)") {
                _ = try KilnDecoder().decode(JSONValue.self, from: data)
            }
        }
    }
}

import Foundation
import KilnGenerator
import Testing

/// The order-preserving reader against nst/JSONTestSuite (`shared/testdata` beside the
/// repository): every `y_` file parses, every `n_` file is an error, and nothing crashes.
@Suite(.enabled(if: FileManager.default.fileExists(atPath: JSONTestSuiteFiles.folder.path), "needs ../shared/testdata/JSONTestSuite"))
struct JSONTestSuiteConformanceTests {
    @Test func acceptsValidAndRejectsInvalidDocuments() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: JSONTestSuiteFiles.folder.path).filter { $0.hasSuffix(".json") }.sorted()
        #expect(files.count > 300)
        var wronglyRejected: [String] = []
        var wronglyAccepted: [String] = []
        for file in files {
            let bytes = Array(try Data(contentsOf: JSONTestSuiteFiles.folder.appendingPathComponent(file)))
            let parsed = (try? OrderedJSON(parsing: bytes)) != nil
            if file.hasPrefix("y_") && !parsed { wronglyRejected.append(file) }
            if file.hasPrefix("n_") && parsed { wronglyAccepted.append(file) }
        }
        #expect(wronglyRejected == [])
        #expect(wronglyAccepted == [])
    }
}

enum JSONTestSuiteFiles {
    static let folder = GeneratorFixture.repositoryRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/testdata/JSONTestSuite/test_parsing")
}

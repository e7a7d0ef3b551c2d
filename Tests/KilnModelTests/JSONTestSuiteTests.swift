import Foundation
import KilnModel
import Testing

/// The files of nst/JSONTestSuite, from `shared/testdata` beside the repository.
enum JSONTestSuite {
    static let folder: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/testdata/JSONTestSuite/test_parsing")

    static var files: [URL] {
        ((try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
    }
}

@Suite struct JSONTestSuiteTests {
    @Test func suiteIsPresent() {
        #expect(JSONTestSuite.files.count == 318, "expected the 318 files of JSONTestSuite at \(JSONTestSuite.folder.path)")
    }

    /// Every file, valid or not, ends in a value or a typed error through the tolerant path.
    @Test func everyFileEndsInAValueOrATypedError() throws {
        var outcomes: [String: Int] = [:]
        for file in JSONTestSuite.files {
            let data = try Data(contentsOf: file)
            for attempt in 0..<2 {
                do {
                    if attempt == 0 {
                        _ = try JSONDecoder().decodeWithRepairs(JSONValue.self, from: data)
                    } else {
                        _ = try JSONDecoder().decodeWithRepairs(Article.self, from: data)
                    }
                    outcomes["value", default: 0] += 1
                } catch {
                    // The signature says ModelDecodingError; the point is that we got here.
                    outcomes[String(describing: type(of: error)), default: 0] += 1
                }
            }
        }
        #expect(outcomes.keys.allSatisfy { $0 == "value" || $0 == "ModelDecodingError" })
        #expect(outcomes.values.reduce(0, +) == JSONTestSuite.files.count * 2)
    }

    /// Files that must be accepted decode to a JSONValue; syntax errors carry a location.
    @Test func validFilesDecodeAndSyntaxErrorsAreLocated() throws {
        for file in JSONTestSuite.files {
            let name = file.lastPathComponent
            let data = try Data(contentsOf: file)
            let result = Result { () throws(ModelDecodingError) in try JSONDecoder().decodeWithRepairs(JSONValue.self, from: data).value }
            if name.hasPrefix("y_") {
                #expect(throws: Never.self, "\(name)") { try result.get() }
            }
            if case .failure(.invalidJSON(_, let offset, let line, let column)) = result {
                #expect(offset >= 0 && offset <= data.count && line >= 1 && column >= 1, "\(name)")
            }
        }
    }
}

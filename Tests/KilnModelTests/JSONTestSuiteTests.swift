import Foundation
import KilnModel
import Testing

/// The files of nst/JSONTestSuite, from the repository's `TestData`.
enum JSONTestSuite {
    static var files: [URL] {
        (try? SharedData.files(prefix: "")) ?? []
    }
}

@Suite struct JSONTestSuiteTests {
    @Test func suiteIsPresent() {
        #expect(JSONTestSuite.files.count == 318, "expected the 318 files of JSONTestSuite at \(SharedData.jsonTestSuite.path)")
    }

    /// Through the tolerant path over Foundation's parser, every file a parser must reject is
    /// refused, and decoding a model from any file ends (a value or an error).
    @Test func rejectedFilesAreRefusedAndEveryFileEnds() throws {
        var accepted: [String] = []
        for file in JSONTestSuite.files {
            let data = try Data(contentsOf: file)
            _ = try? JSONDecoder().decodeWithRepairs(Article.self, from: data)
            guard file.lastPathComponent.hasPrefix("n_") else { continue }
            do {
                _ = try JSONDecoder().decodeWithRepairs(JSONValue.self, from: data)
                accepted.append(file.lastPathComponent)
            } catch {
                // Refused: Foundation names some of these (a raw tab inside a string) as a
                // corrupt value at a path rather than as invalid JSON.
            }
        }
        // Foundation's parser takes a trailing comma (Kiln's reader refuses it); nothing else.
        #expect(accepted == ["n_array_extra_comma.json", "n_array_number_and_comma.json", "n_object_trailing_comma.json"])
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

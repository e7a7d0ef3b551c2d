import Foundation
import KilnModel
import Testing

@Suite struct ErrorTests {
    @Test func notJSONNamesLineColumnAndOffset() throws {
        let data = json("{\n  \"id\": 1,\n  \"title\": tru\n}")
        #expect {
            _ = try JSONDecoder().decodeWithRepairs(Article.self, from: data)
        } throws: { error in
            guard case .invalidJSON(_, let offset, let line, let column) = error as? ModelDecodingError else { return false }
            return line == 3 && column == 12 && offset == 24
        }
    }

    @Test func topLevelTypeMismatchNamesThePath() throws {
        #expect {
            _ = try JSONDecoder().decodeWithRepairs(Article.self, from: json("[1, 2]"))
        } throws: { error in
            guard case .typeMismatch(let path, _, _) = error as? ModelDecodingError else { return false }
            return path == ""
        }
        #expect {
            _ = try JSONDecoder().decodeWithRepairs(Article.self, from: json(#"{"data": 5}"#), at: "data")
        } throws: { error in
            guard case .typeMismatch(let path, _, _) = error as? ModelDecodingError else { return false }
            return path == "data"
        }
    }

    @Test func missingKeyPathIsPathNotFound() throws {
        #expect(throws: ModelDecodingError.pathNotFound(path: "data.list")) {
            _ = try JSONDecoder().decodeWithRepairs([Item].self, from: json(#"{"data": {}}"#), at: "data.list")
        }
    }

    @Test func errorsReadWell() {
        let error = ModelDecodingError.invalidJSON(message: "unexpected character 'x'", offset: 4, line: 1, column: 5)
        #expect(error.description == "not valid JSON at line 1, column 5 (byte 4): unexpected character 'x'")
    }
}

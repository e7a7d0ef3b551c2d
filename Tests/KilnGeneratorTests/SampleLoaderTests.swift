import Foundation
import KilnGenerator
import Testing

@Suite struct SampleLoaderTests {
    private func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("kiln-gen-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func missingFileIsOneLine() {
        #expect(throws: SampleError.fileNotFound("/no/such/sample.json")) { try SampleLoader().load(["/no/such/sample.json"]) }
        #expect(SampleError.fileNotFound("x.json").description == "x.json: no such file")
    }

    @Test func notJSONSaysLineAndColumn() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("bad.json")
        try Data("{\n  \"a\": [1 2]\n}".utf8).write(to: file)
        do {
            _ = try SampleLoader().load([file.path])
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "\(file.path):2:11: not JSON: unexpected '2'; expected ',' or ']'")
        }
    }

    /// Samples are read by KilnModel's reader; its errors keep their line and (byte) column.
    @Test(arguments: [
        (#"{"a": 1,}"#, 1, 9, "unexpected '}'; expected a string key"),
        ("{\n  \"a\": 1\n  \"b\": 2\n}", 3, 3, "unexpected '\"'; expected ',' or '}'"),
        ("[1, 2", 1, 6, "unexpected end of input; expected ',' or ']'"),
        (#"{"a": tru}"#, 1, 7, "invalid literal; expected 'true'"),
        (#"["abc"#, 1, 2, "unterminated string"),
        ("01", 1, 1, "leading zeros are not allowed in numbers"),
        (#"{"价格": x}"#, 1, 12, "unexpected 'x'; expected a value"),
        ("{} []", 1, 4, "unexpected '['; expected the end of the document"),
    ])
    func notJSONSaysWhere(text: String, line: Int, column: Int, message: String) {
        #expect(throws: SampleError.notJSON("s.json", line: line, column: column, message: message)) {
            try Sample(name: "s.json", bytes: Array(text.utf8))
        }
    }

    @Test func byteOrderMarkIsSkipped() throws {
        let sample = try Sample(name: "bom.json", bytes: [0xEF, 0xBB, 0xBF] + Array(#"{"id": 1}"#.utf8))
        #expect(sample.document.value == ["id": 1])
        #expect(throws: SampleError.emptyInput("bom.json")) { try Sample(name: "bom.json", bytes: [0xEF, 0xBB, 0xBF, 0x0A]) }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        #expect(throws: SampleError.notJSON("deep.json", line: 1, column: 513, message: "nesting deeper than 512 levels")) {
            try Sample(name: "deep.json", bytes: Array(String(repeating: "[", count: 100_000).utf8))
        }
    }

    @Test func directoryReadsItsJSONFilesByName() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(#"{"b": 2}"#.utf8).write(to: directory.appendingPathComponent("b.json"))
        try Data(#"{"a": 1}"#.utf8).write(to: directory.appendingPathComponent("a.json"))
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.txt"))
        let samples = try SampleLoader().load([directory.path])
        #expect(samples.map(\.name) == [directory.appendingPathComponent("a.json").path, directory.appendingPathComponent("b.json").path])
    }

    @Test func emptyDirectoryIsAnError() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        #expect(throws: SampleError.emptyDirectory(directory.path)) { try SampleLoader().load([directory.path]) }
    }

    @Test func dashReadsStandardInput() throws {
        let loader = SampleLoader(readStandardInput: { Array(#"{"id": 1}"#.utf8) })
        let samples = try loader.load(["-"])
        #expect(samples.map(\.name) == ["stdin"])
        #expect(samples.first?.document.value == ["id": 1])
    }

    @Test func emptyInputIsAnError() {
        let loader = SampleLoader(readStandardInput: { Array(" \n".utf8) })
        #expect(throws: SampleError.emptyInput("stdin")) { try loader.load(["-"]) }
        #expect(throws: SampleError.noSamples) { try loader.load([]) }
    }

    @Test func topLevelScalarIsAnError() throws {
        let sample = try Sample(name: "n.json", bytes: Array("42".utf8))
        #expect(throws: SampleError.topLevelScalar("n.json", "number")) { try sample.records(at: nil) }
        #expect(SampleError.topLevelScalar("n.json", "number").description.hasPrefix("n.json: the top-level value is a number;"))
    }

    @Test func keyPathSkipsTheEnvelope() throws {
        let sample = try Sample(name: "s.json", bytes: Array(#"{"code": 0, "data": {"list": [{"id": 1}, null, {"id": 2}]}}"#.utf8))
        let (records, isList) = try sample.records(at: "data.list")
        #expect(records.count == 2 && isList)
        #expect(throws: SampleError.pathNotFound("s.json", "data.items")) { try sample.records(at: "data.items") }
        #expect(throws: SampleError.notAnObject("s.json", "the value at code is a number")) { try sample.records(at: "code") }
    }

    /// A sample's key path walks as every key path of the library walks (`JSONTape.locate`),
    /// and a path that leads nowhere is named up to the step that could not be taken.
    @Test func keyPathWalksByTheLibrarysOneRule() throws {
        let sample = try Sample(name: "s.json", bytes: Array(#"{"data": {"list": [{"id": 1}, null], "gone": null}}"#.utf8))
        #expect(try sample.records(at: "data.list[0]").records.count == 1)
        #expect(throws: SampleError.pathNotFound("s.json", "data.list.0")) { try sample.records(at: "data.list.0") }
        #expect(throws: SampleError.pathNotFound("s.json", "data.list[2]")) { try sample.records(at: "data.list[2].id") }
        #expect(throws: SampleError.pathNotFound("s.json", "data.list[1].id")) { try sample.records(at: "data.list[1].id") }
        #expect(throws: SampleError.pathNotFound("s.json", "data.gone.x")) { try sample.records(at: "data.gone.x") }
        #expect(throws: SampleError.notAnObject("s.json", "the value at data.gone is null")) { try sample.records(at: "data.gone") }
    }

    @Test func arrayOfScalarsIsAnError() throws {
        let sample = try Sample(name: "s.json", bytes: Array(#"[{"id": 1}, 2]"#.utf8))
        #expect(throws: SampleError.notAnObject("s.json", "element [1] is a number")) { try sample.records(at: nil) }
    }
}

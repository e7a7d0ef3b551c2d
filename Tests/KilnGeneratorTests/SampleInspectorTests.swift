import KilnGenerator
import Testing

@Suite struct SampleInspectorTests {
    private let samples = [
        try? Sample(name: "1.json", bytes: Array(#"{"id": 1, "title": "a", "author": {"name": "Kai"}, "tags": ["x", "y"], "url": "https://x.com"}"#.utf8)),
        try? Sample(name: "2.json", bytes: Array(#"{"id": 2.5, "title": null, "author": {}, "tags": []}"#.utf8)),
    ].compactMap { $0 }

    @Test func rowsListEveryPathWithKindsNullsAndMissing() throws {
        let rows = try SampleInspector().rows(for: samples)
        #expect(rows.map(\.path) == ["id", "title", "author", "author.name", "tags", "tags[]", "url"])
        #expect(rows[0].types == "int ×1, double ×1" && rows[0].notes == "1…2.5")
        #expect(rows[1].types == "string ×1, null ×1" && rows[1].nulls == 1 && rows[1].missing == 0)
        #expect(rows[3].missing == 1)
        #expect(rows[5].missing == nil && rows[5].notes == #""x", "y""#)
        #expect(rows[6].missing == 1 && rows[6].notes == "URLs")
    }

    @Test func reportIsAnAlignedTable() throws {
        let report = try SampleInspector().report(for: samples)
        let lines = report.split(separator: "\n").map(String.init)
        #expect(lines[0] == "2 samples, 2 records")
        #expect(lines[1] == "path         types               null  missing  notes")
        #expect(lines[2] == "id           int ×1, double ×1   0     0        1…2.5")
    }
}

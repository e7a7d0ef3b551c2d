import Foundation
import KilnModel

/// `kiln-bench decode`: the same bytes decoded by Foundation into strict `Codable` structs and
/// into the same shapes as `@DataModel`s, in one run.
enum DecodeBench {
    struct Input {
        var name: String
        var data: Data
        var strict: (Data) throws -> Void
        var model: (Data) throws -> Void
    }

    static func benchData(_ file: String) -> Data? {
        let here = URL(fileURLWithPath: #filePath)
        let repo = here.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return try? Data(contentsOf: repo.deletingLastPathComponent().appendingPathComponent("shared/benchdata/\(file)"))
    }

    static func run() throws {
        var inputs = [
            Input(
                name: "articles", data: ArticlePayload.make(),
                strict: { _ = try JSONDecoder().decode(StrictPage.self, from: $0) },
                model: { _ = try JSONDecoder().decode(ModelPage.self, from: $0) })
        ]
        if let twitter = benchData("twitter.json") {
            inputs.append(
                Input(
                    name: "twitter.json", data: twitter,
                    strict: { _ = try JSONDecoder().decode(StrictTimeline.self, from: $0) },
                    model: { _ = try JSONDecoder().decode(Timeline.self, from: $0) }))
        } else {
            print("(shared/benchdata/twitter.json not found beside the repository: skipped)")
        }

        print("input          size     Foundation strict   @DataModel via Foundation   ratio (b/a time)")
        for input in inputs {
            let mb = Double(input.data.count) / 1_048_576
            try input.strict(input.data)  // warm up, and prove the shapes fit
            try input.model(input.data)
            let strict = try Measure.best { try input.strict(input.data) }
            let model = try Measure.best { try input.model(input.data) }
            print(
                Measure.pad(input.name, 12), Measure.pad(Measure.format(mb, 2) + " MB", 9),
                Measure.pad(Measure.format(mb / strict) + " MB/s", 19),
                Measure.pad(Measure.format(mb / model) + " MB/s", 27),
                Measure.pad(Measure.format(model / strict, 2) + "x", 18))
        }
        print("peak memory: \(Measure.format(Measure.peakMemoryMiB())) MiB")
    }
}

import Foundation
import KilnGenerator

/// The sample sets whose generated models are committed in `Tests/GeneratedModelsTests/Generated`
/// and compiled there: the golden test regenerates each and compares byte for byte.
struct GeneratorFixture: Sendable, CustomStringConvertible {
    /// The generated file's name without `.swift`, and the top-level type's name.
    var name: String
    /// Sample paths relative to the repository root (a directory reads its .json files).
    var samples: [String]
    /// Options beyond the type name, as they would be passed to `kiln generate`.
    var configure: @Sendable (inout GeneratorOptions) -> Void = { _ in }

    var description: String { name }

    static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// `TestData/benchdata/twitter.json` (origin and licence in `TestData/README.md`).
    static let twitterPath = repositoryRoot.appendingPathComponent("TestData/benchdata/twitter.json").path

    static let all: [GeneratorFixture] = [
        // kiln generate --name Article --at data.list --enums --equatable Tests/Fixtures/Samples/articles
        GeneratorFixture(name: "Article", samples: ["Tests/Fixtures/Samples/articles"]) {
            $0.keyPath = "data.list"
            $0.infersEnums = true
            $0.conformances = [.sendable, .equatable]
        },
        // kiln generate --name Message --at data --defaults --access public --no-sendable Tests/Fixtures/Samples/messages.json
        GeneratorFixture(name: "Message", samples: ["Tests/Fixtures/Samples/messages.json"]) {
            $0.keyPath = "data"
            $0.usesDefaults = true
            $0.accessLevel = .public
            $0.conformances = []
        },
        // kiln generate --name Ticket --kind class --access public --hashable Tests/Fixtures/Samples/tickets
        GeneratorFixture(name: "Ticket", samples: ["Tests/Fixtures/Samples/tickets"]) {
            $0.declaration = .finalClass
            $0.accessLevel = .public
            $0.conformances = [.sendable, .hashable]
        },
        // kiln generate --name Profile --enums --hashable Tests/Fixtures/Samples/profiles
        GeneratorFixture(name: "Profile", samples: ["Tests/Fixtures/Samples/profiles"]) {
            $0.infersEnums = true
            $0.conformances = [.sendable, .hashable]
        },
        // kiln generate --name EdgeCase --enums --equatable Tests/Fixtures/Samples/edge-cases.json
        GeneratorFixture(name: "EdgeCase", samples: ["Tests/Fixtures/Samples/edge-cases.json"]) {
            $0.infersEnums = true
            $0.conformances = [.sendable, .equatable]
        },
        // kiln generate --name Post --equatable Tests/Fixtures/Samples/posts.json
        GeneratorFixture(name: "Post", samples: ["Tests/Fixtures/Samples/posts.json"]) {
            $0.conformances = [.sendable, .equatable]
        },
        // kiln generate --name Listing --equatable Tests/Fixtures/Samples/thread.json
        GeneratorFixture(name: "Listing", samples: ["Tests/Fixtures/Samples/thread.json"]) {
            $0.conformances = [.sendable, .equatable]
        },
    ]

    /// kiln generate --name TwitterSearch --equatable TestData/benchdata/twitter.json
    static let twitter = GeneratorFixture(name: "TwitterSearch", samples: [twitterPath]) {
        $0.conformances = [.sendable, .equatable]
    }

    var generatedFile: URL {
        Self.repositoryRoot.appendingPathComponent("Tests/GeneratedModelsTests/Generated/\(name).swift")
    }

    func generate() throws -> String {
        let paths = samples.map { $0.hasPrefix("/") ? $0 : Self.repositoryRoot.appendingPathComponent($0).path }
        var options = GeneratorOptions(typeName: name)
        configure(&options)
        return try ModelGenerator(options: options).source(for: SampleLoader().load(paths))
    }
}

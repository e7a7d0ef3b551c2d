import Foundation
import KilnGenerator
import Testing

/// The models compiled and decoded in `GeneratedModelsTests` must be exactly what the generator
/// writes today. Run with `KILN_UPDATE_GOLDEN=1` to rewrite them after a deliberate change.
@Suite struct GoldenTests {
    @Test(arguments: GeneratorFixture.all)
    func committedModelIsTheGeneratorsOutput(_ fixture: GeneratorFixture) throws {
        try check(fixture)
    }

    @Test
    func committedTwitterModelIsTheGeneratorsOutput() throws {
        try check(GeneratorFixture.twitter)
    }

    private func check(_ fixture: GeneratorFixture) throws {
        let generated = try fixture.generate()
        if ProcessInfo.processInfo.environment["KILN_UPDATE_GOLDEN"] == "1" {
            try Data(generated.utf8).write(to: fixture.generatedFile)
            return
        }
        let committed = try String(contentsOf: fixture.generatedFile, encoding: .utf8)
        #expect(generated == committed, "regenerate with KILN_UPDATE_GOLDEN=1 if the change is intended")
    }
}

import ArgumentParser

/// The `kiln` command: tools for Kiln models.
@main
struct Kiln: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "kiln",
        abstract: "Tools for Kiln models: generate @DataModel types from JSON samples, inspect samples.",
        subcommands: [Generate.self, Inspect.self]
    )
}

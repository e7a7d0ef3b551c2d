import ArgumentParser
import Foundation
import KilnGenerator

extension GeneratorOptions.Declaration: ExpressibleByArgument {}
extension GeneratorOptions.AccessLevel: ExpressibleByArgument {}

/// `kiln generate`: JSON samples → `@DataModel` Swift source.
struct Generate: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print @DataModel Swift types inferred from JSON samples.",
        discussion: """
            Every sample, and every element of an array of objects, is merged:
              - missing somewhere or null anywhere: optional (--defaults: the default)
              - integers beside other numbers: Double
              - any other mix of kinds (0 and "0", false and 1, an object and text):
                an enum with a case per kind, each value read and written as it came
              - nested objects: one type per kind of object wherever it appears, named
                from its key (author → Author, tags → Tag); recursive shapes are
                recursive types (a final class or an indirect enum where a type would
                hold itself); objects keyed by ids are dictionaries
              - keys with '.' or '[' or empty: @Key(literal:)
              - keys: camelCase properties; @DataModel(keyStyle: .snakeCase) on a
                type whose keys are mostly snake_case; @Key for the other keys, so
                every key is written back as the sample had it
              - ISO-8601 strings: Date; http(s) strings: URL?; UUID strings: UUID?
                (URL and UUID have no default value, so they stay optional)
              - 8-digit numbers under a "date"/"day" key, 10- or 13-digit integers
                under *_at, *At, *time, *timestamp keys: Date with a transform

            Examples:
              kiln generate -n Article article.json
              kiln generate -n Article --at data.list --enums page1.json page2.json
              curl -s https://api.example.com/feed | kiln generate -n Feed -
            """
    )

    @OptionGroup var input: SampleArguments

    @Option(name: .shortAndLong, help: "The name of the top-level type.")
    var name: String

    @Option(name: [.customShort("o"), .long], help: ArgumentHelp("Write the source to this file instead of standard output.", valueName: "file"))
    var output: String?

    @Flag(help: "Make keys that are missing or null in some samples non-optional, taking their type's default.")
    var defaults = false

    @Flag(help: "Turn string keys with a few distinct values into FallbackEnum types.")
    var enums = false

    @Option(help: ArgumentHelp("With --enums: the most distinct values an enum may have.", valueName: "n"))
    var enumMaxCases = 8

    @Option(help: ArgumentHelp("With --enums: the fewest values a key must show to become an enum.", valueName: "n"))
    var enumMinValues = 3

    @Option(help: ArgumentHelp("Declare types as struct or final class.", valueName: "struct|class"))
    var kind: GeneratorOptions.Declaration = .struct

    @Option(help: ArgumentHelp("The access level of types and properties.", valueName: "internal|package|public"))
    var access: GeneratorOptions.AccessLevel = .internal

    @Flag(inversion: .prefixedNo, help: "Conform the types to Sendable.")
    var sendable = true

    @Flag(help: "Conform the types to Equatable.")
    var equatable = false

    @Flag(help: "Conform the types to Hashable (implies Equatable).")
    var hashable = false

    @Flag(inversion: .prefixedNo, help: "Start with a comment naming the samples the source came from.")
    var header = true

    mutating func validate() throws {
        guard enumMaxCases >= 1 else { throw ValidationError("--enum-max-cases must be at least 1") }
        guard enumMinValues >= 1 else { throw ValidationError("--enum-min-values must be at least 1") }
    }

    func run() throws {
        try reportingErrors {
            var options = GeneratorOptions(typeName: name)
            options.keyPath = try input.parsedKeyPath()
            options.declaration = kind
            options.accessLevel = access
            options.conformances = sendable ? [.sendable] : []
            if equatable { options.conformances.insert(.equatable) }
            if hashable { options.conformances.insert(.hashable) }
            options.usesDefaults = defaults
            options.infersEnums = enums
            options.enumMaximumCases = enumMaxCases
            options.enumMinimumValues = enumMinValues
            options.writesHeader = header
            let source = try ModelGenerator(options: options).source(for: input.load())
            if let output {
                do {
                    try Data(source.utf8).write(to: URL(fileURLWithPath: output))
                } catch {
                    throw CommandFailure("\(output): cannot be written (\(error.localizedDescription))")
                }
            } else {
                print(source, terminator: "")
            }
        }
    }
}

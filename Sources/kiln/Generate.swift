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
            Every sample, and every element of an array of objects, is merged: a key missing \
            from some objects or null anywhere becomes optional (or takes its type's default, \
            with --defaults); Int and Double together become Double; nested objects become \
            nested types named from their keys (tags → Tag). Keys become camelCase properties, \
            with @Key where @DataModel would not find the key from the name. Strings read as \
            ISO-8601 dates, http(s) URLs and UUIDs become Date, URL and UUID; 8-digit dates \
            under a key containing "date" or "day", and 10- or 13-digit integers under keys \
            ending in _at, At, time or timestamp, become Date with the matching transform.

            Example:
              kiln generate --name Article --at data.list page1.json page2.json -o Article.swift
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
                try Data(source.utf8).write(to: URL(fileURLWithPath: output))
            } else {
                print(source, terminator: "")
            }
        }
    }
}

import ArgumentParser
import KilnGenerator

/// `kiln inspect`: the shape of JSON samples, key path by key path.
struct Inspect: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every key path in the samples with the types seen and how often it was null or missing.",
        discussion: """
            Array elements are written path[]; "missing" counts objects at that path that lacked \
            the key. Notes show number ranges, small sets of strings, and recognized dates, URLs \
            and UUIDs.
            """
    )

    @OptionGroup var input: SampleArguments

    func run() throws {
        try reportingErrors {
            print(try SampleInspector().report(for: input.load(), at: input.parsedKeyPath()), terminator: "")
        }
    }
}

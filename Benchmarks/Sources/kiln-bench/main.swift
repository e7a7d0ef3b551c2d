// kiln-bench: speed and memory, measured side by side with a baseline in the same run.
//
//   swift run -c release kiln-bench decode   # JSON decoding: Foundation vs @DataModel vs Kiln
//   swift run -c release kiln-bench cache    # memory and disk caches vs NSCache and files
//   swift run -c release kiln-bench lists    # paged-list appends stay flat as lists grow
//   swift run -c release kiln-bench client   # whole API calls against nginx on loopback
//   swift run -c release kiln-bench all
//
// Figures are ratios against the baseline measured in the same process: machines are noisy.

import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
let suites = arguments.isEmpty || arguments == ["all"] ? BenchSuite.allCases : arguments.compactMap(BenchSuite.init(rawValue:))
if suites.isEmpty || arguments.contains("--help") {
    print("usage: kiln-bench [\(BenchSuite.allCases.map(\.rawValue).joined(separator: "|"))|all]")
    exit(arguments.contains("--help") ? 0 : 64)
}
if arguments.contains("--once") {
    // Instruction counting under valgrind: synchronous, with no dispatch threads started.
    DecodeBench.run(arguments: arguments)
    exit(0)
}
Task { @MainActor in
    do {
        for suite in suites {
            print("== \(suite.rawValue) ==")
            try await suite.run()
            print("")
        }
        exit(0)
    } catch {
        print("kiln-bench: \(error)")
        exit(1)
    }
}
dispatchMain()

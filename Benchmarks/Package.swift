// swift-tools-version: 6.2
// Kiln's benchmarks and fuzzer: a package beside the library, so that neither is a product of Kiln.
// Run from the repository: `swift run -c release --package-path Benchmarks kiln-bench decode`.
import PackageDescription

let package = Package(
    name: "KilnBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Kiln", path: "..")
    ],
    targets: [
        // The generated article payload, the benchmark's models (strict Codable and @DataModel) and the
        // envelope-path invariants, shared by kiln-bench, kiln-fuzz and the tests below.
        .target(name: "BenchSupport", dependencies: [.product(name: "KilnModel", package: "Kiln")]),
        // The limit the decode benchmark measures Kiln against: simdjson On-Demand decoding the same
        // payloads into C++ structs with BenchSupport's members. Linux only, against Debian's
        // libsimdjson-dev, compiled for this machine's CPU as simdjson's own figures are; elsewhere it
        // builds as stubs that report the limit unavailable.
        .target(
            name: "SimdjsonLimit",
            cxxSettings: [.unsafeFlags(["-march=native"], .when(platforms: [.linux]))],
            linkerSettings: [.linkedLibrary("simdjson", .when(platforms: [.linux]))]
        ),
        // SimdjsonLimit's decoder from Swift, with the digest of what it built.
        .target(name: "LimitDecoder", dependencies: ["BenchSupport", "SimdjsonLimit"]),
        // Every benchmark, each against its baseline in the same run (CONTRIBUTING.md, "Benchmarks").
        .executableTarget(
            name: "kiln-bench",
            dependencies: [
                "BenchSupport",
                "LimitDecoder",
                .product(name: "Kiln", package: "Kiln"),
                .product(name: "KilnTesting", package: "Kiln"),
            ]
        ),
        // libFuzzer target over the JSON reader, the envelope path and KilnDecoder; scripts/build-fuzz.sh
        // builds it with the sanitizers (CONTRIBUTING.md, "Fuzzing"); `swift run` replays crash files.
        .executableTarget(name: "kiln-fuzz", dependencies: ["BenchSupport", .product(name: "KilnModel", package: "Kiln")]),
        // The benchmark's models decode as Foundation decodes them (values and repair logs), on the
        // benchmark payloads; the envelope invariants the fuzzer checks, on documents written by hand.
        // …and simdjson's structs hold what Kiln's models hold, so the limit row decodes the same thing.
        .testTarget(
            name: "BenchSupportTests",
            dependencies: ["BenchSupport", "LimitDecoder", "SimdjsonLimit", .product(name: "KilnModel", package: "Kiln")]
        ),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)

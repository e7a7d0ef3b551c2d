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
        // Every benchmark, each against its baseline in the same run (CONTRIBUTING.md, "Benchmarks").
        .executableTarget(
            name: "kiln-bench",
            dependencies: [
                "BenchSupport",
                .product(name: "Kiln", package: "Kiln"),
                .product(name: "KilnTesting", package: "Kiln"),
            ]
        ),
        // libFuzzer target over the JSON reader, the envelope path and KilnDecoder; scripts/build-fuzz.sh
        // builds it with the sanitizers (CONTRIBUTING.md, "Fuzzing"); `swift run` replays crash files.
        .executableTarget(name: "kiln-fuzz", dependencies: ["BenchSupport", .product(name: "KilnModel", package: "Kiln")]),
        // The benchmark's models decode as Foundation decodes them (values and repair logs), on the
        // benchmark payloads; the envelope invariants the fuzzer checks, on documents written by hand.
        .testTarget(name: "BenchSupportTests", dependencies: ["BenchSupport", .product(name: "KilnModel", package: "Kiln")]),
    ],
    swiftLanguageModes: [.v6]
)

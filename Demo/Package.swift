// swift-tools-version: 6.2
// The Kiln demo: every scenario against a live local server, in the terminal. A package beside the
// library, so that it is not a product of Kiln. Run from the repository:
// `swift run --package-path Demo kiln-demo`.
import PackageDescription

let package = Package(
    name: "KilnDemo",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Kiln", path: ".."),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .executableTarget(
            name: "kiln-demo",
            dependencies: [
                .product(name: "Kiln", package: "Kiln"),
                .product(name: "KilnTesting", package: "Kiln"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // Runs the built kiln-demo as a newcomer would and reads what it prints.
        .testTarget(name: "KilnDemoTests", dependencies: ["kiln-demo"]),
    ],
    swiftLanguageModes: [.v6]
)

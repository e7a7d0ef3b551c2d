// swift-tools-version: 6.2
import CompilerPluginSupport
import PackageDescription

let package = Package(
    name: "Kiln",
    platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10), .macCatalyst(.v17)],
    products: [
        .library(name: "Kiln", targets: ["Kiln"]),
        .library(name: "KilnModel", targets: ["KilnModel"]),
        .library(name: "KilnNetwork", targets: ["KilnNetwork"]),
        .library(name: "KilnCache", targets: ["KilnCache"]),
        .library(name: "KilnNetworkCache", targets: ["KilnNetworkCache"]),
        .library(name: "KilnViewModel", targets: ["KilnViewModel"]),
        .library(name: "KilnTesting", targets: ["KilnTesting"]),
        // The command is `kiln` (its help says so); the product is `kiln-cli` so that no two products or
        // targets differ only in case (`Kiln` and `kiln` collide on case-insensitive disks).
        .executable(name: "kiln-cli", targets: ["KilnCLI"]),
    ],
    dependencies: [
        .package(url: "https://github.com/swiftlang/swift-syntax", "602.0.0"..<"604.0.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/swhitty/FlyingFox", from: "0.20.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
    ],
    targets: [
        // MARK: Libraries
        // Rules and primitives shared by every module and by the macro plugin (key styles, the key-path
        // grammar, the lock). Not a product; dependency-free so the plugin can build it for the host.
        .target(name: "KilnSupport"),
        .macro(
            name: "KilnMacros",
            dependencies: [
                "KilnSupport",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        // The reader's byte scans on the vector unit (SSE2, NEON; a portable loop elsewhere). C, for
        // the intrinsics; no unsafe flags.
        .target(name: "CKilnScan"),
        .target(name: "KilnModel", dependencies: ["KilnSupport", "KilnMacros", "CKilnScan"]),
        .target(
            name: "KilnNetwork",
            dependencies: ["KilnSupport", "KilnModel", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "KilnCache",
            dependencies: [
                "KilnSupport",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // Networking's response cache over KilnCache's stores: the one place that knows both.
        .target(
            name: "KilnNetworkCache",
            dependencies: ["KilnNetwork", "KilnCache", .product(name: "Crypto", package: "swift-crypto")]
        ),
        .target(name: "KilnViewModel", dependencies: ["KilnSupport", "KilnModel", "KilnNetwork"]),
        .target(
            name: "KilnTesting",
            dependencies: [
                "KilnSupport", "KilnModel", "KilnNetwork",
                .product(name: "FlyingFox", package: "FlyingFox"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .target(name: "Kiln", dependencies: ["KilnModel", "KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel"]),
        .target(name: "KilnGenerator", dependencies: ["KilnModel"]),

        // MARK: Executables
        .executableTarget(
            name: "KilnCLI",
            dependencies: ["KilnModel", "KilnGenerator", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),

        // MARK: Tests
        .testTarget(name: "KilnModelTests", dependencies: ["KilnSupport", "KilnModel"]),
        .testTarget(
            name: "KilnMacrosTests",
            dependencies: [
                "KilnMacros",
                "KilnModel",
                .product(name: "SwiftSyntaxMacrosGenericTestSupport", package: "swift-syntax"),
            ]
        ),
        // KilnViewModel: the nginx-backed PagedList tests live beside the nginx fixture.
        .testTarget(
            name: "KilnNetworkTests",
            dependencies: ["KilnSupport", "KilnNetwork", "KilnCache", "KilnNetworkCache", "KilnViewModel", "KilnTesting"],
            // The Server-Sent Events peer the stream tests start (sse-starlette under uvicorn).
            exclude: ["RealPeers/sse_server.py"]
        ),
        .testTarget(name: "KilnCacheTests", dependencies: ["KilnSupport", "KilnCache", "KilnTesting"]),
        .testTarget(name: "KilnViewModelTests", dependencies: ["KilnSupport", "KilnViewModel", "KilnCache", "KilnNetworkCache", "KilnTesting"]),
        .testTarget(name: "KilnGeneratorTests", dependencies: ["KilnGenerator", "KilnModel"]),
        .testTarget(name: "GeneratedModelsTests", dependencies: ["KilnModel"]),
        // Built as a new Xcode 26 app target is: default isolation MainActor.
        .testTarget(
            name: "MainActorAppTests",
            dependencies: ["Kiln", "KilnTesting"],
            swiftSettings: [.defaultIsolation(MainActor.self)]
        ),
    ],
    swiftLanguageModes: [.v6]
)

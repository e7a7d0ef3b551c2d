import Foundation

/// The repository's test data: `TestData/` beside `Benchmarks/`.
enum SharedData {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // BenchSupportTests
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // Benchmarks
        .deletingLastPathComponent() // the repository
        .appendingPathComponent("TestData")

    static let benchdata = root.appendingPathComponent("benchdata")
}

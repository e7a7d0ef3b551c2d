/// The benchmark suites `kiln-bench` knows; each prints its own table.
enum BenchSuite: String, CaseIterable {
    case decode
    case cache
    case lists
    case client

    func run() async throws {
        switch self {
        case .decode: try DecodeBench.run()
        case .cache: print(try await CacheBench.run())
        case .lists: try await ListsBench.run()
        case .client: try await ClientBench.run()
        }
    }
}

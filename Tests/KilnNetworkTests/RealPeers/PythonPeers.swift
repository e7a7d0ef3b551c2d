import Foundation

/// The Python that runs the test peers from PyPI (httpbin under gunicorn, an sse-starlette
/// server under uvicorn), set up on first use.
///
/// The system's `python3` is used when it already has the packages; otherwise a virtual
/// environment is made under the package's `.build/kiln-peers/venv` and the packages are
/// installed into it with pip, once: later runs reuse it. Nothing else needs installing before
/// `swift test`, on Linux or on a Mac (whose `python3` comes with the Xcode command-line tools).
actor PythonPeers {
    static let shared = PythonPeers()

    /// The PyPI packages the peers need, and the module each one is imported as.
    static let packages = [
        (package: "httpbin", module: "httpbin"),
        (package: "gunicorn", module: "gunicorn"),
        (package: "sse-starlette", module: "sse_starlette"),
        (package: "uvicorn", module: "uvicorn"),
    ]

    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    private var ready: Task<String, any Error>?

    /// The path of a Python that can import every package of ``packages``.
    func python() async throws -> String {
        if let ready { return try await ready.value }
        let task = Task { try await Self.provision() }
        ready = task
        return try await task.value
    }

    static var folder: URL { ServerProcess.peersFolder }

    private static func provision() async throws -> String {
        let check = "import " + packages.map(\.module).joined(separator: ", ")
        let names = packages.map(\.package)
        if try await run("/usr/bin/env", ["python3", "-c", check]).status == 0 { return "python3" }
        let venv = folder.appendingPathComponent("venv")
        let python = venv.appendingPathComponent("bin/python3").path
        if FileManager.default.isExecutableFile(atPath: python), try await run(python, ["-c", check]).status == 0 {
            return python
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let made = try await run("/usr/bin/env", ["python3", "-m", "venv", venv.path])
        guard made.status == 0 else {
            throw Unavailable(description: "could not make a Python virtual environment at \(venv.path) (python3 -m venv): \(made.output.suffix(400))")
        }
        let installed = try await run(python, ["-m", "pip", "install", "-q", "--disable-pip-version-check"] + names)
        guard installed.status == 0, try await run(python, ["-c", check]).status == 0 else {
            throw Unavailable(description: "pip could not install \(names.joined(separator: " ")) into \(venv.path): \(installed.output.suffix(400))")
        }
        return python
    }

    private static func run(_ executable: String, _ arguments: [String]) async throws -> (status: Int32, output: String) {
        try await ServerProcess.run(executable, arguments)
    }
}

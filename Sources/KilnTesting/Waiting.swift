import Foundation

/// Starts a ``FixtureServer``, runs `body` with it, and stops the server whether `body`
/// returns or throws.
///
/// ```swift
/// @Test func readsTheGreeting() async throws {
///     try await withFixtureServer { server in
///         server.route(.get, "/greeting", .envelope(data: ["text": "Hello"]))
///         let greeting = try await APIClient(baseURL: server.baseURL, envelope: .codeMessageData).send(Endpoint<Greeting>.get("/greeting"))
///         #expect(greeting.text == "Hello")
///     }
/// }
/// ```
public func withFixtureServer<T>(
    isolation: isolated (any Actor)? = #isolation,
    _ body: (FixtureServer) async throws -> T
) async throws -> T {
    let server = try await FixtureServer.start()
    do {
        let result = try await body(server)
        await server.stop()
        return result
    } catch {
        await server.stop()
        throw error
    }
}

/// Waits until `condition` holds and returns `true`, or returns `false` once `timeout` has passed.
///
/// For outcomes that arrive on their own schedule (a view model's state after a load, a file a
/// background task writes). The condition is checked after every turn of the caller's executor
/// and then at short intervals; the timeout only bounds a failing test, so make it generous and
/// assert on the result:
///
/// ```swift
/// model.load()
/// #expect(await eventually { model.phase == .loaded })
/// ```
public func eventually(
    timeout: Duration = .seconds(20),
    isolation: isolated (any Actor)? = #isolation,
    _ condition: () -> Bool
) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + timeout
    var turns = 0
    while !condition() {
        if clock.now >= deadline { return false }
        turns += 1
        if turns <= 50 {
            await Task.yield()
        } else {
            try? await Task.sleep(for: .milliseconds(2))
        }
    }
    return true
}

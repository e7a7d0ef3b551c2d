import Foundation
import KilnNetwork

extension Resource where Value: Decodable {
    /// A resource that sends `endpoint` through `client` on every load (no cache).
    ///
    /// ```swift
    /// let article = Resource(client: client, endpoint: .article(id: 7))
    /// await article.load()
    /// ```
    public convenience init(client: APIClient, endpoint: Endpoint<Value>) {
        self.init(load: {
            AsyncThrowingStream { continuation in
                let task = Task {
                    do {
                        let response = try await client.response(for: endpoint)
                        continuation.yield(Sourced(value: response.value, origin: .network, repairs: response.repairs))
                        continuation.finish()
                    } catch {
                        continuation.finish(throwing: error)
                    }
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        })
    }
}

extension Resource where Value: Decodable {
    /// A resource that loads `endpoint` through `client` under a cache policy.
    ///
    /// ```swift
    /// let profile = Resource(client: client, endpoint: .profile, policy: .cacheThenNetwork)
    /// await profile.load()   // shows the cached profile first, then the fresh one
    /// ```
    public convenience init(client: APIClient, endpoint: Endpoint<Value>, policy: CachePolicy) {
        self.init(load: { client.values(for: endpoint, policy: policy) })
    }
}

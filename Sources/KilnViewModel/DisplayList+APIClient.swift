import Foundation
import KilnModel
import KilnNetwork

extension DisplayList {
    /// A list loaded from `endpoint` through `client`: the envelope is checked, then the list at
    /// `path` inside the envelope's `data` (the whole `data` when `nil`) is decoded with `registry`.
    ///
    /// ```swift
    /// let tickets = DisplayList(client: client, endpoint: .get("/tickets"), registry: registry, at: "list") {
    ///     TicketRow($0)
    /// }
    /// ```
    public convenience init<Record>(
        client: APIClient,
        endpoint: Endpoint<JSONValue>,
        registry: ModelRegistry<Record>,
        at path: KilnModel.JSONPath? = nil,
        prepare: @escaping @Sendable (Record) -> Row
    ) {
        self.init(registry: registry, at: path, policy: client.decodingPolicy, load: {
            try await client.data(for: endpoint).value
        }, prepare: prepare)
    }
}

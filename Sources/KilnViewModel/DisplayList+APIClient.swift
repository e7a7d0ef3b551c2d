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
        self.init(produce: {
            // The client reads the body once: the envelope check and the list share one document.
            let response = try await client.response(for: endpoint) { document, data throws(ModelDecodingError) in
                let listPath = KilnModel.JSONPath((data?.components ?? []) + (path?.components ?? []))
                let decoded = try registry.decodeList(from: document, at: listPath, policy: client.decodingPolicy)
                return (decoded.items.map(prepare), decoded.repairs)
            }
            return (response.value, response.repairs)
        })
    }
}

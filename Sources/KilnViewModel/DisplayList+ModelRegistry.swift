import Foundation
import KilnModel

extension DisplayList {
    /// A list that loads its document with `load`, decodes the list at `path` with `registry` and
    /// turns each record into a row with `prepare` — all off the main actor.
    ///
    /// ```swift
    /// let tickets = DisplayList(registry: registry, at: "data.list") {
    ///     try await fetchTicketsDocument()
    /// } prepare: { record in
    ///     TicketRow(record)
    /// }
    /// ```
    public convenience init<Record>(
        registry: ModelRegistry<Record>,
        at path: KilnModel.JSONPath? = "data",
        policy: DecodingPolicy = DecodingPolicy(),
        load: @escaping @Sendable () async throws -> Data,
        prepare: @escaping @Sendable (Record) -> Row
    ) {
        self.init(produce: {
            let data = try await load()
            try Task.checkCancellation()
            let decoded = try registry.decodeList(from: data, at: path, policy: policy)
            return (decoded.items.map(prepare), decoded.repairs)
        })
    }

    /// A list whose rows are the decoded records themselves.
    public convenience init(
        registry: ModelRegistry<Row>,
        at path: KilnModel.JSONPath? = "data",
        policy: DecodingPolicy = DecodingPolicy(),
        load: @escaping @Sendable () async throws -> Data
    ) {
        self.init(registry: registry, at: path, policy: policy, load: load, prepare: { $0 })
    }
}

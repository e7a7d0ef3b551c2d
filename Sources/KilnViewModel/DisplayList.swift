import Foundation
import struct KilnModel.Repair
import Observation

/// A list of records of several server shapes shown through one display type ("de-model"
/// displays, such as tickets of several kinds): decoded by a `ModelRegistry` off the main actor, prepared once per item,
/// delivered on the main actor.
///
/// ```swift
/// var registry = ModelRegistry<any TicketRecord>(discriminator: "modelType")
/// registry.register("1", as: CouponTicket.self)
/// registry.register("2", as: CashTicket.self)
/// registry.register("3", as: ExchangeTicket.self)
///
/// let tickets = DisplayList(registry: registry, at: "list") {
///     try await client.data(for: .tickets).value          // the bytes of the envelope's data
/// } prepare: { record in
///     TicketRow(record)        // formats money and builds attributed text, once per ticket
/// }
/// await tickets.load()
/// tickets.rows        // [TicketRow]
/// tickets.repairs     // e.g. "list[3]: expected one of ["1", "2", "3"], found modelType 9 → skipped"
/// ```
///
/// `prepare` runs off the main actor, once per item per load: put the display values that are
/// costly to build (formatted money, attributed strings, dates) in the row it returns, and the
/// view reads stored values on every redraw. Adding a type is one `register` call.
@MainActor
@Observable
public final class DisplayList<Row: Sendable> {
    /// The loading state, holding the rows.
    public private(set) var state: Loadable<[Row]> = .idle
    /// What the decoder repaired or skipped, including elements of unknown types.
    public private(set) var repairs: [Repair] = []

    @ObservationIgnored private let produce: @Sendable () async throws -> (rows: [Row], repairs: [Repair])
    @ObservationIgnored private let inFlight = TaskSlot()
    @ObservationIgnored private var generation = 0

    /// A list whose rows come from `produce`, which runs off the main actor. The public
    /// initializers (in `DisplayList+ModelRegistry.swift`) build it from a registry.
    init(produce: @escaping @Sendable () async throws -> (rows: [Row], repairs: [Repair])) {
        self.produce = produce
    }

    deinit {
        inFlight.cancel()
    }

    /// The rows to show: the loaded ones, or those kept while reloading or after a failure.
    public var rows: [Row] { state.value ?? [] }

    /// Loads unless rows are loaded; joins a load in flight. Returns when the load ends.
    public func load() async {
        if await inFlight.join() { return }
        if case .loaded = state { return }
        await refresh()
    }

    /// Loads again, keeping the rows visible; cancels the load in flight.
    public func refresh() async {
        generation += 1
        let generation = generation
        state = state.reloading
        let task = Task { [weak self, produce] in
            // Decoding and preparing run on the global executor, never on the main actor.
            let work = Task.detached(priority: .userInitiated) { try await produce() }
            let result = await withTaskCancellationHandler {
                await work.result
            } onCancel: {
                work.cancel()
            }
            guard let self, self.generation == generation else { return }
            switch result {
            case .success(let produced):
                self.repairs = produced.repairs
                self.state = .loaded(produced.rows)
            case .failure(let error) where LoadFailure.isCancellation(error):
                self.state = self.state.value.map { .loaded($0) } ?? .idle
            case .failure(let error):
                self.state = .failed(LoadFailure(error), previous: self.state.value)
            }
        }
        await inFlight.run(task)
    }
}

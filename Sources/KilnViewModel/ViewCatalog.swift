/// Picks the view for an item by the template its ``ViewDescriptor`` names, so a list shows mixed
/// items without `switch`ing on their types.
///
/// ```swift
/// var catalog = ViewCatalog<any TicketDisplay, String>(describe: \.viewDescriptor)
/// catalog.register("TicketCell") { ticket in "\(ticket.goodName) \(ticket.deadline)" }
/// let lines = tickets.compactMap { catalog.view(for: $0) }
/// ```
///
/// `View` is whatever the UI layer builds: a `UITableViewCell` configuration, a SwiftUI
/// `AnyView`, a line of terminal text.
public struct ViewCatalog<Item, View> {
    private let describe: (Item) -> ViewDescriptor
    private var builders: [String: (Item) -> View] = [:]

    /// A catalog that reads each item's descriptor with `describe`.
    public init(describe: @escaping (Item) -> ViewDescriptor) {
        self.describe = describe
    }

    /// A catalog for items that describe themselves.
    public init() where Item: ViewDescribing {
        self.describe = { $0.viewDescriptor }
    }

    /// Builds views for items whose descriptor names `template`; a later registration replaces
    /// an earlier one.
    public mutating func register(_ template: String, build: @escaping (Item) -> View) {
        builders[template] = build
    }

    /// The templates registered, sorted.
    public var templates: [String] { builders.keys.sorted() }

    /// The descriptor of `item`.
    public func descriptor(for item: Item) -> ViewDescriptor { describe(item) }

    /// The view for `item`, or `nil` when nobody registered its template.
    public func view(for item: Item) -> View? {
        builders[describe(item).template].map { $0(item) }
    }
}

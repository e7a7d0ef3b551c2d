/// What a list needs to show an item without knowing its type: the view template, the reuse
/// identifier and an estimated height ("a model names its cell").
///
/// ```swift
/// struct ProductRow: ViewDescribing {
///     var viewDescriptor: ViewDescriptor { ViewDescriptor(template: "ProductCell", estimatedHeight: 88) }
/// }
/// ```
public struct ViewDescriptor: Sendable, Hashable {
    /// The name of the view that shows the item (a cell class, a SwiftUI view, a terminal renderer).
    public var template: String
    /// The identifier a table or collection view reuses views by; defaults to ``template``.
    public var reuseIdentifier: String
    /// The height to reserve before the view is measured, in points (or lines).
    public var estimatedHeight: Double

    /// Creates a descriptor; the reuse identifier defaults to the template name.
    public init(template: String, reuseIdentifier: String? = nil, estimatedHeight: Double = 44) {
        self.template = template
        self.reuseIdentifier = reuseIdentifier ?? template
        self.estimatedHeight = estimatedHeight
    }
}

/// A model or item view model that names the view that shows it.
///
/// A `@MainActor` view model implements ``viewDescriptor`` as `nonisolated` (a descriptor usually
/// depends on the type, not on state):
///
/// ```swift
/// extension BlogListItemViewModel: ViewDescribing {
///     nonisolated var viewDescriptor: ViewDescriptor { ViewDescriptor(template: "BlogCell") }
/// }
/// ```
///
/// ```swift
/// struct CouponTicket: TicketDisplay, ViewDescribing {
///     var viewDescriptor: ViewDescriptor { ViewDescriptor(template: "TicketCell", estimatedHeight: 120) }
/// }
/// ```
public protocol ViewDescribing {
    /// The view that shows this item.
    var viewDescriptor: ViewDescriptor { get }
}

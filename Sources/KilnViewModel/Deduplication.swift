/// Whether a ``PagedList`` drops items it already holds, and how it recognises them.
///
/// Servers that page by number shift their pages when items are added at the top, so page 2 can
/// repeat the end of page 1. With `.byID`, a repeated item is dropped (the first one stays).
///
/// ```swift
/// PagedList(pageSize: 20, deduplication: .byID) { … }              // Item: Identifiable
/// PagedList(pageSize: 20, deduplication: .by { $0.blogId }, load: …, makeItem: …)
/// ```
public struct Deduplication<Item>: Sendable {
    let key: (@MainActor @Sendable (Item) -> AnyHashable)?

    /// Keeps every item, repeated or not.
    public static var none: Deduplication { Deduplication(key: nil) }

    /// Drops items whose `key` the list already holds. The key is read on the main actor, so it
    /// may be a property of a `@MainActor` item view model.
    public static func by<Key: Hashable & Sendable>(_ key: @escaping @MainActor @Sendable (Item) -> Key) -> Deduplication {
        Deduplication(key: { AnyHashable(key($0)) })
    }
}

extension Deduplication where Item: Identifiable, Item.ID: Sendable {
    /// Drops items whose `id` the list already holds.
    public static var byID: Deduplication { .by { $0.id } }
}

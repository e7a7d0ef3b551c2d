extension Repair {
    /// What a property's keys held when none of them gave a usable value, and so which repair
    /// the log reports: the first present value that could not be used (``Kind/invalid``), else
    /// the first `null` (``Kind/null``), else ``Kind/missing`` at the first key.
    ///
    /// The one place that order is decided: each reader notes what it met at each key, in the
    /// order it tried them, and asks for the verdict. `Place` is what the reader needs to log
    /// the repair (a path, what was found there).
    @usableFromInline
    struct Miss<Place> {
        /// The first present value that could not be used, where it was.
        @usableFromInline var unusable: Place?
        /// The first `null`, where it was.
        @usableFromInline var null: Place?

        @inlinable init() {}

        /// Notes a present, non-null value that could not be used; the first one counts.
        @inlinable mutating func sawUnusable(_ place: Place) {
            if unusable == nil { unusable = place }
        }

        /// Notes a `null`; the first one counts.
        @inlinable mutating func sawNull(_ place: Place) {
            if null == nil { null = place }
        }

        /// Whether the verdict is settled (``Kind/invalid``): the keys left cannot change it.
        @inlinable var isSettled: Bool { unusable != nil }

        /// The repair to log and where: `absent` is the place of a ``Kind/missing`` value (the first key).
        @inlinable func verdict(absent: @autoclosure () -> Place) -> (kind: Kind, place: Place) {
            if let unusable { return (.invalid, unusable) }
            if let null { return (.null, null) }
            return (.missing, absent())
        }
    }
}

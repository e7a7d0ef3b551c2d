import KilnModel

/// Choices for the generated source: names, declaration style, conformances and how far type
/// inference goes.
///
/// ```swift
/// var options = GeneratorOptions(typeName: "Article")
/// options.keyPath = "data.list"
/// options.conformances = [.sendable, .equatable]
/// options.infersEnums = true
/// ```
public struct GeneratorOptions: Sendable, Hashable {
    /// What a generated model type is declared as.
    public enum Declaration: String, Sendable, Hashable, CaseIterable {
        /// `struct Article`.
        case `struct`
        /// `final class Article` (with `let` properties when it is `Sendable`).
        case finalClass = "class"
    }

    /// The access level written on generated types and properties.
    public enum AccessLevel: String, Sendable, Hashable, CaseIterable {
        /// No modifier: internal.
        case `internal`
        /// `package`.
        case package
        /// `public`.
        case `public`
    }

    /// A protocol generated types conform to.
    public enum Conformance: String, Sendable, Hashable, CaseIterable {
        /// `Sendable`.
        case sendable = "Sendable"
        /// `Equatable` (written by hand for classes).
        case equatable = "Equatable"
        /// `Hashable`, which implies `Equatable` (written by hand for classes).
        case hashable = "Hashable"
    }

    /// The name of the top-level type, e.g. `Article`.
    public var typeName: String
    /// Where the modelled value sits in each sample (`data.list`), or `nil` for the whole document.
    public var keyPath: KilnModel.JSONPath?
    /// `struct` or `final class`.
    public var declaration: Declaration = .struct
    /// The access level of everything generated.
    public var accessLevel: AccessLevel = .internal
    /// The protocols every generated type conforms to, `Sendable` by default.
    public var conformances: Set<Conformance> = [.sendable]
    /// When `true`, a key missing from some samples or `null` somewhere becomes a non-optional
    /// property that takes its type's default; otherwise it becomes optional.
    public var usesDefaults = false
    /// When `true`, string keys with a few distinct values become `FallbackEnum`s.
    public var infersEnums = false
    /// The most distinct values a string key may have to become an enum.
    public var enumMaximumCases = 8
    /// The fewest string values a key must show to become an enum (fewer is too little evidence).
    public var enumMinimumValues = 3
    /// Whether to write the header comment naming the samples.
    public var writesHeader = true

    /// Options for a model called `typeName`, with everything else at its default.
    public init(typeName: String) {
        self.typeName = typeName
    }
}

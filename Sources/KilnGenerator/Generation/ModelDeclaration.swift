import KilnModel

/// The generated code before it is written out: types, properties, enums.
struct TypeDeclaration {
    var name: String
    /// The key style declared with `@DataModel(keyStyle:)`, or `nil` for a plain `@DataModel`.
    var keyStyle: KeyStyle?
    var properties: [PropertyDeclaration] = []
    var nested: [NestedDeclaration] = []
    /// Declared as a final class whatever the options say: the type holds itself.
    var forcesClass = false
    /// Declared as a final class (the options ask for classes, or ``forcesClass``).
    var isClass = false
}

enum NestedDeclaration {
    case model(TypeDeclaration)
    case enumeration(EnumDeclaration)
    case union(UnionDeclaration)

    var name: String {
        switch self {
        case .model(let model): model.name
        case .enumeration(let enumeration): enumeration.name
        case .union(let union): union.name
        }
    }
}

/// A value the samples showed as several kinds: an enum with one case per kind, each holding
/// its value (`.int(Int)`, `.string(String)`, `.object(Author)`).
struct UnionDeclaration {
    struct Case {
        var name: String
        var type: String
    }

    var name: String
    /// In the order decoding tries them: booleans, integers, other numbers, text, arrays, objects.
    var cases: [Case]
    /// Declared `indirect`: a case holds a type that holds this union.
    var isIndirect = false
}

struct PropertyDeclaration {
    /// The Swift name, unescaped.
    var name: String
    /// The JSON key, written as `@Key` when `@DataModel` would not read and write it from the
    /// name in the type's key style.
    var key: String
    var needsKey: Bool
    /// A transform expression such as `.iso8601`.
    var transform: String?
    /// The type without the optional mark.
    var type: String
    var isOptional: Bool
    /// A note written after the declaration.
    var comment: String?
}

struct EnumDeclaration {
    struct Case {
        var name: String
        var rawValue: String
    }

    var name: String
    var cases: [Case]
    var fallback: String
}

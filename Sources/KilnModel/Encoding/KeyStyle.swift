import KilnSupport

/// How `@DataModel` spells the keys of properties that have no `@Key`.
///
/// Decoding always accepts both a property's Swift name and its snake_case form; encoding writes
/// one of them. Declare a model's style once, and it reads that spelling first and writes it:
///
/// ```swift
/// @DataModel(keyStyle: .snakeCase)
/// struct Article { var authorName = "" }   // reads and writes "author_name"
/// ```
///
/// A model that declares no style writes its Swift names, unless the encode asks for a style
/// through the encoder's `userInfo` (or `parameters(keyStyle:)`):
///
/// ```swift
/// let encoder = JSONEncoder()
/// encoder.userInfo[.kilnKeyStyle] = KeyStyle.snakeCase
/// let body = try encoder.encode(article) // {"author_name": …}
/// ```
///
/// A declared style always wins over the encoder's, as `@Key` does.
public enum KeyStyle: Sendable, Hashable {
    /// The Swift property name, `authorName` (what undeclared models write by default).
    case asWritten
    /// snake_case, `author_name`.
    case snakeCase

    /// The key written for the property `name`.
    public func key(for name: String) -> String {
        keyCase.key(for: name)
    }

    /// `authorName` → `author_name`, `userID` → `user_id` (the same rule `@DataModel` decodes with).
    public static func snakeCase(_ name: String) -> String {
        KeyCase.snakeCase(name)
    }

    /// The shared rule this style names.
    var keyCase: KeyCase {
        switch self {
        case .asWritten: .asWritten
        case .snakeCase: .snakeCase
        }
    }
}

extension CodingUserInfoKey {
    /// Where `@DataModel` encoding looks for a ``KeyStyle``, for models that declare none.
    public static let kilnKeyStyle: CodingUserInfoKey = {
        guard let key = CodingUserInfoKey(rawValue: "kiln.keyStyle") else {
            preconditionFailure("a non-empty raw value always makes a key")
        }
        return key
    }()
}

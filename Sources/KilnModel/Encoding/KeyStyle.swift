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
        switch self {
        case .asWritten: name
        case .snakeCase: Self.snakeCase(name)
        }
    }

    /// `authorName` → `author_name`, `userID` → `user_id` (the same rule `@DataModel` decodes with).
    public static func snakeCase(_ name: String) -> String {
        let chars = Array(name)
        var out = ""
        for (i, c) in chars.enumerated() {
            if c.isUppercase {
                let previousIsLower = i > 0 && (chars[i - 1].isLowercase || chars[i - 1].isNumber)
                let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
                let previousIsUpper = i > 0 && chars[i - 1].isUppercase
                if i > 0 && (previousIsLower || (previousIsUpper && nextIsLower)) && out.last != "_" { out.append("_") }
                out += c.lowercased()
            } else {
                out.append(c)
            }
        }
        return out
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

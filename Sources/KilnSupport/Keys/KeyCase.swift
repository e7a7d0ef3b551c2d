/// How a property's Swift name is spelled as a JSON key: the rule behind KilnModel's public
/// `KeyStyle` and behind the keys `@DataModel` writes at compile time.
///
/// The case names are the ones a model writes in `@DataModel(keyStyle:)`, so the macro reads a
/// declared style with `KeyCase(rawValue:)`.
package enum KeyCase: String, Sendable, Hashable, CaseIterable {
    /// The Swift name as written: `authorName`.
    case asWritten
    /// snake_case: `author_name`.
    case snakeCase

    /// The key this case gives the property `name`.
    package func key(for name: String) -> String {
        switch self {
        case .asWritten: name
        case .snakeCase: Self.snakeCase(name)
        }
    }

    /// `authorName` → `author_name`, `userID` → `user_id`, `avatarURLString` → `avatar_url_string`,
    /// `page2Size` → `page2_size`.
    ///
    /// An underscore goes before an uppercase letter that follows a lowercase letter or a digit,
    /// and before the last capital of an acronym that a lowercase letter follows (`URLString`),
    /// never twice in a row.
    package static func snakeCase(_ name: String) -> String {
        let chars = Array(name)
        var out = ""
        for (i, c) in chars.enumerated() {
            guard c.isUppercase else {
                out.append(c)
                continue
            }
            let previousIsLower = i > 0 && (chars[i - 1].isLowercase || chars[i - 1].isNumber)
            let previousIsUpper = i > 0 && chars[i - 1].isUppercase
            let nextIsLower = i + 1 < chars.count && chars[i + 1].isLowercase
            if i > 0 && (previousIsLower || (previousIsUpper && nextIsLower)) && out.last != "_" { out.append("_") }
            out += c.lowercased()
        }
        return out
    }
}

import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// The key style a model declares with `@DataModel(keyStyle:)`, as the macro reads it: the
/// macro's mirror of KilnModel's `KeyStyle` (a macro cannot import the library it serves).
enum ModelKeyStyle: String {
    case asWritten
    case snakeCase

    /// The key this style writes for the property `name`.
    func key(for name: String) -> String {
        switch self {
        case .asWritten: name
        case .snakeCase: Self.snakeCase(name)
        }
    }

    /// The style `@DataModel(keyStyle: .snakeCase)` declares; `nil` for a plain `@DataModel`.
    ///
    /// The keys are chosen at compile time, so the argument must name a case (`.snakeCase`,
    /// `KeyStyle.snakeCase`); anything else is diagnosed and the model is treated as undeclared.
    static func declared(by node: AttributeSyntax, in context: some MacroExpansionContext, diagnose: Bool = true) -> ModelKeyStyle? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return nil }
        for argument in arguments where argument.label?.text == "keyStyle" {
            if let member = argument.expression.as(MemberAccessExprSyntax.self),
                let style = ModelKeyStyle(rawValue: member.declName.baseName.text)
            {
                return style
            }
            if diagnose { context.diagnose(Diagnostic(node: argument.expression, message: KilnDiagnostic.keyStyleNotLiteral)) }
        }
        return nil
    }

    /// `authorName` → `author_name`, `userID` → `user_id`, `avatarURLString` → `avatar_url_string`
    /// (the same rule as `KeyStyle.snakeCase(_:)`; a test pins the two together).
    static func snakeCase(_ name: String) -> String {
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

import KilnSupport
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

extension KeyCase {
    /// The style `@DataModel(keyStyle: .snakeCase)` declares; `nil` for a plain `@DataModel`.
    ///
    /// The keys are chosen at compile time, so the argument must name a case (`.snakeCase`,
    /// `KeyStyle.snakeCase`); anything else is diagnosed and the model is treated as undeclared.
    static func declared(by node: AttributeSyntax, in context: some MacroExpansionContext, diagnose: Bool = true) -> KeyCase? {
        guard let arguments = node.arguments?.as(LabeledExprListSyntax.self) else { return nil }
        for argument in arguments where argument.label?.text == "keyStyle" {
            if let member = argument.expression.as(MemberAccessExprSyntax.self),
                let style = KeyCase(rawValue: member.declName.baseName.text)
            {
                return style
            }
            if diagnose { context.diagnose(Diagnostic(node: argument.expression, message: KilnDiagnostic.keyStyleNotLiteral)) }
        }
        return nil
    }
}

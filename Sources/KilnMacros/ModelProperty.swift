import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// A stored property of a `@DataModel` type, as written: its declaration and Kiln attributes.
/// ``PropertyPlan`` decides what the macro does with it.
struct ModelProperty {
    var name: String
    var type: TypeSyntax?
    var initializer: ExprSyntax?
    var isLet: Bool
    /// `@Key`'s arguments, in order.
    var keys: [KeyArgument]
    var isIgnored: Bool
    var transform: ExprSyntax?
    /// `@DefaultIfEmpty`: an empty string, array or object reads as absent.
    var defaultIfEmpty = false
    var node: Syntax

    /// One string given to `@Key`.
    struct KeyArgument {
        var text: String
        /// `@Key(literal:)`: one key however it is spelled, never a path.
        var isLiteral: Bool
        /// The argument, where a diagnostic about it points.
        var node: Syntax
    }

    /// Whether the declared type is optional (`T?`, `T!`, `Optional<T>`).
    var isOptional: Bool {
        guard let type else { return false }
        if type.is(OptionalTypeSyntax.self) || type.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return true }
        if let identifier = type.as(IdentifierTypeSyntax.self), identifier.name.text == "Optional" { return true }
        if let member = type.as(MemberTypeSyntax.self), member.name.text == "Optional" { return true }
        return false
    }

    /// Reads the stored properties of a type's members, with their Kiln attributes.
    static func collect(from members: MemberBlockItemListSyntax, in context: some MacroExpansionContext, diagnose: Bool = true) -> [ModelProperty] {
        var properties: [ModelProperty] = []
        for member in members {
            guard let variable = member.decl.as(VariableDeclSyntax.self) else { continue }
            let modifiers = variable.modifiers.map(\.name.text)
            if modifiers.contains("static") || modifiers.contains("class") || modifiers.contains("lazy") { continue }
            let isLet = variable.bindingSpecifier.tokenKind == .keyword(.let)

            var keys: [KeyArgument] = []
            var isIgnored = false
            var transform: ExprSyntax?
            var defaultIfEmpty = false
            for attribute in variable.attributes {
                guard let attribute = attribute.as(AttributeSyntax.self) else { continue }
                let attributeName = attribute.attributeName.trimmedDescription
                switch attributeName {
                case "Key", "KilnModel.Key", "Kiln.Key":
                    for argument in attribute.arguments?.as(LabeledExprListSyntax.self) ?? [] {
                        if argument.label?.text == "literal", let literal = argument.expression.as(StringLiteralExprSyntax.self),
                            let text = literal.representedLiteralValue
                        {
                            keys.append(KeyArgument(text: text, isLiteral: true, node: Syntax(literal)))
                        } else if let literal = argument.expression.as(StringLiteralExprSyntax.self), let text = literal.representedLiteralValue, !text.isEmpty
                        {
                            keys.append(KeyArgument(text: text, isLiteral: false, node: Syntax(literal)))
                        } else {
                            if diagnose { context.diagnose(Diagnostic(node: argument.expression, message: KilnDiagnostic.keyNotLiteral)) }
                        }
                    }
                case "DefaultIfEmpty", "KilnModel.DefaultIfEmpty", "Kiln.DefaultIfEmpty":
                    defaultIfEmpty = true
                case "Ignored", "KilnModel.Ignored", "Kiln.Ignored":
                    isIgnored = true
                case "Transform", "KilnModel.Transform", "Kiln.Transform":
                    transform = attribute.arguments?.as(LabeledExprListSyntax.self)?.first?.expression
                default:
                    continue
                }
            }

            for binding in variable.bindings {
                guard let identifier = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                if let accessors = binding.accessorBlock {
                    // Computed properties are not stored; observers (willSet/didSet) are.
                    switch accessors.accessors {
                    case .getter: continue
                    case .accessors(let list):
                        let kinds = list.map(\.accessorSpecifier.tokenKind)
                        if kinds.contains(.keyword(.get)) || kinds.contains(.keyword(.set)) || kinds.contains(.keyword(._read))
                            || kinds.contains(.keyword(._modify))
                        {
                            continue
                        }
                    }
                }
                let name = identifier.identifier.text.filter { $0 != "`" }
                properties.append(
                    ModelProperty(
                        name: name,
                        type: binding.typeAnnotation?.type.trimmed,
                        initializer: binding.initializer?.value.trimmed,
                        isLet: isLet,
                        keys: keys,
                        isIgnored: isIgnored,
                        transform: transform?.trimmed,
                        defaultIfEmpty: defaultIfEmpty,
                        node: Syntax(binding)
                    ))
            }
        }
        return properties
    }
}

import KilnSupport
import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// What `@DataModel` does with one stored property, decided once: where it is read from and
/// written to, the value it takes when nothing sets it, and whether it is read at all.
///
/// Every member the macro writes (`init()`, `init(from:)`, `init(kiln:)`, `encode(to:)`, the
/// memberwise initializer and the delegating factories) is built from these plans, so the rules
/// for `@Ignored`, `let`, optional and defaulted properties live here and nowhere else.
struct PropertyPlan {
    var name: String
    /// The declared type, or a literal initializer's (`"--"` is `String`); `nil` when neither says.
    var type: String?
    var isOptional: Bool
    /// The initial value written in the declaration.
    var initialValue: String?
    /// A `let` with an initial value: never set by an initializer, so never read and never a parameter.
    var isConstant: Bool
    /// Declared with `let`: only an initializer may set it.
    var isLet: Bool
    /// The value the property holds when no JSON sets it: its initial value, `nil` for an optional,
    /// `ModelDefaults.value()` for a read property; `nil` for an `@Ignored` property with neither
    /// (an error).
    var defaultValue: String?
    /// Whether Swift gives the property its value by itself: an initial value, or `nil` for an
    /// optional `var`.
    var hasImplicitValue: Bool
    /// How the decoding initializers read it; `nil` when they never do (`@Ignored`, a constant).
    var read: Read?
    /// How `encode(to:)` writes it; `nil` when it never does (`@Ignored`).
    var write: Write?
    var node: Syntax

    /// The value an initializer that does not read this property assigns; `nil` when Swift gives
    /// it one (or, for an `@Ignored` property with no value, when there is none to give).
    var valueWhenNotRead: String? { hasImplicitValue ? nil : defaultValue }

    /// A `let` with an initial value and no `@Ignored`: encoded, but no initializer can set it,
    /// which the macro warns about.
    var isWrittenButNeverRead: Bool { write != nil && read == nil }

    /// Whether the property is `@Ignored` with no value of its own to fall back on.
    var lacksValue: Bool { defaultValue == nil }

    /// A key the property is read or written at.
    struct Key {
        /// The key as written: `author.name`, `pub_date`.
        var text: String
        /// The steps it names: one `.key(text)` for a single key or `@Key(literal:)`.
        var segments: [KeyPathSegment]

        /// One key, taken as written.
        init(single text: String) {
            self.text = text
            segments = [.key(text)]
        }

        init(text: String, segments: [KeyPathSegment]) {
            self.text = text
            self.segments = segments
        }

        /// Whether the key reaches into nested values (`author.name`, `items[0]`).
        var isPath: Bool { segments != [.key(text)] }
    }

    /// A property's read, the same through `init(from:)` and `init(kiln:)`.
    struct Read {
        /// The keys tried, in order.
        var keys: [Key]
        var transform: String?
        /// `@DefaultIfEmpty` without a transform (a transform decides emptiness itself).
        var emptyIsMissing: Bool
        /// Whether the call names `JSONPath`s rather than plain keys.
        var usesPaths: Bool {
            emptyIsMissing || keys.count > 2 || keys.contains(where: \.isPath)
        }
    }

    /// Where `encode(to:)` writes a property.
    struct Write {
        enum Place {
            /// Under the name in the encoder's `KeyStyle` (no `@Key`, no declared style).
            case property
            /// Under one key.
            case key(String)
            /// At a path into nested objects.
            case path([KeyPathSegment])
            /// Under a key another property's path also writes into: the two are merged.
            case merging(String)
        }
        var place: Place
        var transform: String?
    }

    /// The plans for a model's properties, in declaration order.
    ///
    /// A `@Key` path the key-path grammar rejects is diagnosed at its argument when `context` is
    /// given, and read as one key as written (what `JSONPath`'s string literal does).
    static func plans(for properties: [ModelProperty], style: KeyCase?, context: (any MacroExpansionContext)?) -> [PropertyPlan] {
        var plans = properties.map { plan(for: $0, style: style, context: context) }
        // Keys that begin another property's key path: properties written there are merged.
        let pathRoots = Set(
            plans.compactMap { plan -> String? in
                // A path of one key is a transformed property's plain key, not a path.
                guard case .path(let segments)? = plan.write?.place, segments.count > 1, case .key(let root)? = segments.first else { return nil }
                return root
            })
        for index in plans.indices {
            guard var write = plans[index].write, write.transform == nil else { continue }
            switch write.place {
            case .property where pathRoots.contains(plans[index].name):
                write.place = .merging(plans[index].name)
            case .key(let key) where pathRoots.contains(key):
                write.place = .merging(key)
            default:
                continue
            }
            plans[index].write = write
        }
        return plans
    }

    private static func plan(for property: ModelProperty, style: KeyCase?, context: (any MacroExpansionContext)?) -> PropertyPlan {
        let initialValue = property.initializer?.description
        let isConstant = property.isLet && initialValue != nil
        let defaultValue: String?
        if let initialValue {
            defaultValue = initialValue
        } else if property.isOptional {
            defaultValue = "nil"
        } else if property.isIgnored {
            defaultValue = nil // never read, so nothing to fall back on: diagnosed
        } else {
            defaultValue = "KilnModel.ModelDefaults.value()"
        }
        let transform = property.transform?.description
        let keys = property.keys.map { key($0, context: context) }

        var read: Read?
        if !property.isIgnored && !isConstant {
            read = Read(
                keys: readKeys(of: property.name, keys: keys, style: style),
                transform: transform,
                emptyIsMissing: property.defaultIfEmpty && transform == nil
            )
        }
        var write: Write?
        if !property.isIgnored {
            // `@Key`'s first key, or the name in the model's declared style; with neither, the
            // encoder's `KeyStyle` chooses.
            let key = keys.first ?? style.map { Key(single: $0.key(for: property.name)) }
            let place: Write.Place
            if let key, transform != nil || key.isPath {
                place = .path(key.segments)
            } else if let key {
                place = .key(key.text)
            } else {
                place = .property
            }
            write = Write(place: place, transform: transform)
        }
        return PropertyPlan(
            name: property.name,
            type: property.type?.description ?? property.initializer.flatMap(literalType),
            isOptional: property.isOptional,
            initialValue: initialValue,
            isConstant: isConstant,
            isLet: property.isLet,
            defaultValue: defaultValue,
            hasImplicitValue: initialValue != nil || (property.isOptional && !property.isLet),
            read: read,
            write: write,
            node: property.node
        )
    }

    /// The keys tried when decoding, in order: `@Key`'s; otherwise the key the model's style
    /// writes first and the other spelling (the Swift name or its snake_case twin) as a tolerant
    /// alias. An undeclared model reads the Swift name first.
    private static func readKeys(of name: String, keys: [Key], style: KeyCase?) -> [Key] {
        if !keys.isEmpty { return keys }
        let snake = KeyCase.snakeCase(name)
        guard snake != name else { return [Key(single: name)] }
        let names = style == .snakeCase ? [snake, name] : [name, snake]
        return names.map(Key.init(single:))
    }

    /// A `@Key` argument read with the key-path grammar, or as one key for `@Key(literal:)`.
    private static func key(_ argument: ModelProperty.KeyArgument, context: (any MacroExpansionContext)?) -> Key {
        if argument.isLiteral || KeyPathGrammar.isSingleKey(argument.text) { return Key(single: argument.text) }
        do {
            return Key(text: argument.text, segments: try KeyPathGrammar.segments(of: argument.text))
        } catch {
            context?.diagnose(Diagnostic(node: argument.node, message: KeyPathDiagnostic(error: error)))
            return Key(single: argument.text)
        }
    }

    /// The type of a literal initializer: `"--"` is `String`, `0` is `Int`, `1.5` is `Double`.
    static func literalType(_ expression: ExprSyntax) -> String? {
        if expression.is(StringLiteralExprSyntax.self) { return "String" }
        if expression.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if expression.is(FloatLiteralExprSyntax.self) { return "Double" }
        if expression.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        if let prefix = expression.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            return literalType(prefix.expression)
        }
        return nil
    }
}

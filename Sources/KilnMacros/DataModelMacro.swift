import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxBuilder
import SwiftSyntaxMacros

/// `@DataModel`: generates `init()`, a tolerant `init(from:)`, `init(kiln:)`, `encode(to:)`, a
/// memberwise initializer, and the `DataModel` conformance.
///
/// `@DataModel(keyStyle:)` fixes the keys of properties without `@Key` at compile time: both
/// initializers read the styled key first and the other spelling as an alias, and `encode(to:)`
/// writes the styled key. A plain `@DataModel` reads the Swift name first and lets the encoder's
/// `KeyStyle` choose the written key.
public struct DataModelMacro: MemberMacro, ExtensionMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        guard isStructOrFinalClass(declaration) else {
            context.diagnose(Diagnostic(node: node, message: KilnDiagnostic.notStructOrFinalClass))
            return []
        }
        let properties = ModelProperty.collect(from: declaration.memberBlock.members, in: context)
        let style = ModelKeyStyle.declared(by: node, in: context)
        // `nonisolated` members and conformances: a model decodes and encodes off the main
        // actor even in a target whose default isolation is MainActor (new Xcode app targets).
        let access = accessPrefix(of: declaration) + "nonisolated "
        let existing = existingMembers(of: declaration)

        var decls: [DeclSyntax] = []
        if usesDelegatingInitializers(declaration, properties: properties, existing: existing) {
            // The initializers go in the conformance extension (see `delegatingInitializers`);
            // each property's read is a static function here, where its type, default and
            // transform are written.
            for property in properties where property.isLet && property.initializer != nil && !property.isIgnored {
                context.diagnose(Diagnostic(node: property.node, message: KilnDiagnostic.letWithValueNotDecoded))
            }
            if !existing.hasEncode { decls.append(makeEncode(properties, style: style, access: access)) }
            decls += propertyReaders(properties, style: style, existing: existing, context: context)
            return decls
        }
        if !existing.hasEmptyInit {
            decls.append(makeDefaultInit(properties, access: access, context: context))
        }
        if !existing.hasDecodingInit {
            decls.append(makeDecodingInit(properties, style: style, access: access, hook: existing.didDecodeHook, context: context))
        }
        if !existing.hasFastInit {
            decls.append(makeFastInit(properties, style: style, access: access, hook: existing.didDecodeHook, context: context))
        }
        if !existing.hasEncode {
            decls.append(makeEncode(properties, style: style, access: access))
        }
        if let memberwise = makeMemberwiseInit(properties, access: access, existing: existing) {
            decls.append(memberwise)
        }
        return decls
    }

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard isStructOrFinalClass(declaration) else { return [] }
        // The member expansion has diagnosed the declaration; this one only builds.
        let properties = ModelProperty.collect(from: declaration.memberBlock.members, in: context, diagnose: false)
        let existing = existingMembers(of: declaration)
        let members =
            usesDelegatingInitializers(declaration, properties: properties, existing: existing)
            ? delegatingInitializers(properties, style: ModelKeyStyle.declared(by: node, in: context, diagnose: false), existing: existing, context: context)
            : []
        guard !protocols.isEmpty || !members.isEmpty else { return [] }
        // Only the conformances the type does not declare already, qualified so a local type
        // of the same name cannot capture them.
        let names = protocols.map { protocolType -> String in
            let name = protocolType.trimmedDescription
            return "nonisolated " + (name.hasPrefix("KilnModel.") ? name : "KilnModel." + name)
        }
        let conformances = names.isEmpty ? "" : ": " + names.joined(separator: ", ")
        let body = members.isEmpty ? "" : "\n" + members.joined(separator: "\n\n") + "\n"
        let decl: DeclSyntax = "extension \(type.trimmed)\(raw: conformances) {\(raw: body)}"
        guard let ext = decl.as(ExtensionDeclSyntax.self) else { return [] }
        return [ext]
    }

    // MARK: Delegating initializers

    /// Whether the decoding initializers delegate to the struct's implicit memberwise
    /// initializer, from the conformance extension, instead of setting each property.
    ///
    /// Swift's definite-initialization check of an initializer that sets each of n stored
    /// properties grows about as n³ (a 400-property model took a minute to compile); values read
    /// into locals and handed to the implicit memberwise initializer in one call are checked in
    /// linear time. This needs the implicit initializer: a struct (classes have none), with no
    /// initializer of its own, internal or less (a public model declares its memberwise
    /// initializer, which takes the implicit one away).
    static func usesDelegatingInitializers(_ declaration: some DeclGroupSyntax, properties: [ModelProperty], existing: ExistingMembers) -> Bool {
        guard declaration.is(StructDeclSyntax.self), existing.initializerLabels.isEmpty, accessPrefix(of: declaration).isEmpty else { return false }
        return properties.allSatisfy { property in
            if property.isIgnored { return property.initializer != nil || property.isOptional }
            if property.isLet && property.initializer != nil { return true }
            return propertyType(property) != nil
        }
    }

    /// The declared type, or a literal initializer's (`"--"` is `String`).
    static func propertyType(_ property: ModelProperty) -> String? {
        property.type?.description ?? property.initializer.flatMap(literalType)
    }

    /// Whether the decoding initializers read this property.
    static func isRead(_ property: ModelProperty) -> Bool {
        !property.isIgnored && !(property.isLet && property.initializer != nil)
    }

    /// `_KilnReaders`, an enum in the type holding each read property's read through each
    /// container, `r_<name>` and `f_<name>`: declared inside the type, where the property's
    /// type, default and transform expressions mean what they mean in its declaration.
    static func propertyReaders(
        _ properties: [ModelProperty], style: ModelKeyStyle?, existing: ExistingMembers, context: some MacroExpansionContext
    ) -> [DeclSyntax] {
        var functions: [String] = []
        for property in properties where isRead(property) {
            guard let type = propertyType(property) else { continue }
            if !existing.hasDecodingInit {
                let call = decodeCall(property, style: style, context: context)
                functions.append("static func r_\(property.name)(_ container: KilnModel.ModelDecodingContainer) -> \(type) {\n\(call)\n}")
            }
            if !existing.hasFastInit {
                let call = decodeCall(property, style: style, context: context, receiver: "reader", diagnose: false)
                functions.append("static func f_\(property.name)(_ reader: inout KilnModel.KilnObjectReader) -> \(type) {\n\(call)\n}")
            }
        }
        guard !functions.isEmpty else { return [] }
        return ["nonisolated private enum _KilnReaders {\n\(raw: functions.joined(separator: "\n"))\n}"]
    }

    /// `init()`, `init(from:)` and `init(kiln:)`. Each takes its value whole from a static
    /// factory (`_kilnMake`, `_kilnMakeFast`, `_kilnEmpty`) that reads every property through its
    /// reader into a local, in declaration order, and returns the implicit memberwise
    /// initializer's result: checked in linear time, where a delegating initializer holding the
    /// same locals is not.
    static func delegatingInitializers(
        _ properties: [ModelProperty], style: ModelKeyStyle?, existing: ExistingMembers, context: some MacroExpansionContext
    ) -> [String] {
        // The implicit memberwise initializer's parameters: stored properties, but not a `let`
        // with a value; a `var` with a value or an optional `var` may be left out.
        let parameters = properties.filter { !($0.isLet && $0.initializer != nil) }
        func memberwise(_ value: (ModelProperty) -> String?) -> String {
            let arguments = parameters.compactMap { property -> String? in
                guard let expression = value(property) else { return nil }
                return "\(argumentLabel(property.name)): \(expression)"
            }
            return "Self(\(arguments.joined(separator: ", ")))"
        }
        func local(_ property: ModelProperty) -> String { "_\(property.name)" }
        func unread(_ property: ModelProperty) -> String? {
            // Left to the parameter's default, except an optional `let`, which has none.
            property.initializer == nil && property.isOptional && property.isLet ? "nil" : nil
        }

        var members: [String] = []
        // Swift gives a struct whose properties all have values an `init()` of its own.
        let hasImplicitEmptyInit = parameters.allSatisfy { $0.initializer != nil || ($0.isOptional && !$0.isLet) }
        if !existing.hasEmptyInit && !hasImplicitEmptyInit {
            let value = memberwise { property in
                if property.initializer != nil || (property.isOptional && !property.isLet) { return nil }
                if property.isOptional { return "nil" }
                return property.isIgnored ? nil : "KilnModel.ModelDefaults.value()"
            }
            members.append("nonisolated init() {\nself = Self._kilnEmpty()\n}")
            members.append("nonisolated private static func _kilnEmpty() -> Self {\n\(value)\n}")
        }
        if !existing.hasDecodingInit {
            var lines: [String] = []
            for property in properties where isRead(property) {
                lines.append("let \(local(property)) = _KilnReaders.r_\(property.name)(container)")
            }
            lines.append("return " + memberwise { isRead($0) ? local($0) : unread($0) })
            var initializer = [
                "let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)",
                "self = Self._kilnMake(container)",
            ]
            if let hook = existing.didDecodeHook { initializer.append(hook.call(recorder: "KilnModel.RepairRecorder(decoder: decoder)")) }
            members.append("nonisolated init(from decoder: any Decoder) throws {\n\(initializer.joined(separator: "\n"))\n}")
            members.append(
                "nonisolated private static func _kilnMake(_ container: KilnModel.ModelDecodingContainer) -> Self {\n\(lines.joined(separator: "\n"))\n}")
        }
        if !existing.hasFastInit {
            var lines: [String] = []
            for property in properties where isRead(property) {
                lines.append("let \(local(property)) = _KilnReaders.f_\(property.name)(&reader)")
            }
            lines.append("return " + memberwise { isRead($0) ? local($0) : unread($0) })
            var initializer = ["self = Self._kilnMakeFast(&reader)"]
            if let hook = existing.didDecodeHook { initializer.append(hook.call(recorder: "reader.repairRecorder")) }
            members.append("nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {\n\(initializer.joined(separator: "\n"))\n}")
            members.append(
                "nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {\n\(lines.joined(separator: "\n"))\n}")
        }
        return members
    }

    // MARK: Generated members

    static func makeDefaultInit(_ properties: [ModelProperty], access: String, context: some MacroExpansionContext) -> DeclSyntax {
        var lines: [String] = []
        for property in properties where property.initializer == nil {
            if property.isIgnored && !property.isOptional {
                context.diagnose(Diagnostic(node: property.node, message: KilnDiagnostic.ignoredNeedsValue))
                continue
            }
            if property.isOptional {
                // A `var` optional starts as nil by itself; a `let` one must be set.
                if property.isLet { lines.append("self.\(property.name) = nil") }
                continue
            }
            lines.append("self.\(property.name) = KilnModel.ModelDefaults.value()")
        }
        return "\(raw: access)init() {\(raw: block(lines))}"
    }

    static func makeDecodingInit(
        _ properties: [ModelProperty], style: ModelKeyStyle?, access: String, hook: DidDecodeHook? = nil, context: some MacroExpansionContext
    ) -> DeclSyntax {
        var lines: [String] = []
        for property in properties {
            if property.isIgnored {
                if property.initializer == nil && !property.isOptional { continue } // diagnosed in init()
                if property.initializer == nil && property.isLet { lines.append("self.\(property.name) = nil") }
                continue
            }
            if property.isLet && property.initializer != nil {
                context.diagnose(Diagnostic(node: property.node, message: KilnDiagnostic.letWithValueNotDecoded))
                continue
            }
            lines.append("self.\(property.name) = \(decodeCall(property, style: style, context: context))")
        }
        let opening =
            lines.isEmpty
            ? "_ = try decoder.container(keyedBy: KilnModel.AnyCodingKey.self)"
            : "let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)"
        if let hook { lines.append(hook.call(recorder: "KilnModel.RepairRecorder(decoder: decoder)")) }
        return "\(raw: access)init(from decoder: any Decoder) throws {\(raw: block([opening] + lines))}"
    }

    /// `init(kiln:)`: the same reads as `init(from:)`, keys in the same order, straight from Kiln's
    /// tape, without the `Decoder` protocol in between (`KilnDecoder` takes this path).
    static func makeFastInit(
        _ properties: [ModelProperty], style: ModelKeyStyle?, access: String, hook: DidDecodeHook? = nil, context: some MacroExpansionContext
    ) -> DeclSyntax {
        var lines: [String] = []
        for property in properties {
            if property.isIgnored {
                if property.initializer == nil && property.isOptional && property.isLet { lines.append("self.\(property.name) = nil") }
                continue
            }
            if property.isLet && property.initializer != nil { continue } // diagnosed in init(from:)
            lines.append("self.\(property.name) = \(decodeCall(property, style: style, context: context, receiver: "reader", diagnose: false))")
        }
        if let hook { lines.append(hook.call(recorder: "reader.repairRecorder")) }
        return "\(raw: access)init(kiln reader: inout KilnModel.KilnObjectReader) {\(raw: block(lines))}"
    }

    /// One property's read, shared by `init(from:)` and `init(kiln:)` so both try the same keys in
    /// the same order.
    static func decodeCall(
        _ property: ModelProperty, style: ModelKeyStyle?, context: some MacroExpansionContext, receiver: String = "container", diagnose: Bool = true
    ) -> String {
        let method = property.isOptional ? "optional" : "value"
        let name = stringLiteral(property.name)
        var arguments: [String] = []
        let keys = property.decodingKeys(style)
        let emptyIsMissing = property.defaultIfEmpty && property.transform == nil
        let usesPaths = property.transform != nil || emptyIsMissing || keys.count > 2 || keys.contains(where: property.isPath)
        if usesPaths {
            let paths = keys.map { pathLiteral($0, of: property, node: diagnose ? property.node : nil, context: diagnose ? context : nil) }
            arguments.append("paths: [\(paths.joined(separator: ", "))]")
            if let transform = property.transform { arguments.append("transform: \(transform.description)") }
            if emptyIsMissing { arguments.append("emptyIsMissing: true") }
        } else {
            arguments.append(contentsOf: keys.map(stringLiteral))
        }
        arguments.append("property: \(name)")
        if let initializer = property.initializer {
            arguments.append("default: \(initializer.description)")
        }
        return "\(receiver).\(method)(\(arguments.joined(separator: ", ")))"
    }

    static func makeEncode(_ properties: [ModelProperty], style: ModelKeyStyle?, access: String) -> DeclSyntax {
        var lines: [String] = []
        // Keys that begin another property's key path: properties written there are merged.
        let pathRoots = Set(
            properties.filter { !$0.isIgnored }.compactMap { property in property.fixedEncodingKey(style).flatMap { property.isPath($0) ? $0 : nil } }
                .compactMap { $0.split(whereSeparator: { $0 == "." || $0 == "[" }).first.map(String.init) })
        for property in properties where !property.isIgnored {
            let value = "self.\(property.name)"
            let method = property.isOptional ? "encodeIfPresent" : "encode"
            let key = property.fixedEncodingKey(style)
            let name = stringLiteral(property.name)
            if let transform = property.transform {
                let place = key.map { "at: \(pathLiteral($0, of: property, node: nil, context: nil))" } ?? "property: \(name)"
                lines.append("try container.\(method)(\(value), \(place), transform: \(transform.description))")
            } else if let key, property.isPath(key) {
                lines.append("try container.\(method)(\(value), at: \(keyPathLiteral(key, node: nil, context: nil)))")
            } else if pathRoots.contains(key ?? property.name) {
                lines.append("try container.\(method)(\(value), merging: \(stringLiteral(key ?? property.name)))")
            } else if let key {
                lines.append("try container.\(method)(\(value), forKey: \(stringLiteral(key)))")
            } else {
                lines.append("try container.\(method)(\(value), property: \(name))")
            }
        }
        let body = ["var container = KilnModel.ModelEncodingContainer(encoder: encoder)"] + lines + ["try container.finish()"]
        return "\(raw: access)func encode(to encoder: any Encoder) throws {\(raw: block(body))}"
    }

    /// The `JSONPath` a key stands for: parsed as a path, or one key for `@Key(literal:)`.
    static func pathLiteral(_ key: String, of property: ModelProperty, node: Syntax?, context: (any MacroExpansionContext)?) -> String {
        property.isPath(key) || !property.keyIsLiteral
            ? keyPathLiteral(key, node: node, context: context)
            : "KilnModel.JSONPath([.key(\(stringLiteral(key)))])"
    }

    // MARK: Helpers

    /// The lines of a body, each on its own line; nothing for an empty body.
    static func block(_ lines: [String]) -> String {
        lines.isEmpty ? "\n" : "\n" + lines.joined(separator: "\n") + "\n"
    }

    static func isStructOrFinalClass(_ declaration: some DeclGroupSyntax) -> Bool {
        if declaration.is(StructDeclSyntax.self) { return true }
        if let classDecl = declaration.as(ClassDeclSyntax.self) {
            return classDecl.modifiers.contains { $0.name.tokenKind == .keyword(.final) }
        }
        return false
    }

    static func accessPrefix(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.tokenKind {
            case .keyword(.public), .keyword(.open): return "public "
            case .keyword(.package): return "package "
            default: continue
            }
        }
        return ""
    }

    /// `init(id: Int = …, title: String = "--")`, since generated initializers take away the
    /// struct's implicit memberwise one. Left out when a property's type cannot be read from
    /// its declaration or the type already has an initializer with these labels.
    static func makeMemberwiseInit(_ properties: [ModelProperty], access: String, existing: ExistingMembers) -> DeclSyntax? {
        let settable = properties.filter { !($0.isLet && $0.initializer != nil) }
        guard !settable.isEmpty else { return nil }
        var parameters: [String] = []
        var assignments: [String] = []
        for property in settable {
            guard let type = property.type?.description ?? property.initializer.flatMap(literalType) else { return nil }
            let defaultValue: String
            if let initializer = property.initializer {
                defaultValue = initializer.description
            } else if property.isOptional {
                defaultValue = "nil"
            } else if property.isIgnored {
                return nil
            } else {
                defaultValue = "KilnModel.ModelDefaults.value()"
            }
            parameters.append("\(parameterLabel(property.name)): \(type) = \(defaultValue)")
            assignments.append("self.\(property.name) = `\(property.name)`")
        }
        let labels = settable.map(\.name)
        guard !existing.initializerLabels.contains(labels) else { return nil }
        return "\(raw: access)init(\(raw: parameters.joined(separator: ", "))) {\(raw: block(assignments))}"
    }

    /// A property name as an argument label in a call: only `inout` needs backticks there.
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// A property name as a parameter name: `inout`, `var` and `let` need backticks there; other
    /// keywords do not.
    static func parameterLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
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

    /// A `didDecode()` or `didDecode(_:)` method the decoding initializers call last.
    enum DidDecodeHook {
        case plain
        case recording

        func call(recorder: String) -> String {
            switch self {
            case .plain: "self.didDecode()"
            case .recording: "self.didDecode(\(recorder))"
            }
        }
    }

    struct ExistingMembers {
        var didDecodeHook: DidDecodeHook?
        var initializerLabels: [[String]] = []
        var hasEmptyInit = false
        var hasDecodingInit = false
        var hasEncode = false
        var hasFastInit = false
    }

    static func existingMembers(of declaration: some DeclGroupSyntax) -> ExistingMembers {
        var existing = ExistingMembers()
        for member in declaration.memberBlock.members {
            if let initializer = member.decl.as(InitializerDeclSyntax.self) {
                let parameters = initializer.signature.parameterClause.parameters
                existing.initializerLabels.append(parameters.map(\.firstName.text))
                if parameters.isEmpty { existing.hasEmptyInit = true }
                if parameters.count == 1, parameters.first?.firstName.text == "from" { existing.hasDecodingInit = true }
                if parameters.count == 1, parameters.first?.firstName.text == "kiln" { existing.hasFastInit = true }
            } else if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "encode",
                function.signature.parameterClause.parameters.first?.firstName.text == "to"
            {
                existing.hasEncode = true
            } else if let function = member.decl.as(FunctionDeclSyntax.self), function.name.text == "didDecode",
                !function.modifiers.contains(where: { $0.name.tokenKind == .keyword(.static) })
            {
                switch function.signature.parameterClause.parameters.count {
                case 0: existing.didDecodeHook = .plain
                case 1: existing.didDecodeHook = .recording
                default: break
                }
            }
        }
        return existing
    }

    static func stringLiteral(_ text: String) -> String {
        StringLiteralExprSyntax(content: text).description
    }

    /// `"author.name"` → `KilnModel.JSONPath([.key("author"), .key("name")])`, parsed at compile time.
    static func keyPathLiteral(_ text: String, node: Syntax?, context: (any MacroExpansionContext)?) -> String {
        var components: [String] = []
        for segment in text.split(separator: ".", omittingEmptySubsequences: false) {
            var rest = Substring(segment)
            if rest.isEmpty, let node, let context {
                context.diagnose(Diagnostic(node: node, message: KilnDiagnostic.emptyKeyPath))
            }
            if let bracket = rest.firstIndex(of: "[") {
                let key = rest[..<bracket]
                if !key.isEmpty { components.append(".key(\(stringLiteral(String(key))))") }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    let digits = rest[rest.index(after: rest.startIndex)..<close]
                    if let index = Int(digits) { components.append(".index(\(index))") }
                    rest = rest[rest.index(after: close)...]
                }
            } else if !rest.isEmpty {
                components.append(".key(\(stringLiteral(String(rest))))")
            }
        }
        return "KilnModel.JSONPath([\(components.joined(separator: ", "))])"
    }
}

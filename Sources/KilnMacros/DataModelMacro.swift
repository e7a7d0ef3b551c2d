import KilnSupport
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
        let style = KeyCase.declared(by: node, in: context)
        let plans = PropertyPlan.plans(for: properties, style: style, context: context)
        // `nonisolated` members and conformances: a model decodes and encodes off the main
        // actor even in a target whose default isolation is MainActor (new Xcode app targets).
        let access = accessPrefix(of: declaration) + "nonisolated "
        let existing = existingMembers(of: declaration)
        diagnose(plans, existing: existing, context: context)

        var decls: [DeclSyntax] = []
        if usesDelegatingInitializers(declaration, plans: plans, existing: existing) {
            // The initializers go in the conformance extension (see `delegatingInitializers`);
            // each property's read is a static function here, where its type, default and
            // transform are written.
            if !existing.hasEncode { decls.append(makeEncode(plans, access: access)) }
            decls += propertyReaders(plans, existing: existing)
            if !existing.hasFastInit { decls += makeKeySlots(plans, access: access) }
            return decls
        }
        if !existing.hasEmptyInit {
            decls.append(makeDefaultInit(plans, access: access))
        }
        if !existing.hasDecodingInit {
            decls.append(makeDecodingInit(plans, access: access, hook: existing.didDecodeHook))
        }
        if !existing.hasFastInit {
            if readsIntoMadeValue(declaration, plans: plans, existing: existing) {
                decls += makeFastInitReadingIntoMadeValue(plans, access: access, hook: existing.didDecodeHook)
            } else {
                decls.append(makeFastInit(plans, access: access, hook: existing.didDecodeHook))
            }
            decls += makeKeySlots(plans, access: access)
        }
        if !existing.hasEncode {
            decls.append(makeEncode(plans, access: access))
        }
        if let memberwise = makeMemberwiseInit(plans, access: access, existing: existing) {
            decls.append(memberwise)
        }
        return decls
    }

    /// The warnings and errors about properties that a member the macro writes would meet: a
    /// `let` with a value that `init(from:)` cannot read, an `@Ignored` property `init()` has no
    /// value for.
    static func diagnose(_ plans: [PropertyPlan], existing: ExistingMembers, context: some MacroExpansionContext) {
        for plan in plans {
            if plan.lacksValue && !existing.hasEmptyInit {
                context.diagnose(Diagnostic(node: plan.node, message: KilnDiagnostic.ignoredNeedsValue))
            }
            if plan.isWrittenButNeverRead && !existing.hasDecodingInit {
                context.diagnose(Diagnostic(node: plan.node, message: KilnDiagnostic.letWithValueNotDecoded))
            }
        }
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
        let style = KeyCase.declared(by: node, in: context, diagnose: false)
        let plans = PropertyPlan.plans(for: properties, style: style, context: nil)
        let existing = existingMembers(of: declaration)
        let members = usesDelegatingInitializers(declaration, plans: plans, existing: existing) ? delegatingInitializers(plans, existing: existing) : []
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
    static func usesDelegatingInitializers(_ declaration: some DeclGroupSyntax, plans: [PropertyPlan], existing: ExistingMembers) -> Bool {
        guard declaration.is(StructDeclSyntax.self), existing.initializerLabels.isEmpty, accessPrefix(of: declaration).isEmpty else { return false }
        // Each read property's reader names its type; an unread one needs a value of its own.
        return plans.allSatisfy { plan in plan.read == nil ? !plan.lacksValue : plan.type != nil }
    }

    /// `_KilnReaders`, an enum in the type holding each read property's read through each
    /// container, `r_<name>` and `f_<name>`: declared inside the type, where the property's
    /// type, default and transform expressions mean what they mean in its declaration.
    static func propertyReaders(_ plans: [PropertyPlan], existing: ExistingMembers) -> [DeclSyntax] {
        var functions: [String] = []
        let slots = slotKeys(plans)
        for plan in plans {
            guard let read = plan.read, let type = plan.type else { continue }
            if !existing.hasDecodingInit {
                let call = decodeCall(plan, read, receiver: "container", slots: nil)
                functions.append("static func r_\(plan.name)(_ container: KilnModel.ModelDecodingContainer) -> \(type) {\n\(call)\n}")
            }
            if !existing.hasFastInit {
                let call = decodeCall(plan, read, receiver: "reader", slots: slots)
                functions.append("static func f_\(plan.name)(_ reader: inout KilnModel.KilnObjectReader) -> \(type) {\n\(call)\n}")
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
    static func delegatingInitializers(_ plans: [PropertyPlan], existing: ExistingMembers) -> [String] {
        // The implicit memberwise initializer's parameters: stored properties, but not a `let`
        // with a value; a property Swift gives a value by itself may be left out.
        let parameters = plans.filter { !$0.isConstant }
        func memberwise(_ value: (PropertyPlan) -> String?) -> String {
            let arguments = parameters.compactMap { plan -> String? in
                guard let expression = value(plan) else { return nil }
                return "\(argumentLabel(plan.name)): \(expression)"
            }
            return "Self(\(arguments.joined(separator: ", ")))"
        }
        func local(_ plan: PropertyPlan) -> String { "_\(plan.name)" }

        var members: [String] = []
        // Swift gives a struct whose properties all have values an `init()` of its own.
        let hasImplicitEmptyInit = parameters.allSatisfy(\.hasImplicitValue)
        if !existing.hasEmptyInit && !hasImplicitEmptyInit {
            members.append("nonisolated init() {\nself = Self._kilnEmpty()\n}")
            members.append("nonisolated private static func _kilnEmpty() -> Self {\n\(memberwise(\.valueWhenNotRead))\n}")
        }
        if !existing.hasDecodingInit {
            var lines: [String] = []
            for plan in plans where plan.read != nil {
                lines.append("let \(local(plan)) = _KilnReaders.r_\(plan.name)(container)")
            }
            lines.append("return " + memberwise { $0.read != nil ? local($0) : $0.valueWhenNotRead })
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
            for plan in plans where plan.read != nil {
                lines.append("let \(local(plan)) = _KilnReaders.f_\(plan.name)(&reader)")
            }
            lines.append("return " + memberwise { $0.read != nil ? local($0) : $0.valueWhenNotRead })
            var initializer = ["self = Self._kilnMakeFast(&reader)"]
            if let hook = existing.didDecodeHook { initializer.append(hook.call(recorder: "reader.repairRecorder")) }
            members.append("nonisolated init(kiln reader: inout KilnModel.KilnObjectReader) {\n\(initializer.joined(separator: "\n"))\n}")
            members.append(
                "nonisolated private static func _kilnMakeFast(_ reader: inout KilnModel.KilnObjectReader) -> Self {\n\(lines.joined(separator: "\n"))\n}")
        }
        return members
    }

    // MARK: Generated members

    static func makeDefaultInit(_ plans: [PropertyPlan], access: String) -> DeclSyntax {
        let lines = plans.compactMap { plan in plan.valueWhenNotRead.map { "self.\(plan.name) = \($0)" } }
        return "\(raw: access)init() {\(raw: block(lines))}"
    }

    static func makeDecodingInit(_ plans: [PropertyPlan], access: String, hook: DidDecodeHook?) -> DeclSyntax {
        var lines = assignments(plans, receiver: "container", slots: nil)
        let opening =
            lines.isEmpty
            ? "_ = try decoder.container(keyedBy: KilnModel.AnyCodingKey.self)"
            : "let container = try KilnModel.ModelDecodingContainer(decoder: decoder, model: Self.self)"
        if let hook { lines.append(hook.call(recorder: "KilnModel.RepairRecorder(decoder: decoder)")) }
        return "\(raw: access)init(from decoder: any Decoder) throws {\(raw: block([opening] + lines))}"
    }

    /// `init(kiln:)`: the same reads as `init(from:)`, keys in the same order, straight from Kiln's
    /// tape, without the `Decoder` protocol in between (`KilnDecoder` takes this path).
    static func makeFastInit(_ plans: [PropertyPlan], access: String, hook: DidDecodeHook?) -> DeclSyntax {
        var lines = assignments(plans, receiver: "reader", slots: slotKeys(plans))
        if let hook { lines.append(hook.call(recorder: "reader.repairRecorder")) }
        return "\(raw: access)init(kiln reader: inout KilnModel.KilnObjectReader) {\(raw: block(lines))}"
    }

    /// Whether `init(kiln:)` makes the model with `init()` and reads its properties in a mutating
    /// method, rather than setting each one in the initializer.
    ///
    /// An initializer that sets the stored properties of a large struct (more than about seven
    /// words) one by one ends, in Swift 6.3's optimizer, by copying the whole value out of its
    /// own storage and destroying the storage: a retain and a release of every reference it
    /// holds, for each model decoded. A mutating method called on a value made by `init()` has
    /// no such copy. It needs the generated `init()` (one the type declares may do anything),
    /// `var` properties whose values Swift gives them (so `init()` runs only their initial
    /// values, as any initializer of the struct does), and enough properties for the copy to
    /// be likely: below five, the call and the initial values released would cost more.
    static func readsIntoMadeValue(_ declaration: some DeclGroupSyntax, plans: [PropertyPlan], existing: ExistingMembers) -> Bool {
        guard declaration.is(StructDeclSyntax.self), !existing.hasEmptyInit, plans.count >= 5 else { return false }
        return plans.allSatisfy { plan in plan.read == nil || (!plan.isLet && plan.hasImplicitValue) }
    }

    /// `init(kiln:)` as ``readsIntoMadeValue(_:plans:existing:)`` describes it: `init()`, then
    /// `_kilnRead(_:)`, out of line, with the same reads as ``makeFastInit(_:access:hook:)``.
    static func makeFastInitReadingIntoMadeValue(_ plans: [PropertyPlan], access: String, hook: DidDecodeHook?) -> [DeclSyntax] {
        var lines = ["self.init()", "self._kilnRead(&reader)"]
        if let hook { lines.append(hook.call(recorder: "reader.repairRecorder")) }
        let slots = slotKeys(plans)
        let reads = plans.compactMap { plan in plan.read.map { "self.\(plan.name) = \(decodeCall(plan, $0, receiver: "reader", slots: slots))" } }
        return [
            "\(raw: access)init(kiln reader: inout KilnModel.KilnObjectReader) {\(raw: block(lines))}",
            "@inline(never) nonisolated private mutating func _kilnRead(_ reader: inout KilnModel.KilnObjectReader) {\(raw: block(reads))}",
        ]
    }

    /// A decoding initializer's assignments: each read property from `receiver`, each other one
    /// its value when not read (if Swift does not give it one).
    static func assignments(_ plans: [PropertyPlan], receiver: String, slots: [String]?) -> [String] {
        plans.compactMap { plan in
            if let read = plan.read { return "self.\(plan.name) = \(decodeCall(plan, read, receiver: receiver, slots: slots))" }
            return plan.valueWhenNotRead.map { "self.\(plan.name) = \($0)" }
        }
    }

    /// `kilnMemberKeyCount` and `kilnMemberKeySlot(_:)`: a slot for each distinct plain ASCII key
    /// that `init(kiln:)` reads, in the order it reads them, found by a switch on the key's
    /// length and a comparison of its bytes. Nothing when it reads no such key (the protocol's
    /// defaults then apply). Keys beyond ASCII and paths have no slot: the reader looks them up
    /// among the object's members.
    static func makeKeySlots(_ plans: [PropertyPlan], access: String) -> [DeclSyntax] {
        let keys = slotKeys(plans)
        guard !keys.isEmpty else { return [] }
        var lengths: [Int: [(slot: Int, key: String)]] = [:]
        for (slot, key) in keys.enumerated() { lengths[key.utf8.count, default: []].append((slot, key)) }
        var lines = ["switch key.count {"]
        for length in lengths.keys.sorted() {
            lines.append("case \(length):")
            for (slot, key) in lengths[length] ?? [] {
                lines.append("if KilnModel.KilnObjectReader.key(key, is: \(stringLiteral(key))) { return \(slot) }")
            }
        }
        lines += ["default: break", "}", "return -1"]
        return [
            "\(raw: access)static var kilnMemberKeyCount: Int { \(raw: keys.count) }",
            "@inline(__always) \(raw: access)static func kilnMemberKeySlot(_ key: UnsafeRawBufferPointer) -> Int {\(raw: block(lines))}",
        ]
    }

    /// The keys of ``makeKeySlots(_:access:)``'s slots, slot by slot: each distinct plain ASCII key
    /// `init(kiln:)` reads, in the order it reads them.
    static func slotKeys(_ plans: [PropertyPlan]) -> [String] {
        var keys: [String] = []
        for plan in plans {
            guard let read = plan.read, !read.usesPaths else { continue }
            for key in read.keys where key.text.utf8.allSatisfy({ $0 < 0x80 }) && !keys.contains(key.text) {
                keys.append(key.text)
            }
        }
        return keys
    }

    /// One property's read, shared by `init(from:)` and `init(kiln:)` so both try the same keys in
    /// the same order. `slots`, the reader's slot keys (``slotKeys(_:)``), adds the slots of the
    /// property's keys to its read (`slots: KilnModel.KilnKeySlots(0, 1)`) when one has a slot.
    static func decodeCall(_ plan: PropertyPlan, _ read: PropertyPlan.Read, receiver: String, slots: [String]?) -> String {
        let method = plan.isOptional ? "optional" : "value"
        var arguments: [String] = []
        if read.usesPaths {
            arguments.append("paths: [\(read.keys.map { pathLiteral($0.segments) }.joined(separator: ", "))]")
            if let transform = read.transform { arguments.append("transform: \(transform)") }
            if read.emptyIsMissing { arguments.append("emptyIsMissing: true") }
        } else {
            arguments.append(contentsOf: read.keys.map { stringLiteral($0.text) })
            let numbers = read.keys.prefix(2).map { key in slots?.firstIndex(of: key.text) ?? -1 }
            if numbers.contains(where: { $0 >= 0 }) {
                arguments.append("slots: KilnModel.KilnKeySlots(\(numbers.map(String.init).joined(separator: ", ")))")
            }
            if let transform = read.transform { arguments.append("transform: \(transform)") }
        }
        arguments.append("property: \(stringLiteral(plan.name))")
        if let initialValue = plan.initialValue {
            arguments.append("default: \(initialValue)")
        }
        return "\(receiver).\(method)(\(arguments.joined(separator: ", ")))"
    }

    static func makeEncode(_ plans: [PropertyPlan], access: String) -> DeclSyntax {
        var lines: [String] = []
        for plan in plans {
            guard let write = plan.write else { continue }
            let method = plan.isOptional ? "encodeIfPresent" : "encode"
            let place: String
            switch write.place {
            case .property: place = "property: \(stringLiteral(plan.name))"
            case .key(let key): place = "forKey: \(stringLiteral(key))"
            case .path(let segments): place = "at: \(pathLiteral(segments))"
            case .merging(let key): place = "merging: \(stringLiteral(key))"
            }
            let transform = write.transform.map { ", transform: \($0)" } ?? ""
            lines.append("try container.\(method)(self.\(plan.name), \(place)\(transform))")
        }
        let body = ["var container = KilnModel.ModelEncodingContainer(encoder: encoder)"] + lines + ["try container.finish()"]
        return "\(raw: access)func encode(to encoder: any Encoder) throws {\(raw: block(body))}"
    }

    /// `init(id: Int = …, title: String = "--")`, since generated initializers take away the
    /// struct's implicit memberwise one. Left out when a property's type cannot be read from
    /// its declaration or the type already has an initializer with these labels.
    static func makeMemberwiseInit(_ plans: [PropertyPlan], access: String, existing: ExistingMembers) -> DeclSyntax? {
        let settable = plans.filter { !$0.isConstant }
        guard !settable.isEmpty else { return nil }
        var parameters: [String] = []
        var assignments: [String] = []
        for plan in settable {
            guard let type = plan.type, let defaultValue = plan.defaultValue else { return nil }
            parameters.append("\(parameterLabel(plan.name)): \(type) = \(defaultValue)")
            assignments.append("self.\(plan.name) = `\(plan.name)`")
        }
        guard !existing.initializerLabels.contains(settable.map(\.name)) else { return nil }
        return "\(raw: access)init(\(raw: parameters.joined(separator: ", "))) {\(raw: block(assignments))}"
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

    /// A property name as an argument label in a call: only `inout` needs backticks there.
    static func argumentLabel(_ name: String) -> String {
        name == "inout" ? "`inout`" : name
    }

    /// A property name as a parameter name: `inout`, `var` and `let` need backticks there; other
    /// keywords do not.
    static func parameterLabel(_ name: String) -> String {
        ["inout", "var", "let"].contains(name) ? "`\(name)`" : name
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

    /// `[.key("author"), .key("name")]` → `KilnModel.JSONPath([.key("author"), .key("name")])`.
    static func pathLiteral(_ segments: [KeyPathSegment]) -> String {
        let components = segments.map { segment in
            switch segment {
            case .key(let key): ".key(\(stringLiteral(key)))"
            case .index(let index): ".index(\(index))"
            }
        }
        return "KilnModel.JSONPath([\(components.joined(separator: ", "))])"
    }
}

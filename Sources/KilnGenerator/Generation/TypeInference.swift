import Foundation
import KilnModel

/// Turns unified shapes (see ``ShapeUnifier``) into declarations: picks Swift types,
/// optionality, transforms and keys, and names each type once.
///
/// Naming is predictable: a type takes the name from its key (`author` → `Author`, the elements
/// of `tags` → `Tag`); the same kind of object met under several parents is one type. When a
/// name is reserved (`Date`, `URL`, `Type`…) or taken by another type, it is prefixed with the
/// name of the type that first holds it (`ArticleData`), and then numbered (`ArticleData2`).
/// All types are declared inside the top-level type.
final class TypeInference {
    let options: GeneratorOptions
    private var names: [ObjectIdentifier: String] = [:]
    private var declarations: [ObjectIdentifier: TypeDeclaration] = [:]
    private var order: [ObjectIdentifier] = []
    private var enums: [EnumDeclaration] = []
    private var unions: [UnionDeclaration] = []
    /// Unions of scalars only, by their cases' types (`IntOrString`): declared once, then shared.
    private var scalarUnions: [String: String] = [:]
    private var takenTypeNames: Set<String>

    init(options: GeneratorOptions) {
        self.options = options
        self.takenTypeNames = Identifiers.reservedTypeNames
    }

    /// What the generator writes for a root shape.
    struct Model {
        /// The type that decodes the value at the key path: `Article`, `[Article]`, `[[Int]]`.
        var decodedType: String
        /// The top-level type, every other type nested in it; `nil` when the root holds no
        /// object (a list of numbers, say), and ``alias`` names the type instead.
        var root: TypeDeclaration?
        var alias: String?
        /// Classes, declared beside the top-level type rather than in it: a class nested in a
        /// `@DataModel` type hides the enclosing type's conformances from the compiler (Swift 6.3).
        var topLevelClasses: [TypeDeclaration] = []
        /// With an ``alias``: the types it names, declared beside it.
        var topLevel: [NestedDeclaration] = []
    }

    /// The declarations for the value at the key path, whose shape is `root`.
    func model(for root: Shape) -> Model {
        let name = options.typeName
        // Records: the root object, or the objects of an array (of arrays…) at the root.
        var depth = 0
        var records: Shape = root
        var marks: [String] = []
        while Set(records.kinds) == [.array], let element = records.element {
            marks.append(element.nulls > 0 ? "?" : "")
            records = element
            depth += 1
        }
        if Set(records.kinds) == [.object], let object = records.object, object.mapValue == nil {
            takenTypeNames.insert(name)
            names[ObjectIdentifier(object)] = name
            var top = declare(object, name: name)
            top.nested =
                order.dropFirst().compactMap { declarations[$0].map(NestedDeclaration.model) } + enums.map(NestedDeclaration.enumeration)
                + unions.map(NestedDeclaration.union)
            Self.breakCycles(&top)
            let classes = Self.hoistClasses(&top, prefix: name, taken: takenTypeNames)
            var decoded = name
            for mark in marks.reversed() { decoded = "[\(decoded)\(mark)]" }
            return Model(decodedType: decoded, root: top, alias: nil, topLevelClasses: classes)
        }
        var context = Context(key: "", propertyName: Identifiers.lowercasingFirst(name), parent: name)
        let resolved = resolve(root, context: &context, allowsRichTypes: false)
        var type = resolved.type + (root.nulls > 0 && !resolved.type.hasSuffix("?") && resolved.type != "JSONValue" ? "?" : "")
        // The types inside (a map's values, say) are declared beside the alias, named after it.
        var holder = TypeDeclaration(name: name)
        holder.nested =
            order.compactMap { declarations[$0].map(NestedDeclaration.model) } + enums.map(NestedDeclaration.enumeration)
            + unions.map(NestedDeclaration.union)
        Self.breakCycles(&holder)
        let renamed = Self.prefixedNames(holder.nested.map(\.name), prefix: name, taken: takenTypeNames)
        var topLevel: [NestedDeclaration] = []
        for nested in holder.nested {
            switch nested {
            case .model(var model):
                Self.rename(&model, renamed)
                topLevel.append(.model(model))
            case .enumeration(var enumeration):
                enumeration.name = renamed[enumeration.name] ?? enumeration.name
                topLevel.append(.enumeration(enumeration))
            case .union(var union):
                Self.rename(&union, renamed)
                topLevel.append(.union(union))
            }
        }
        type = Self.renaming(type, renamed)
        return Model(decodedType: name, root: nil, alias: type, topLevel: topLevel)
    }

    // MARK: Objects

    /// Declares the type of a unified object (once; a second call returns the first name).
    private func declare(_ object: ObjectShape, name: String) -> TypeDeclaration {
        let id = ObjectIdentifier(object)
        order.append(id)
        var declaration = TypeDeclaration(name: name)
        declaration.isClass = options.declaration == .finalClass
        var takenPropertyNames: Set<String> = []
        for key in object.keys {
            guard let field = object.fields[key] else { continue }
            var propertyName = Identifiers.preferredPropertyName(key)
            if propertyName.isEmpty { propertyName = "field" }
            // `@DataModel` writes `self.<name>`; these names would mean something else there.
            if Identifiers.memberKeywords.contains(propertyName) { propertyName += "Value" }
            propertyName = Self.unique(propertyName, in: takenPropertyNames)
            takenPropertyNames.insert(propertyName)

            var context = Context(key: key, propertyName: propertyName, parent: name)
            let resolved = resolve(field, context: &context, allowsRichTypes: true)
            let missingOrNull = field.nulls > 0 || object.missing(key) > 0
            let isOptional = resolved.mustBeOptional || (missingOrNull && !options.usesDefaults)
            declaration.properties.append(
                PropertyDeclaration(
                    name: propertyName, key: key, needsKey: false, transform: resolved.transform,
                    type: resolved.type, isOptional: isOptional, comment: resolved.comment
                ))
        }
        declaration.keyStyle = Self.keyStyle(for: declaration.properties)
        for index in declaration.properties.indices {
            let property = declaration.properties[index]
            let writtenKey = declaration.keyStyle?.key(for: property.name) ?? property.name
            declaration.properties[index].needsKey =
                property.key != writtenKey
                || Self.wouldReadAnotherKey(property.name, key: property.key, keys: object.keys)
        }
        declarations[id] = declaration
        return declaration
    }

    /// The name of an object's type, declaring it on first use.
    private func typeName(for object: ObjectShape, context: Context) -> String {
        let id = ObjectIdentifier(object)
        if let known = names[id] { return known }
        let base = ShapeUnifier.typeBaseName(forKey: context.propertyName, parent: context.parent)
        let name = Self.uniqueTypeName(base, parent: context.parent, taken: &takenTypeNames)
        names[id] = name
        _ = declare(object, name: name)
        return name
    }

    /// `.snakeCase` when more of the type's keys are the snake_case form of their property's name
    /// than are the name itself, so the model writes back the keys it read; `nil` (a plain
    /// `@DataModel`, which writes Swift names) otherwise. Keys that read the same either way
    /// (`id`) do not count; the keys of the minority get `@Key`.
    static func keyStyle(for properties: [PropertyDeclaration]) -> KeyStyle? {
        var snakeCase = 0
        var asWritten = 0
        for property in properties {
            let snakeKey = KeyStyle.snakeCase(property.name)
            guard snakeKey != property.name else { continue }
            if property.key == snakeKey { snakeCase += 1 }
            if property.key == property.name { asWritten += 1 }
        }
        return snakeCase > asWritten ? .snakeCase : nil
    }

    struct Context {
        var key: String
        var propertyName: String
        var parent: String
    }

    struct Resolved {
        var type: String
        var transform: String? = nil
        /// URL and UUID have no default value, so they are optional whatever the samples say.
        var mustBeOptional = false
        var comment: String? = nil
    }

    // MARK: Values

    private func resolve(_ shape: Shape, context: inout Context, allowsRichTypes: Bool) -> Resolved {
        let kinds = Set(shape.kinds)
        let key = context.key.lowercased()
        if kinds.isEmpty {
            return Resolved(type: "JSONValue", comment: shape.seen > 0 ? "always null in the samples" : nil)
        }
        if kinds == [.object], let object = shape.object {
            if let value = object.mapValue {
                var valueContext = context
                valueContext.propertyName = ShapeUnifier.elementName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent)
                let resolved = resolve(value, context: &valueContext, allowsRichTypes: false)
                let mark = value.nulls > 0 && resolved.type != "JSONValue" ? "?" : ""
                let keyed = object.mapKeysAreIdentifiers ? "keyed by id" : "a table of \(object.mapKeyCount) keys"
                return Resolved(type: "[String: \(resolved.type)\(mark)]", comment: resolved.comment.map { "values " + $0 } ?? keyed)
            }
            return Resolved(type: typeName(for: object, context: context))
        }
        if kinds == [.array] {
            guard let element = shape.element, !element.kinds.isEmpty else {
                let empty = (shape.element?.seen ?? 0) == 0
                return Resolved(type: "[JSONValue]", comment: empty ? "always empty in the samples" : "elements always null in the samples")
            }
            var elementContext = context
            elementContext.propertyName = ShapeUnifier.elementName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent)
            let resolved = resolve(element, context: &elementContext, allowsRichTypes: false)
            let optionalMark = element.nulls > 0 && resolved.type != "JSONValue" ? "?" : ""
            return Resolved(type: "[\(resolved.type)\(optionalMark)]", comment: resolved.comment)
        }
        if kinds == [.bool] { return Resolved(type: "Bool") }
        if kinds == [.int] {
            if allowsRichTypes, shape.eightDigitDates == shape.ints, key.contains("date") || key.contains("day") {
                return Resolved(type: "Date", transform: ".yyyyMMdd")
            }
            if allowsRichTypes, Self.isTimestampKey(context.key) {
                if shape.integerDigits == [10] { return Resolved(type: "Date", transform: ".unixSeconds") }
                if shape.integerDigits == [13] { return Resolved(type: "Date", transform: ".unixMilliseconds") }
            }
            return Resolved(type: "Int")
        }
        if kinds.isSubset(of: [.int, .double]) { return Resolved(type: "Double") }
        if kinds == [.string] {
            if allowsRichTypes {
                if shape.isoDates == shape.strings {
                    if shape.isoDatesRoundTripping == shape.strings { return Resolved(type: "Date", transform: ".iso8601") }
                    return Resolved(type: "String", comment: "ISO 8601 dates; text keeps their fractions and offsets")
                }
                if shape.eightDigitDates == shape.strings, key.contains("date") || key.contains("day") {
                    return Resolved(type: "Date", transform: ".yyyyMMdd")
                }
                if shape.urls == shape.strings { return Resolved(type: "URL", transform: ".url", mustBeOptional: true) }
                if shape.uuids == shape.strings, shape.uuidsRoundTripping == shape.strings {
                    return Resolved(type: "UUID", mustBeOptional: true)
                }
                if let enumeration = enumeration(for: shape, context: context) {
                    enums.append(enumeration)
                    return Resolved(type: enumeration.name)
                }
            }
            return Resolved(type: "String")
        }
        if let union = union(shape, kinds: kinds, context: &context) { return union }
        let seen = shape.kinds.map { kind in kind == .int || kind == .double ? "number" : kind.rawValue }
        var unique: [String] = []
        for kind in seen where !unique.contains(kind) { unique.append(kind) }
        return Resolved(type: "JSONValue", comment: "seen as " + unique.joined(separator: ", "))
    }

    /// An enum with a case per kind, for a value seen as several kinds (`0` and `"0"`, `false`
    /// and a number, an object and text): what `JSONValue` would hold, typed. Each value decodes
    /// to the case of its own kind, so nothing is coerced, and encodes back as it came.
    /// Optional, as it has no default value. A union of scalars is named after its kinds
    /// (`IntOrString`) and shared by every property that mixes the same kinds; one with an
    /// object or an array is named after its property (`RepliesUnion`).
    private func union(_ shape: Shape, kinds: Set<Shape.Kind>, context: inout Context) -> Resolved? {
        guard kinds.count > 1 else { return nil }
        var cases: [UnionDeclaration.Case] = []
        if kinds.contains(.bool) { cases.append(.init(name: "bool", type: "Bool")) }
        if kinds.contains(.int) { cases.append(.init(name: "int", type: "Int")) }
        if kinds.contains(.double) { cases.append(.init(name: "double", type: "Double")) }
        if kinds.contains(.string) { cases.append(.init(name: "string", type: "String")) }
        if kinds.contains(.array) {
            guard let element = shape.element, !element.kinds.isEmpty else { return nil }
            var elementContext = context
            elementContext.propertyName = ShapeUnifier.elementName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent)
            let resolved = resolve(element, context: &elementContext, allowsRichTypes: false)
            let mark = element.nulls > 0 && resolved.type != "JSONValue" ? "?" : ""
            cases.append(.init(name: "array", type: "[\(resolved.type)\(mark)]"))
        }
        if kinds.contains(.object) {
            guard let object = shape.object else { return nil }
            if let value = object.mapValue {
                var valueContext = context
                let resolved = resolve(value, context: &valueContext, allowsRichTypes: false)
                cases.append(.init(name: "object", type: "[String: \(resolved.type)]"))
            } else {
                cases.append(.init(name: "object", type: typeName(for: object, context: context)))
            }
        }
        // A union of scalars says nothing its kinds do not: named after them, written once.
        let kindsName = kinds.isDisjoint(with: [.object, .array]) ? cases.map(\.type).joined(separator: "Or") : nil
        if let kindsName, let shared = scalarUnions[kindsName] { return Resolved(type: shared, mustBeOptional: true) }
        let base = kindsName ?? Identifiers.typeName(fromProperty: context.propertyName) + "Union"
        let name = Self.uniqueTypeName(base, parent: context.parent, taken: &takenTypeNames)
        if let kindsName { scalarUnions[kindsName] = name }
        unions.append(UnionDeclaration(name: name, cases: cases))
        return Resolved(type: name, mustBeOptional: true)
    }

    private func enumeration(for shape: Shape, context: Context) -> EnumDeclaration? {
        guard options.infersEnums, !shape.hasMoreStrings, shape.strings >= options.enumMinimumValues,
            !shape.distinctStrings.isEmpty, shape.distinctStrings.count <= options.enumMaximumCases,
            shape.distinctStrings.count >= 2, shape.distinctStrings.count < shape.strings,
            shape.distinctStrings.allSatisfy(Self.looksLikeCode)
        else { return nil }
        var cases: [EnumDeclaration.Case] = []
        var taken: Set<String> = []
        for value in shape.distinctStrings {
            let name = Self.unique(Identifiers.caseName(value), in: taken)
            taken.insert(name)
            cases.append(EnumDeclaration.Case(name: name, rawValue: value))
        }
        if !taken.contains("unknown") {
            cases.append(EnumDeclaration.Case(name: "unknown", rawValue: "unknown"))
        }
        let name = Self.uniqueTypeName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent, taken: &takenTypeNames)
        return EnumDeclaration(name: name, cases: cases, fallback: "unknown")
    }

    // MARK: Recursion

    /// A value type cannot hold itself, however many types the loop passes through: an array or
    /// a dictionary holds its elements apart, but a property (optional or not) or a union's case
    /// holds its value in place. A loop through a union (`replies` is `""` or another listing
    /// that holds the comment) makes the union an `indirect enum`; a loop of properties alone
    /// makes its types final classes, and the properties that close it optional.
    static func breakCycles(_ root: inout TypeDeclaration) {
        var models: [String: TypeDeclaration] = [root.name: root]
        var unions: [String: UnionDeclaration] = [:]
        for nested in root.nested {
            switch nested {
            case .model(let model): models[model.name] = models[model.name] ?? model
            case .union(let union): unions[union.name] = union
            case .enumeration: break
            }
        }
        let heldByUnion = unions.mapValues { $0.cases.map(\.type) }
        let heldByModel = models.mapValues { $0.properties.map(\.type) }
        let indirect = onCycles(heldByModel.merging(heldByUnion) { first, _ in first }).intersection(unions.keys)
        let cyclic = onCycles(heldByModel)
        guard !cyclic.isEmpty || !indirect.isEmpty else { return }
        func fix(_ declaration: inout TypeDeclaration) {
            guard cyclic.contains(declaration.name) else { return }
            declaration.forcesClass = true
            declaration.isClass = true
            for index in declaration.properties.indices where cyclic.contains(declaration.properties[index].type) {
                declaration.properties[index].isOptional = true
            }
        }
        fix(&root)
        for index in root.nested.indices {
            switch root.nested[index] {
            case .model(var model):
                fix(&model)
                root.nested[index] = .model(model)
            case .union(var union) where indirect.contains(union.name):
                union.isIndirect = true
                root.nested[index] = .union(union)
            case .union, .enumeration:
                break
            }
        }
    }

    /// The types that hold themselves in place, given what each type holds (`held`: type name →
    /// the types of its properties or cases, as written). Only the types named in `held` count.
    static func onCycles(_ held: [String: [String]]) -> Set<String> {
        func edges(_ name: String) -> [String] { (held[name] ?? []).filter { held[$0] != nil } }
        func reaches(_ start: String, _ target: String) -> Bool {
            var seen: Set<String> = []
            var stack = edges(start)
            while let next = stack.popLast() {
                if next == target { return true }
                if seen.insert(next).inserted { stack += edges(next) }
            }
            return false
        }
        return Set(held.keys.filter { reaches($0, $0) })
    }

    /// Takes the nested classes out of the top-level type, naming them after it (`Item` in
    /// `Feed` → `FeedItem`): every property points at the new names, and a moved class names the
    /// types that stay nested through the top-level type (`Feed.Author`).
    static func hoistClasses(_ root: inout TypeDeclaration, prefix: String, taken: Set<String>) -> [TypeDeclaration] {
        let classes = root.nested.compactMap { nested -> String? in
            guard case .model(let model) = nested, model.isClass else { return nil }
            return model.name
        }
        guard !classes.isEmpty else { return [] }
        let renamed = prefixedNames(classes, prefix: prefix, taken: taken)
        var qualified = renamed
        for nested in root.nested where renamed[nested.name] == nil { qualified[nested.name] = root.name + "." + nested.name }
        rename(&root, renamed)
        var hoisted: [TypeDeclaration] = []
        var kept: [NestedDeclaration] = []
        for nested in root.nested {
            guard case .model(var model) = nested, renamed[model.name] != nil else {
                switch nested {
                case .model(var model):
                    rename(&model, renamed)
                    kept.append(.model(model))
                case .union(var union):
                    rename(&union, renamed)
                    kept.append(.union(union))
                case .enumeration:
                    kept.append(nested)
                }
                continue
            }
            rename(&model, qualified)
            hoisted.append(model)
        }
        root.nested = kept
        return hoisted
    }

    /// `Root` + each name, unless it starts with it already; unique among `taken`.
    static func prefixedNames(_ names: [String], prefix: String, taken: Set<String>) -> [String: String] {
        var taken = taken.union([prefix])
        var renamed: [String: String] = [:]
        for name in names {
            let base = name.hasPrefix(prefix) ? name : prefix + name
            let unique = unique(base, in: taken.subtracting([name]))
            taken.insert(unique)
            renamed[name] = unique
        }
        return renamed
    }

    /// Renames the types a union's cases hold.
    static func rename(_ union: inout UnionDeclaration, _ renamed: [String: String]) {
        if let name = renamed[union.name], !name.contains(".") { union.name = name }
        for index in union.cases.indices { union.cases[index].type = renaming(union.cases[index].type, renamed) }
    }

    /// Renames a declaration and the types its properties name.
    static func rename(_ declaration: inout TypeDeclaration, _ renamed: [String: String]) {
        if let name = renamed[declaration.name], !name.contains(".") { declaration.name = name }
        for index in declaration.properties.indices {
            declaration.properties[index].type = renaming(declaration.properties[index].type, renamed)
        }
    }

    /// A type written with its type names renamed: `[Item]?` → `[FeedItem]?`.
    static func renaming(_ type: String, _ renamed: [String: String]) -> String {
        var out = ""
        var word = ""
        func flush() {
            out += renamed[word] ?? word
            word = ""
        }
        for character in type {
            if character.isLetter || character.isNumber || character == "_" || (character == "." && !word.isEmpty) {
                word.append(character)
            } else {
                flush()
                out.append(character)
            }
        }
        flush()
        return out
    }

    // MARK: Rules

    /// Whether a property read without `@Key` would also pick up a different key of the same
    /// object: `userName` for `user_name` when the object has `userName` too.
    static func wouldReadAnotherKey(_ name: String, key: String, keys: [String]) -> Bool {
        let implicit = [name, KeyStyle.snakeCase(name)]
        return keys.contains { $0 != key && implicit.contains($0) }
    }

    /// Server enum values are codes (`published`, `IN_PROGRESS`, `pay-later`), not names or
    /// sentences (`Kai`, `Price on request`).
    static func looksLikeCode(_ value: String) -> Bool {
        guard (1...40).contains(value.count), value.first?.isLetter == true else { return false }
        let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || "_-.".contains($0)) }
        let oneCase = value == value.lowercased() || value == value.uppercased()
        return allowed && oneCase
    }

    /// `createdAt`, `updated_at`, `time`, `startTime`, `timestamp`.
    static func isTimestampKey(_ key: String) -> Bool {
        let lowered = key.lowercased()
        return key.hasSuffix("At") || lowered.hasSuffix("_at") || lowered.hasSuffix("time") || lowered.hasSuffix("timestamp")
    }

    static func unique(_ name: String, in taken: Set<String>) -> String {
        guard taken.contains(name) else { return name }
        var number = 2
        while taken.contains("\(name)\(number)") { number += 1 }
        return "\(name)\(number)"
    }

    static func uniqueTypeName(_ base: String, parent: String, taken: inout Set<String>) -> String {
        var name = base.isEmpty ? parent + "Item" : base
        if taken.contains(name) { name = parent + name }
        name = unique(name, in: taken)
        taken.insert(name)
        return name
    }
}

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
            top.nested = order.dropFirst().compactMap { declarations[$0].map(NestedDeclaration.model) } + enums.map(NestedDeclaration.enumeration)
                + unions.map(NestedDeclaration.union)
            Self.breakDirectCycles(&top)
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
        holder.nested = order.compactMap { declarations[$0].map(NestedDeclaration.model) } + enums.map(NestedDeclaration.enumeration)
            + unions.map(NestedDeclaration.union)
        Self.breakDirectCycles(&holder)
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
            declaration.properties[index].needsKey = property.key != writtenKey
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
        if allowsRichTypes, kinds == [.string, .int], shape.eightDigitDates == shape.strings + shape.ints, key.contains("date") || key.contains("day") {
            return Resolved(type: "Date", transform: ".yyyyMMdd")
        }
        if let coerced = Self.coercedScalar(shape, kinds: kinds) { return coerced }
        if let union = union(shape, kinds: kinds, context: &context) { return union }
        let seen = shape.kinds.map { kind in kind == .int || kind == .double ? "number" : kind.rawValue }
        var unique: [String] = []
        for kind in seen where !unique.contains(kind) { unique.append(kind) }
        return Resolved(type: "JSONValue", comment: "seen as " + unique.joined(separator: ", "))
    }

    /// An enum with a case per kind, for a value seen as an object or an array and as something
    /// else: what `JSONValue` would hold, typed. Optional, as it has no default value.
    private func union(_ shape: Shape, kinds: Set<Shape.Kind>, context: inout Context) -> Resolved? {
        guard kinds.contains(.object) || kinds.contains(.array), kinds.count > 1 else { return nil }
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
        let name = Self.uniqueTypeName(Identifiers.typeName(fromProperty: context.propertyName) + "Union", parent: context.parent, taken: &takenTypeNames)
        unions.append(UnionDeclaration(name: name, cases: cases))
        return Resolved(type: name, mustBeOptional: true)
    }

    /// The type every scalar seen coerces to, when the samples mix scalar kinds: `3` and `"12"`
    /// → `Int`; `1.5` and `"2"` → `Double`; `false` and `1` → `Bool`; any other mix of
    /// strings, numbers and booleans → `String`. `nil` when objects or arrays are mixed in.
    static func coercedScalar(_ shape: Shape, kinds: Set<Shape.Kind>) -> Resolved? {
        guard kinds.isSubset(of: [.string, .int, .double, .bool]), kinds.count > 1 else { return nil }
        if kinds == [.bool, .int], shape.zeroOrOneIntegers == shape.ints {
            return Resolved(type: "Bool", comment: "also seen as 0/1; read as Bool")
        }
        if kinds.isSubset(of: [.string, .int]), shape.integerStrings == shape.strings {
            return Resolved(type: "Int", comment: "also seen as text; read as Int")
        }
        if kinds.isSubset(of: [.string, .int, .double]), shape.numberStrings == shape.strings {
            return Resolved(type: "Double", comment: "also seen as text; read as Double")
        }
        let seen = [Shape.Kind.int, .double, .bool].filter(kinds.contains).map { $0 == .bool ? "booleans" : "numbers" }
        var unique: [String] = []
        for kind in seen where !unique.contains(kind) { unique.append(kind) }
        return Resolved(type: "String", comment: "also seen as \(unique.joined(separator: " and ")); read as text")
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

    /// A type that holds itself through plain (not array or dictionary) properties cannot be a
    /// struct: such types become final classes, and the properties that close the loop optional.
    static func breakDirectCycles(_ root: inout TypeDeclaration) {
        var all: [TypeDeclaration] = [root]
        for case .model(let model) in root.nested { all.append(model) }
        let byName = Dictionary(all.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        func edges(_ name: String) -> [String] {
            (byName[name]?.properties ?? []).map(\.type).filter { byName[$0] != nil }
        }
        func reaches(_ start: String, _ target: String) -> Bool {
            var seen: Set<String> = []
            var stack = edges(start)
            while let next = stack.popLast() {
                if next == target { return true }
                if seen.insert(next).inserted { stack += edges(next) }
            }
            return false
        }
        let cyclic = Set(byName.keys.filter { reaches($0, $0) })
        guard !cyclic.isEmpty else { return }
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
            if case .model(var model) = root.nested[index] {
                fix(&model)
                root.nested[index] = .model(model)
            }
        }
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

import KilnModel

/// Turns merged shapes into declarations: picks Swift types, optionality, transforms, and
/// names nested types without collisions.
///
/// Naming is predictable: a nested type takes the name from its key (`author` → `Author`,
/// `tags` → `Tag`); when that name is reserved (`Date`, `URL`, `Type`…), is an enclosing type's
/// name, or is already taken by a sibling, it is prefixed with its parent's name
/// (`ArticleData`), and then numbered (`ArticleData2`).
struct TypeInference {
    var options: GeneratorOptions

    func declaration(named name: String, for shape: ObjectShape, enclosing: [String]) -> TypeDeclaration {
        var declaration = TypeDeclaration(name: name)
        var takenTypeNames = Identifiers.reservedTypeNames.union(enclosing).union([name])
        var takenPropertyNames: Set<String> = []
        for key in shape.keys {
            guard let field = shape.fields[key] else { continue }
            if key.contains(".") || key.contains("[") {
                declaration.skippedKeys.append(key)
                continue
            }
            var propertyName = Identifiers.preferredPropertyName(key)
            if propertyName.isEmpty { propertyName = "field" }
            // `@DataModel` writes `self.<name>`; these names would mean something else there.
            if Identifiers.memberKeywords.contains(propertyName) { propertyName += "Value" }
            propertyName = Self.unique(propertyName, in: takenPropertyNames)
            takenPropertyNames.insert(propertyName)

            var context = Context(key: key, propertyName: propertyName, parent: name, enclosing: enclosing + [name])
            let resolved = resolve(field, context: &context, takenTypeNames: &takenTypeNames, allowsRichTypes: true)
            declaration.nested += context.nested

            let missingOrNull = field.nulls > 0 || shape.missing(key) > 0
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
                || Self.wouldReadAnotherKey(property.name, key: property.key, keys: shape.keys)
        }
        return declaration
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
        var enclosing: [String]
        var nested: [NestedDeclaration] = []
    }

    struct Resolved {
        var type: String
        var transform: String? = nil
        /// URL and UUID have no default value, so they are optional whatever the samples say.
        var mustBeOptional = false
        var comment: String? = nil
    }

    private func resolve(_ shape: Shape, context: inout Context, takenTypeNames: inout Set<String>, allowsRichTypes: Bool) -> Resolved {
        let kinds = Set(shape.kinds)
        let key = context.key.lowercased()
        if kinds.isEmpty {
            return Resolved(type: "JSONValue", comment: shape.seen > 0 ? "always null in the samples" : nil)
        }
        if kinds == [.object], let object = shape.object {
            let typeName = Self.uniqueTypeName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent, taken: &takenTypeNames)
            context.nested.append(.model(declaration(named: typeName, for: object, enclosing: context.enclosing)))
            return Resolved(type: typeName)
        }
        if kinds == [.array] {
            guard let element = shape.element, !element.kinds.isEmpty else {
                let empty = (shape.element?.seen ?? 0) == 0
                return Resolved(type: "[JSONValue]", comment: empty ? "always empty in the samples" : "elements always null in the samples")
            }
            var elementContext = context
            if Set(element.kinds) == [.object] || (Set(element.kinds) == [.array]) {
                elementContext.propertyName = elementName(for: context.propertyName, parent: context.parent)
            }
            elementContext.nested = []
            let resolved = resolve(element, context: &elementContext, takenTypeNames: &takenTypeNames, allowsRichTypes: false)
            context.nested += elementContext.nested
            let optionalMark = element.nulls > 0 ? "?" : ""
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
                if shape.isoDates == shape.strings { return Resolved(type: "Date", transform: ".iso8601") }
                if shape.eightDigitDates == shape.strings, key.contains("date") || key.contains("day") {
                    return Resolved(type: "Date", transform: ".yyyyMMdd")
                }
                if shape.urls == shape.strings { return Resolved(type: "URL", transform: ".url", mustBeOptional: true) }
                if shape.uuids == shape.strings { return Resolved(type: "UUID", mustBeOptional: true) }
                if let enumeration = enumeration(for: shape, context: context, takenTypeNames: &takenTypeNames) {
                    context.nested.append(.enumeration(enumeration))
                    return Resolved(type: enumeration.name)
                }
            }
            return Resolved(type: "String")
        }
        if allowsRichTypes, kinds == [.string, .int], shape.eightDigitDates == shape.strings + shape.ints, key.contains("date") || key.contains("day") {
            return Resolved(type: "Date", transform: ".yyyyMMdd")
        }
        let seen = shape.kinds.map { kind in kind == .int || kind == .double ? "number" : kind.rawValue }
        var unique: [String] = []
        for kind in seen where !unique.contains(kind) { unique.append(kind) }
        return Resolved(type: "JSONValue", comment: "seen as " + unique.joined(separator: ", "))
    }

    /// The property-like name an array's elements are named from: `tags` → `tag`,
    /// `list`/`data` → `<parent>Item`, other non-plurals → `<name>Item`.
    private func elementName(for propertyName: String, parent: String) -> String {
        if let singular = Identifiers.singular(propertyName) { return singular }
        let containers: Set<String> = ["list", "data", "array", "content", "payload", "result"]
        if containers.contains(propertyName.lowercased()) { return parent + "Item" }
        return propertyName + "Item"
    }

    private func enumeration(for shape: Shape, context: Context, takenTypeNames: inout Set<String>) -> EnumDeclaration? {
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
        let fallback: String
        if taken.contains("unknown") {
            fallback = "unknown"
        } else {
            cases.append(EnumDeclaration.Case(name: "unknown", rawValue: "unknown"))
            fallback = "unknown"
        }
        let name = Self.uniqueTypeName(Identifiers.typeName(fromProperty: context.propertyName), parent: context.parent, taken: &takenTypeNames)
        return EnumDeclaration(name: name, cases: cases, fallback: fallback)
    }

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

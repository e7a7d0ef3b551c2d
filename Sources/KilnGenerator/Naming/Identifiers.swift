import KilnModel

/// Turns JSON keys and values into Swift names: camelCase properties, PascalCase types,
/// singular element types, escaped keywords.
enum Identifiers {
    /// Words written in capitals inside a name (`userID`, `avatarURL`), never as a name's first word.
    static let acronyms: Set<String> = ["id", "url", "uuid", "html", "json", "api"]

    /// Swift keywords that must be written in backticks to be used as a property or case name.
    static let keywords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default",
        "defer", "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch",
        "where", "while", "as", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Any",
        "Type", "Protocol", "await", "async", "some", "any", "consume", "copy", "borrowing", "consuming",
    ]

    /// Names that cannot follow `self.` as a stored property: `@DataModel` writes `self.<name>`.
    static let memberKeywords: Set<String> = [
        "self", "Self", "init", "super", "Type", "Protocol", "deinit", "subscript",
        // Methods every model has (`Encodable` in KilnModel): a property of the same name
        // makes `model.parameters` ambiguous.
        "parameters", "queryItems", "formURLEncodedBody",
    ]

    /// Type names a generated nested type must not take, because the generated code (or the
    /// reader) means the standard one.
    static let reservedTypeNames: Set<String> = [
        "String", "Int", "Double", "Float", "Bool", "Date", "URL", "UUID", "Data", "Decimal", "JSONValue",
        "Array", "Dictionary", "Set", "Optional", "Character", "Error", "Never", "Void", "Any", "AnyObject",
        "Type", "Self", "Protocol", "Codable", "Decodable", "Encodable", "Sendable", "Equatable", "Hashable",
        "DataModel", "FallbackEnum", "Key", "Transform", "Ignored", "KilnModel", "Foundation", "Swift",
        // Named, unqualified, by `@DataModel`'s expansion or by hand-written conformances.
        "Decoder", "Encoder", "Hasher", "CodingKey", "KeyPath", "Int64",
    ]

    /// The words of a key: split at `_`, `-`, spaces and other punctuation; a key without
    /// separators is one word (its camel humps are kept as written).
    static func words(_ key: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in key {
            if character.isASCII && (character.isLetter || character.isNumber) {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// `author_name` → `authorName`, `user_id` → `userID`, `goodName` → `goodName`, `ID` → `id`,
    /// `2x` → `_2x`; a key with no usable characters gives `""`.
    static func propertyName(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "" }
        var name: String
        if parts.count == 1 && first.contains(where: \.isLowercase) {
            name = lowercasingFirst(first)
        } else {
            name = first.lowercased()
            for word in parts.dropFirst() {
                let lowered = word.lowercased()
                if acronyms.contains(lowered) {
                    name += lowered.uppercased()
                } else if word.contains(where: \.isLowercase) {
                    name += uppercasingFirst(word)
                } else {
                    name += uppercasingFirst(lowered)
                }
            }
        }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// Whether `@DataModel` finds `key` from a property called `name` without `@Key`.
    static func isReadWithoutKey(_ key: String, by name: String) -> Bool {
        key == name || KeyStyle.snakeCase(name) == key
    }

    /// A property name for `key` that `@DataModel` reads without `@Key` when one exists:
    /// the acronym form (`userID`) is used only when it needs no `@Key` or nothing else would.
    static func preferredPropertyName(_ key: String) -> String {
        let name = propertyName(key)
        if isReadWithoutKey(key, by: name) { return name }
        let plain = plainPropertyName(key)
        if !plain.isEmpty, isReadWithoutKey(key, by: plain) { return plain }
        return name
    }

    /// Like ``propertyName(_:)`` without capitalized acronyms.
    static func plainPropertyName(_ key: String) -> String {
        let parts = words(key)
        guard let first = parts.first else { return "" }
        var name = parts.count == 1 && first.contains(where: \.isLowercase) ? lowercasingFirst(first) : first.lowercased()
        for word in parts.dropFirst() { name += uppercasingFirst(word.lowercased()) }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// `author` → `Author`, `retweetedStatus` → `RetweetedStatus`.
    static func typeName(fromProperty name: String) -> String {
        let trimmed = name.drop(while: { $0 == "_" })
        let base = uppercasingFirst(String(trimmed))
        return base.first?.isNumber == true ? "T" + base : base
    }

    /// The element type name for an array property: `tags` → `Tag`, `categories` → `Category`,
    /// `statuses` → `Status`; `nil` when the name is not a simple plural (`list`, `data`, `media`).
    static func singular(_ name: String) -> String? {
        let lowered = name.lowercased()
        guard lowered.count > 2 else { return nil }
        let irregular = [
            "children": "child", "people": "person", "men": "man", "women": "woman", "indices": "index",
            "vertices": "vertex", "matrices": "matrix", "leaves": "leaf", "analyses": "analysis", "criteria": "criterion",
        ]
        for (plural, single) in irregular where lowered.hasSuffix(plural) {
            let stem = name.dropLast(plural.count)
            let first = name[stem.endIndex...].first
            return String(stem) + (first?.isUppercase == true ? Identifiers.uppercasingFirst(single) : single)
        }
        if lowered.hasSuffix("ies") && lowered.count > 4 { return String(name.dropLast(3)) + "y" }
        for ending in ["sses", "shes", "ches", "xes", "zes", "uses"] where lowered.hasSuffix(ending) {
            return String(name.dropLast(2))
        }
        if lowered.hasSuffix("ss") || lowered.hasSuffix("us") || lowered.hasSuffix("is") { return nil }
        if lowered.hasSuffix("s") { return String(name.dropLast()) }
        return nil
    }

    /// `in_progress` → `inProgress`, `PUBLISHED` → `published`, `""` → `empty`, `2x` → `_2x`.
    static func caseName(_ value: String) -> String {
        let parts = words(value)
        guard let first = parts.first else { return value.isEmpty ? "empty" : "value" }
        var name =
            parts.count == 1 && first.contains(where: \.isLowercase) && first.contains(where: \.isUppercase)
            ? lowercasingFirst(first) : first.lowercased()
        for word in parts.dropFirst() { name += uppercasingFirst(word.lowercased()) }
        if name.first?.isNumber == true { name = "_" + name }
        return name
    }

    /// `name`, or `` `name` `` when it is a keyword.
    static func escaped(_ name: String) -> String {
        keywords.contains(name) ? "`\(name)`" : name
    }

    static func uppercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.uppercased() + text.dropFirst()
    }

    static func lowercasingFirst(_ text: String) -> String {
        guard let first = text.first else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// A Swift string literal for `text`.
    static func literal(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F: out += "\\u{\(String(c.value, radix: 16))}"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

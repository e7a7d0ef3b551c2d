/// Writes declarations as Swift source, four spaces per level.
struct SwiftWriter {
    var options: GeneratorOptions
    private(set) var text = ""
    private var level = 0
    /// The enclosing types of what is being written, for qualified names.
    private var enclosing: [String] = []
    /// Classes whose `==` and `hash(into:)` are written after the top-level type, in extensions:
    /// written inside a `@DataModel` class, they keep the compiler from seeing the enclosing
    /// type's conformances (Swift 6.3).
    private var classConformances: [(name: String, type: TypeDeclaration)] = []

    init(options: GeneratorOptions) { self.options = options }

    private var access: String { options.accessLevel == .internal ? "" : options.accessLevel.rawValue + " " }

    private var classesByDefault: Bool { options.declaration == .finalClass }

    private var conformances: [String] {
        var list: [String] = []
        if options.conformances.contains(.sendable) { list.append("Sendable") }
        if options.conformances.contains(.hashable) {
            list.append("Hashable")
        } else if options.conformances.contains(.equatable) {
            list.append("Equatable")
        }
        return list
    }

    mutating func line(_ content: String = "") {
        if content.isEmpty {
            text += "\n"
        } else {
            text += String(repeating: "    ", count: level) + content + "\n"
        }
    }

    mutating func write(_ type: TypeDeclaration) {
        let isClass = classesByDefault || type.isClass
        switch type.keyStyle {
        case .snakeCase: line("@DataModel(keyStyle: .snakeCase)")
        case .asWritten: line("@DataModel(keyStyle: .asWritten)")
        case nil: line("@DataModel")
        }
        let keyword = isClass ? "final class" : "struct"
        let declared = isClass ? conformances.filter { $0 != "Equatable" && $0 != "Hashable" } : conformances
        let inheritance = declared.isEmpty ? "" : ": " + declared.joined(separator: ", ")
        // `nonisolated`: correct under either default isolation (an app target's is MainActor).
        line("nonisolated \(access)\(keyword) \(type.name)\(inheritance) {")
        level += 1
        let binding = isClass && options.conformances.contains(.sendable) ? "let" : "var"
        for property in type.properties {
            var attributes = ""
            if property.needsKey || Self.needsLiteralKey(property.key) {
                attributes +=
                    Self.needsLiteralKey(property.key)
                    ? "@Key(literal: \(Identifiers.literal(property.key))) " : "@Key(\(Identifiers.literal(property.key))) "
            }
            if let transform = property.transform { attributes += "@Transform(\(transform)) " }
            let mark = property.isOptional ? "?" : ""
            let comment = property.comment.map { " // \($0)" } ?? ""
            line("\(attributes)\(access)\(binding) \(Identifiers.escaped(property.name)): \(property.type)\(mark)\(comment)")
        }
        if isClass, options.conformances.contains(.equatable) || options.conformances.contains(.hashable) {
            classConformances.append(((enclosing + [type.name]).joined(separator: "."), type))
        }
        enclosing.append(type.name)
        for nested in type.nested {
            line()
            switch nested {
            case .model(let model): write(model)
            case .enumeration(let enumeration): write(enumeration)
            case .union(let union): write(union)
            }
        }
        enclosing.removeLast()
        level -= 1
        line("}")
        if enclosing.isEmpty {
            let pending = classConformances
            classConformances = []
            for (name, type) in pending { writeClassConformances(type, named: name) }
        }
    }

    /// `typealias Name = [Int]`, for a root that holds no object.
    mutating func writeAlias(_ name: String, for type: String) {
        line("\(access)typealias \(name) = \(type)")
    }

    /// Keys `@Key("…")` would read as a path (`a.b`, `x[0]`) or refuses (the empty key).
    static func needsLiteralKey(_ key: String) -> Bool {
        key.isEmpty || key.contains(".") || key.contains("[")
    }

    /// Classes get no synthesized `==` or `hash(into:)`: write them, in an extension.
    private mutating func writeClassConformances(_ type: TypeDeclaration, named name: String) {
        let names = type.properties.map { Identifiers.escaped($0.name) }
        let protocolName = options.conformances.contains(.hashable) ? "Hashable" : "Equatable"
        line()
        line("extension \(name): \(protocolName) {")
        level += 1
        line("nonisolated \(access)static func == (lhs: \(name), rhs: \(name)) -> Bool {")
        level += 1
        if names.isEmpty {
            line("true")
        } else {
            for (index, property) in names.enumerated() {
                line((index == 0 ? "" : "    && ") + "lhs.\(property) == rhs.\(property)")
            }
        }
        level -= 1
        line("}")
        if options.conformances.contains(.hashable) {
            line()
            line("nonisolated \(access)func hash(into hasher: inout Hasher) {")
            level += 1
            for name in names { line("hasher.combine(\(name))") }
            level -= 1
            line("}")
        }
        level -= 1
        line("}")
    }

    /// An enum with a case per kind, decoded by trying each in order and encoded as its value.
    mutating func write(_ union: UnionDeclaration) {
        let inheritance = ["Codable"] + conformances
        let indirect = union.isIndirect ? "indirect " : ""
        line("nonisolated \(access)\(indirect)enum \(union.name): \(inheritance.joined(separator: ", ")) {")
        level += 1
        for item in union.cases { line("case \(item.name)(\(item.type))") }
        line()
        line("\(access)init(from decoder: any Decoder) throws {")
        level += 1
        line("let container = try decoder.singleValueContainer()")
        for item in union.cases {
            line("if let value = try? container.decode(\(item.type).self) {")
            line("    self = .\(item.name)(value)")
            line("    return")
            line("}")
        }
        let names = union.cases.map(\.type).joined(separator: ", ")
        line("throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: \(Identifiers.literal("none of " + names))))")
        level -= 1
        line("}")
        line()
        line("\(access)func encode(to encoder: any Encoder) throws {")
        level += 1
        line("var container = encoder.singleValueContainer()")
        line("switch self {")
        for item in union.cases { line("case .\(item.name)(let value): try container.encode(value)") }
        line("}")
        level -= 1
        line("}")
        level -= 1
        line("}")
    }

    mutating func write(_ enumeration: EnumDeclaration) {
        var inheritance = ["String", "FallbackEnum"]
        inheritance += conformances
        line("nonisolated \(access)enum \(enumeration.name): \(inheritance.joined(separator: ", ")) {")
        level += 1
        for item in enumeration.cases {
            let name = Identifiers.escaped(item.name)
            line(item.name == item.rawValue ? "case \(name)" : "case \(name) = \(Identifiers.literal(item.rawValue))")
        }
        line("\(access)static let fallback = \(enumeration.name).\(Identifiers.escaped(enumeration.fallback))")
        level -= 1
        line("}")
    }
}

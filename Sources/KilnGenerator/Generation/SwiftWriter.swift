/// Writes declarations as Swift source, four spaces per level.
struct SwiftWriter {
    var options: GeneratorOptions
    private(set) var text = ""
    private var level = 0

    init(options: GeneratorOptions) { self.options = options }

    private var access: String { options.accessLevel == .internal ? "" : options.accessLevel.rawValue + " " }

    private var isClass: Bool { options.declaration == .finalClass }

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
        switch type.keyStyle {
        case .snakeCase: line("@DataModel(keyStyle: .snakeCase)")
        case .asWritten: line("@DataModel(keyStyle: .asWritten)")
        case nil: line("@DataModel")
        }
        let keyword = isClass ? "final class" : "struct"
        let inheritance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")
        // `nonisolated`: correct under either default isolation (an app target's is MainActor).
        line("nonisolated \(access)\(keyword) \(type.name)\(inheritance) {")
        level += 1
        let binding = isClass && options.conformances.contains(.sendable) ? "let" : "var"
        for property in type.properties {
            var attributes = ""
            if property.needsKey { attributes += "@Key(\(Identifiers.literal(property.key))) " }
            if let transform = property.transform { attributes += "@Transform(\(transform)) " }
            let mark = property.isOptional ? "?" : ""
            let comment = property.comment.map { " // \($0)" } ?? ""
            line("\(attributes)\(access)\(binding) \(Identifiers.escaped(property.name)): \(property.type)\(mark)\(comment)")
        }
        for key in type.skippedKeys {
            line("// \(Identifiers.literal(key)): @Key reads '.' and '[' as a path, so this key needs a hand-written property")
        }
        if isClass { writeClassConformances(type) }
        for nested in type.nested {
            line()
            switch nested {
            case .model(let model): write(model)
            case .enumeration(let enumeration): write(enumeration)
            }
        }
        level -= 1
        line("}")
    }

    /// Classes get no synthesized `==` or `hash(into:)`: write them.
    private mutating func writeClassConformances(_ type: TypeDeclaration) {
        let names = type.properties.map { Identifiers.escaped($0.name) }
        if options.conformances.contains(.equatable) || options.conformances.contains(.hashable) {
            line()
            line("\(access)static func == (lhs: \(type.name), rhs: \(type.name)) -> Bool {")
            level += 1
            if names.isEmpty {
                line("true")
            } else {
                for (index, name) in names.enumerated() {
                    line((index == 0 ? "" : "    && ") + "lhs.\(name) == rhs.\(name)")
                }
            }
            level -= 1
            line("}")
        }
        if options.conformances.contains(.hashable) {
            line()
            line("\(access)func hash(into hasher: inout Hasher) {")
            level += 1
            for name in names { line("hasher.combine(\(name))") }
            level -= 1
            line("}")
        }
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

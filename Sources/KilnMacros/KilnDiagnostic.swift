import KilnSupport
import SwiftDiagnostics

/// What `@DataModel` tells a developer when it cannot do what the code asks.
enum KilnDiagnostic: String, DiagnosticMessage {
    case notStructOrFinalClass
    case keyNotLiteral
    case ignoredNeedsValue
    case letWithValueNotDecoded
    case keyStyleNotLiteral

    var message: String {
        switch self {
        case .notStructOrFinalClass:
            "@DataModel applies to a struct or a final class"
        case .keyNotLiteral:
            "@Key takes string literals, such as @Key(\"pub_date\", \"author.name\")"
        case .ignoredNeedsValue:
            "an @Ignored property needs an initial value or an optional type, since it never comes from JSON"
        case .letWithValueNotDecoded:
            "a 'let' with an initial value is never decoded; make it 'var' to read it from JSON, or mark it @Ignored"
        case .keyStyleNotLiteral:
            "keyStyle is read at compile time; write the case itself, such as @DataModel(keyStyle: .snakeCase)"
        }
    }

    var diagnosticID: MessageID { MessageID(domain: "Kiln", id: rawValue) }

    var severity: DiagnosticSeverity {
        switch self {
        case .letWithValueNotDecoded: .warning
        default: .error
        }
    }
}

/// A `@Key` path the key-path grammar rejects, such as `@Key("tags[x]")`; the grammar's error
/// says what is wrong and what to write.
struct KeyPathDiagnostic: DiagnosticMessage {
    var error: KeyPathSyntaxError

    var message: String { error.description }
    var diagnosticID: MessageID { MessageID(domain: "Kiln", id: "malformedKeyPath") }
    var severity: DiagnosticSeverity { .error }
}

import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct KilnMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [DataModelMacro.self, MarkerMacro.self]
}

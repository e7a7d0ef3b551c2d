import SwiftSyntax
import SwiftSyntaxMacros

/// `@Key`, `@Ignored`, `@Transform` and `@DefaultIfEmpty` add nothing by themselves: `@DataModel` reads them.
public struct MarkerMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

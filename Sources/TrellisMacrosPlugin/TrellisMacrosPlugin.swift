import SwiftCompilerPlugin
import SwiftSyntax
import SwiftSyntaxMacros
import TrellisMacrosPluginCore

@main
struct TrellisMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        DatabaseRecordMacro.self,
        ColumnMacro.self,
        EntityMacro.self,
    ]
}

// The compiler asks this plugin for the types that `#externalMacro` names
// in this module (`TrellisMacrosPlugin.EntityMacro`), and the plugin finds
// them by their qualified names: each is declared here, and expands as
// its namesake of TrellisMacrosPluginCore, which the tests link.

/// `@DatabaseRecord`, expanded by ``TrellisMacrosPluginCore/DatabaseRecordMacro``.
enum DatabaseRecordMacro: AttachedTypeMacro {
    typealias Expansion = TrellisMacrosPluginCore.DatabaseRecordMacro
}

/// `@Entity`, expanded by ``TrellisMacrosPluginCore/EntityMacro``.
enum EntityMacro: AttachedTypeMacro, MemberAttributeMacro {
    typealias Expansion = TrellisMacrosPluginCore.EntityMacro

    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        try Expansion.expansion(of: node, attachedTo: declaration, providingAttributesFor: member, in: context)
    }
}

/// `@Column`, which adds nothing: the record macros read it.
enum ColumnMacro: PeerMacro {
    static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try TrellisMacrosPluginCore.ColumnMacro.expansion(of: node, providingPeersOf: declaration, in: context)
    }
}

/// A macro attached to a type, that adds an extension and members.
protocol AttachedTypeMacro: ExtensionMacro, MemberMacro {
    associatedtype Expansion: ExtensionMacro, MemberMacro
}

extension AttachedTypeMacro {
    static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        try Expansion.expansion(
            of: node, attachedTo: declaration, providingExtensionsOf: type, conformingTo: protocols, in: context)
    }

    static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        try Expansion.expansion(of: node, providingMembersOf: declaration, conformingTo: protocols, in: context)
    }
}

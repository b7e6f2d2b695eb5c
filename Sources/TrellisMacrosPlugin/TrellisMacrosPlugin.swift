import SwiftCompilerPlugin
import SwiftSyntaxMacros

@main
struct TrellisMacrosPlugin: CompilerPlugin {
    let providingMacros: [any Macro.Type] = [
        DatabaseRecordMacro.self,
        ColumnMacro.self,
        EntityMacro.self,
    ]
}

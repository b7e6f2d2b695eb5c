import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Entity`: makes a class or a struct an entity of the object store,
/// with a binding that reads and writes its objects without `Codable`, and
/// the typed properties that ObjectBox's code generator writes
/// (`Person.name`), from its stored properties.
///
/// A struct gets its initializer in the extension, so that it keeps its
/// memberwise initializer; a class gets it in its body, where a class
/// declares its required initializers, as a convenience initializer that
/// leaves its `init()` in place.
public struct EntityMacro: ExtensionMacro, MemberMacro {
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        let typeName = type.trimmedDescription
        guard let entity = EntityDeclaration(declaration, typeName: typeName, diagnose: { context.diagnose($0) }) else {
            return []
        }
        let access = entity.record.accessModifier
        var members = entity.columns.compactMap { column -> String? in
            let name = column.property.name
            guard !entity.declaredStatics.contains(name) else { return nil }
            return "\(access)static let \(column.property.identifier) = TrellisObjects.Property<\(typeName), \(column.type)>(\(column.property.column.swiftLiteral))"
        }
        if entity.needsIdPropertyName {
            members.append("\(access)static var idPropertyName: String { \(entity.id.property.name.swiftLiteral) }")
        }
        if !entity.backlinks.isEmpty {
            let pairs = entity.backlinks.map { "\($0.0.swiftLiteral): \($0.1.swiftLiteral)" }
            members.append("\(access)static var backlinks: [String: String] { [\(pairs.joined(separator: ", "))] }")
        }
        if !entity.indexed.isEmpty {
            members.append("\(access)static var indexedProperties: [String] { [\(entity.indexed.map(\.swiftLiteral).joined(separator: ", "))] }")
        }
        if !entity.unique.isEmpty {
            members.append("\(access)static var uniqueProperties: [String] { [\(entity.unique.map(\.swiftLiteral).joined(separator: ", "))] }")
        }
        if case .struct = entity.record.kind {
            members.append(initReading(entity))
        }
        members.append(write(entity))
        members.append(entityId(entity))

        let conformance = protocols.isEmpty ? "" : ": TrellisObjects.EntityBinding"
        let extensionDecl: DeclSyntax = """
            extension \(type.trimmed)\(raw: conformance) {
            \(raw: members.joined(separator: "\n\n"))
            }
            """
        return extensionDecl.as(ExtensionDeclSyntax.self).map { [$0] } ?? []
    }

    public static func expansion(
        of node: AttributeSyntax,
        providingMembersOf declaration: some DeclGroupSyntax,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        // The extension role reports the diagnostics of the declaration.
        guard let classDecl = declaration.as(ClassDeclSyntax.self),
              let entity = EntityDeclaration(declaration, typeName: classDecl.name.text, diagnose: { _ in })
        else { return [] }
        return [DeclSyntax(stringLiteral: initReading(entity))]
    }

    /// `init(reading:)`: a class makes its object with `init()`, then
    /// reads its properties; a struct reads all of them.
    static func initReading(_ entity: EntityDeclaration) -> String {
        var signature = entity.record.accessModifier
        var lines: [String] = []
        if case .class = entity.record.kind {
            signature += entity.isFinalClass ? "convenience " : "required convenience "
            lines.append("    self.init()")
        }
        signature += "init(reading reader: TrellisObjects.EntityReader) throws"
        for column in entity.columns where !column.property.isConstantWithValue {
            let method = column.relation != .none ? "readRelation" : column.property.isOptional ? "readIfPresent" : "read"
            lines.append("    self.\(column.property.identifier) = try reader.\(method)(\(column.property.column.swiftLiteral))")
        }
        return "\(signature) {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// `write(to:)`: every stored property, in the order of declaration.
    static func write(_ entity: EntityDeclaration) -> String {
        let lines = entity.columns.map { column in
            let method = column.relation != .none ? "writeRelation" : column.property.isOptional ? "writeIfPresent" : "write"
            return "    try writer.\(method)(self.\(column.property.identifier), to: \(column.property.column.swiftLiteral))"
        }
        return "\(entity.record.accessModifier)func write(to writer: TrellisObjects.EntityWriter) throws {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// `entityId`: the id property as an `Id`, whatever its type.
    static func entityId(_ entity: EntityDeclaration) -> String {
        let property = "self.\(entity.id.property.identifier)"
        let (get, set): (String, String)
        switch entity.id.kind {
        case .plain: (get, set) = (property, "\(property) = newValue")
        case .typed: (get, set) = ("\(property).value", "\(property) = .init(newValue)")
        case .signed: (get, set) = ("TrellisObjects.Id(bitPattern: \(property))", "\(property) = Int64(bitPattern: newValue)")
        }
        return """
            \(entity.record.accessModifier)var entityId: TrellisObjects.Id {
                get { \(get) }
                set { \(set) }
            }
            """
    }
}

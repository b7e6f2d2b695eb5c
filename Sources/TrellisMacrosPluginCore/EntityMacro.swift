import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@Entity`: makes a class or a struct an entity of the object store,
/// with a binding that reads and writes its objects without `Codable`, and
/// the typed properties that ObjectBox's code generator writes
/// (`Person.name`), from its stored properties.
///
/// The typed properties go in the body of the type. A struct gets its
/// initializer in the extension, so that it keeps its memberwise
/// initializer; a class gets it in its body, where a class declares its
/// required initializers, as a convenience initializer that leaves its
/// `init()` in place.
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
        let access = memberAccess(entity, declaration: declaration, in: context)
        var members: [String] = []
        if case .struct = entity.record.kind {
            members.append(initReading(entity, access: access))
            if entity.hasConversions { members.append(initDecoding(entity, access: access)) }
        }
        members.append(write(entity, access: access))
        members.append(entityId(entity, access: access))
        if entity.hasConversions { members.append(encode(entity, access: access)) }

        // A class that may have subclasses can not have the read loops,
        // which return `[Self]`.
        var mayHaveSubclasses = false
        if case .class(isFinal: false) = entity.record.kind { mayHaveSubclasses = true }
        let conformances = protocols.map(\.trimmedDescription).filter { name in
            !(mayHaveSubclasses && name.hasSuffix("_EntityReadLoops"))
        }.map { name in name.hasPrefix("TrellisObjects.") ? name : "TrellisObjects." + name }
        let conformance = conformances.isEmpty ? "" : ": " + conformances.joined(separator: ", ")
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
        let name = declaration.as(ClassDeclSyntax.self)?.name.text ?? declaration.as(StructDeclSyntax.self)?.name.text
        guard let name, let entity = EntityDeclaration(declaration, typeName: name, diagnose: { _ in }) else { return [] }
        var members = staticMembers(entity, typeName: name)
        if case .class = entity.record.kind {
            members.append(initReading(entity, access: entity.record.accessModifier))
            if entity.hasConversions { members.append(initDecoding(entity, access: entity.record.accessModifier)) }
        }
        if entity.hasConversions { members.append(codingKeys(entity)) }
        return members.map { DeclSyntax(stringLiteral: $0) }
    }

    /// The typed properties and the metadata of the entity, in the body of
    /// the type, where the types of its properties mean what they mean in
    /// their declarations (a sibling type of a nested entity, say).
    static func staticMembers(_ entity: EntityDeclaration, typeName: String) -> [String] {
        let access = entity.record.accessModifier
        var members = entity.columns.compactMap { column -> String? in
            guard !entity.declaredStatics.contains(column.property.name) else { return nil }
            return "\(access)static let \(column.property.identifier) = TrellisObjects.Property<\(typeName), \(column.propertyType)>(\(column.property.column.swiftLiteral))"
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
        return members
    }

    /// The access modifier of the members of the extension: that of the
    /// type when it is public; `fileprivate` for a type that is private or
    /// nested in a private type, whose extension, at the top level of the
    /// file, would otherwise declare internal members of a private type.
    static func memberAccess(
        _ entity: EntityDeclaration, declaration: some DeclGroupSyntax, in context: some MacroExpansionContext
    ) -> String {
        guard entity.record.accessModifier.isEmpty else { return entity.record.accessModifier }
        let scopes = [Syntax(declaration)] + context.lexicalContext
        let isPrivate = scopes.contains { scope in
            guard let group = scope.asProtocol(DeclGroupSyntax.self) else { return false }
            return group.modifiers.contains { ["private", "fileprivate"].contains($0.name.text) }
        }
        return isPrivate ? "fileprivate " : ""
    }

    /// `init(reading:)`: a class makes its object with `init()`, then
    /// reads its properties; a struct reads all of them.
    static func initReading(_ entity: EntityDeclaration, access: String) -> String {
        var signature = access
        var lines: [String] = []
        if case .class = entity.record.kind {
            signature += entity.isFinalClass ? "convenience " : "required convenience "
            lines.append("    self.init()")
        }
        signature += "init(reading reader: TrellisObjects.EntityReader) throws"
        for column in entity.columns where !column.property.isConstantWithValue {
            let property = "self.\(column.property.identifier)"
            let name = column.property.column.swiftLiteral
            if case .class = entity.record.kind, column.relation == .toOne {
                // The relation that `init()` made, when nothing else refers
                // to it, becomes the relation read: no new relation for each
                // object. The uniqueness is checked here, inline, so that the
                // other accesses to the property need no exclusivity check.
                // The property keeps the relation during the read: it is
                // given unretained.
                lines.append("    if try !(isKnownUniquelyReferenced(&\(property)) && reader.readRelation(\(name), into: Unmanaged.passUnretained(\(property)))) {")
                lines.append("        \(property) = try reader.readRelation(\(name))")
                lines.append("    }")
                continue
            }
            let method = column.relation != .none ? "readRelation" : column.property.isOptional ? "readIfPresent" : "read"
            if let conversion = column.conversion {
                if let converter = conversion.converter {
                    lines.append("    \(property) = \(converter).convert(try reader.readIfPresent(\(name)) as \(conversion.storedType)?)")
                } else {
                    lines.append("    \(property) = try reader.\(method)(\(name), default: \(conversion.defaultValue ?? "nil"))")
                }
                continue
            }
            lines.append("    \(property) = try reader.\(method)(\(name))")
        }
        return "\(signature) {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// The keys of the `Codable` conformance that the macro writes for an
    /// entity with converted properties: the property names.
    static func codingKeys(_ entity: EntityDeclaration) -> String {
        let cases = entity.columns.map { "    case \($0.property.identifier) = \($0.property.name.swiftLiteral)" }
        return "private enum _EntityCodingKeys: String, CodingKey {\n\(cases.joined(separator: "\n"))\n}"
    }

    /// `init(from:)` of an entity with converted properties, whose types
    /// need not be `Codable`: they are decoded as the store keeps them.
    static func initDecoding(_ entity: EntityDeclaration, access: String) -> String {
        var signature = access
        var lines: [String] = []
        if case .class = entity.record.kind {
            signature += entity.isFinalClass ? "convenience " : "required convenience "
            lines.append("    self.init()")
        }
        signature += "init(from decoder: any Decoder) throws"
        lines.append("    let container = try decoder.container(keyedBy: _EntityCodingKeys.self)")
        for column in entity.columns where !column.property.isConstantWithValue {
            let property = "self.\(column.property.identifier)"
            let key = ".\(column.property.identifier)"
            guard let conversion = column.conversion else {
                let decode = column.property.isOptional
                    ? "decodeIfPresent(\(column.valueType).self, forKey: \(key))" : "decode(\(column.type).self, forKey: \(key))"
                lines.append("    \(property) = try container.\(decode)")
                continue
            }
            let stored = "try container.decodeIfPresent(\(conversion.storedType).self, forKey: \(key))"
            if let converter = conversion.converter {
                lines.append("    \(property) = \(converter).convert(\(stored))")
            } else if column.property.isOptional {
                lines.append("    \(property) = TrellisObjects.RawValueConversion.valueIfPresent(\(stored), default: \(conversion.defaultValue ?? "nil"))")
            } else {
                lines.append("    \(property) = try TrellisObjects.RawValueConversion.value(\(stored), default: \(conversion.defaultValue ?? "nil"), property: \(column.property.name.swiftLiteral))")
            }
        }
        return "\(signature) {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// `encode(to:)` of an entity with converted properties.
    static func encode(_ entity: EntityDeclaration, access: String) -> String {
        var lines = ["    var container = encoder.container(keyedBy: _EntityCodingKeys.self)"]
        for column in entity.columns {
            let method = column.property.isOptional ? "encodeIfPresent" : "encode"
            lines.append("    try container.\(method)(\(column.storedValue), forKey: .\(column.property.identifier))")
        }
        return "\(access)func encode(to encoder: any Encoder) throws {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// `write(to:)`: every stored property, in the order of declaration.
    static func write(_ entity: EntityDeclaration, access: String) -> String {
        let lines = entity.columns.map { column in
            let method = column.relation != .none ? "writeRelation" : column.property.isOptional ? "writeIfPresent" : "write"
            return "    try writer.\(method)(\(column.storedValue), to: \(column.property.column.swiftLiteral))"
        }
        return "\(access)func write(to writer: TrellisObjects.EntityWriter) throws {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// `entityId`: the id property as an `Id`, whatever its type.
    static func entityId(_ entity: EntityDeclaration, access: String) -> String {
        let property = "self.\(entity.id.property.identifier)"
        let (get, set): (String, String)
        switch entity.id.kind {
        case .plain: (get, set) = (property, "\(property) = newValue")
        case .typed: (get, set) = ("\(property).value", "\(property) = .init(newValue)")
        case .signed: (get, set) = ("TrellisObjects.Id(bitPattern: \(property))", "\(property) = Int64(bitPattern: newValue)")
        }
        return """
            \(access)var entityId: TrellisObjects.Id {
                get { \(get) }
                set { \(set) }
            }
            """
    }
}

extension EntityMacro: MemberAttributeMacro {
    /// `@exclusivity(unchecked)` on each stored `var` of a class entity.
    ///
    /// Swift checks at run time that the accesses to a class property do
    /// not overlap: a call to the runtime at each read and write, which
    /// costs more than the store's own reading or writing of the property
    /// (a hundred instructions for an `Id`). The store reads and writes
    /// each property once per object, in accesses that never overlap.
    /// Properties with attributes of their own (property wrappers) and
    /// computed properties are left alone.
    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingAttributesFor member: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [AttributeSyntax] {
        guard declaration.is(ClassDeclSyntax.self),
              let variable = member.as(VariableDeclSyntax.self),
              variable.bindingSpecifier.tokenKind == .keyword(.var),
              variable.attributes.isEmpty,
              !variable.modifiers.contains(where: { ["static", "class", "lazy"].contains($0.name.text) }),
              variable.bindings.allSatisfy({ isStored($0.accessorBlock) })
        else { return [] }
        return ["@exclusivity(unchecked)"]
    }

    /// Whether a binding with these accessors is stored: it has none, or
    /// only observers.
    static func isStored(_ accessors: AccessorBlockSyntax?) -> Bool {
        guard let accessors else { return true }
        guard case .accessors(let list) = accessors.accessors else { return false }
        return list.allSatisfy { [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind) }
    }
}

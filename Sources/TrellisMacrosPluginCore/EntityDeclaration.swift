import SwiftDiagnostics
import SwiftSyntax

/// A class or struct that `@Entity` is attached to: its stored properties
/// as the store keeps them, its id property, and the ObjectBox annotations
/// of its properties.
struct EntityDeclaration {
    /// A stored property that the store keeps.
    struct Column {
        var property: StoredProperty
        /// The type of the property, written or read from its literal.
        var type: String
        var relation: Relation
        /// The type of the property without its optional.
        var valueType: String
        /// How the property is stored when `// objectbox: convert` says so.
        var conversion: Conversion?

        /// The type of the property's `Property`: the stored type of a
        /// converted property, which its conditions compare with.
        var propertyType: String {
            guard let conversion else { return type }
            return property.isOptional ? "\(conversion.storedType)?" : conversion.storedType
        }

        /// The expression of the value that the store writes: the
        /// property, or its stored form when it is converted.
        var storedValue: String {
            let value = "self.\(property.identifier)"
            guard let conversion else { return value }
            if let converter = conversion.converter { return "\(converter).convert(\(value))" }
            return value + (property.isOptional ? "?.rawValue" : ".rawValue")
        }
    }

    /// A property stored as another type, as ObjectBox's `convert`
    /// annotation asks: an enum as its raw value, or any type through the
    /// static `convert` functions of a converter.
    struct Conversion {
        /// The type of the property without its optional.
        var valueType: String
        /// The type of the column's values: `dbType`, or the raw value of
        /// the enum.
        var storedType: String
        /// The type whose `convert(_:)` functions convert both ways.
        var converter: String?
        /// What a missing or unknown stored value reads as.
        var defaultValue: String?
    }

    enum Relation {
        case none, toOne, toMany
    }

    /// How the id property holds the id.
    enum IdKind {
        /// `Id` or `UInt64`: the id itself.
        case plain
        /// `EntityId<E>`: the `value` of an `IdBase`.
        case typed
        /// `Int64`: the same bits, signed.
        case signed
    }

    var record: RecordDeclaration
    var isFinalClass: Bool
    var columns: [Column]
    var id: (property: StoredProperty, kind: IdKind)
    /// Whether the id property is not named `id`, and the type does not
    /// name it in `idPropertyName` already.
    var needsIdPropertyName: Bool
    /// `ToMany` property → `ToOne` property of the source it follows.
    var backlinks: [(String, String)] = []
    var indexed: [String] = []
    var unique: [String] = []
    /// The static members the type declares, which the macro leaves alone.
    var declaredStatics: Set<String>

    /// Whether a property is converted: the macro then writes the entity's
    /// `Codable` conformance, which the compiler can not synthesize for
    /// types that are not `Codable` themselves.
    var hasConversions: Bool { columns.contains { $0.conversion != nil } }

    /// Reads the declaration, or reports why it can not be an entity (and
    /// returns nil).
    init?(_ declaration: some DeclGroupSyntax, typeName: String, diagnose: (Diagnostic) -> Void) {
        guard let record = RecordDeclaration(declaration, macro: "Entity", diagnose: diagnose) else { return nil }
        self.record = record
        let members = declaration.memberBlock.members.map(\.decl)
        declaredStatics = Set(members.flatMap { member -> [String] in
            guard let variable = member.as(VariableDeclSyntax.self), variable.isStatic else { return [] }
            return variable.bindings.compactMap { $0.pattern.as(IdentifierPatternSyntax.self)?.identifier.text.trimmingBackticks }
        })
        var valid = true
        func fail(_ node: some SyntaxProtocol, _ message: EntityMacroDiagnostic) {
            diagnose(Diagnostic(node: node, message: message))
            valid = false
        }

        isFinalClass = false
        if case .class(let isFinal) = record.kind {
            isFinalClass = isFinal
            if !isFinal && record.inheritedNames.isDisjoint(with: ["Entity", "EntityBinding"]) {
                fail(declaration.introducerNode, .nonFinalClassNotEntity(entity: typeName))
            }
            let initializers = members.compactMap { $0.as(InitializerDeclSyntax.self) }
            let hasEmptyInit = initializers.contains {
                $0.signature.parameterClause.parameters.isEmpty && $0.optionalMark == nil
            }
            let implicitInit = initializers.isEmpty && record.properties.allSatisfy {
                $0.hasInitialValue || ($0.isOptional && !$0.variable.isConstant)
            }
            if !hasEmptyInit && !implicitInit {
                fail(declaration.introducerNode, .noEmptyInit(entity: typeName))
            }
        }

        // The id: marked `// objectbox: id`, named by `idPropertyName`,
        // named `id`, or the only `Id` or `EntityId` property, as
        // ObjectBox's generator picks it.
        let annotations = record.properties.map { EntityAnnotations(of: $0.variable) }
        let declaredIdName = Self.staticStringLiteral("idPropertyName", in: members)
        let marked = zip(record.properties, annotations).first { $0.1.contains("id") }?.0
        let idProperty = marked
            ?? record.properties.first { $0.name == (declaredIdName ?? "id") }
            ?? Self.onlyIdTyped(record.properties)
        guard let idProperty else {
            diagnose(Diagnostic(node: declaration.introducerNode, message: EntityMacroDiagnostic.noIdProperty(entity: typeName)))
            return nil
        }
        let idType = idProperty.type?.trimmedDescription ?? Self.literalType(idProperty.initialValue) ?? "?"
        guard let idKind = Self.idKind(idType), !(idProperty.type?.isOptional ?? false) else {
            fail(idProperty.node, .idType(idProperty.name, type: idType))
            return nil
        }
        id = (idProperty, idKind)
        needsIdPropertyName = idProperty.name != "id" && declaredIdName == nil

        columns = []
        for (property, annotation) in zip(record.properties, annotations) {
            if annotation.contains("transient") {
                // A class object gets the value that `init()` gives; a
                // struct is made by `init(reading:)`, which reads no value.
                if case .struct = record.kind, !property.hasInitialValue && !property.isOptional {
                    fail(property.node, .transientWithoutValue(property.name))
                }
                continue
            }
            var property = property
            if property.name == idProperty.name {
                property.column = "id"
            } else if let name = annotation.value(of: "name") {
                property.column = name
            }
            if case .class = record.kind, property.variable.isConstant, !property.hasInitialValue {
                fail(property.node, .constantInClass(property.name))
            }
            guard let type = property.type?.trimmedDescription ?? Self.literalType(property.initialValue) else {
                fail(property.node, .typeNotInferred(property.name))
                continue
            }
            let relation = Self.relation(of: type)
            if annotation.contains("backlink") {
                if relation != .toMany {
                    fail(property.node, .backlinkNotToMany(property.name))
                } else if let source = annotation.value(of: "backlink") {
                    backlinks.append((property.column, source))
                }
            }
            if annotation.contains("index") { indexed.append(property.column) }
            if annotation.contains("unique") { unique.append(property.column) }
            let valueType = Self.wrappedType(property.type) ?? type
            var column = Column(property: property, type: type, relation: relation, valueType: valueType)
            if annotation.contains("convert") {
                let options = annotation.options(of: "convert")
                let converter = options["converter"]
                if relation != .none {
                    fail(property.node, .convertRelation(property.name))
                } else if converter != nil && options["dbType"] == nil {
                    fail(property.node, .converterWithoutDbType(property.name))
                }
                column.conversion = Conversion(
                    valueType: valueType, storedType: options["dbType"] ?? "\(valueType).RawValue",
                    converter: converter, defaultValue: options["default"])
            }
            columns.append(column)
        }
        for (annotation, member, used) in [
            ("backlink", "backlinks", !backlinks.isEmpty),
            ("index", "indexedProperties", !indexed.isEmpty),
            ("unique", "uniqueProperties", !unique.isEmpty),
        ] where used && declaredStatics.contains(member) {
            fail(declaration.introducerNode, .annotationAndStatic(annotation: annotation, member: member))
        }
        guard valid else { return nil }
    }

    /// The type of a literal initial value: `String` for `""`, `Int` for
    /// `0` or `-1`, `Double` for `0.5`, `Bool` for `true`; nil for any
    /// other value, whose type the macro can not know.
    static func literalType(_ value: ExprSyntax?) -> String? {
        guard var value else { return nil }
        if let prefix = value.as(PrefixOperatorExprSyntax.self), prefix.operator.text == "-" {
            value = prefix.expression
            guard value.is(IntegerLiteralExprSyntax.self) || value.is(FloatLiteralExprSyntax.self) else { return nil }
        }
        if value.is(StringLiteralExprSyntax.self) { return "String" }
        if value.is(IntegerLiteralExprSyntax.self) { return "Int" }
        if value.is(FloatLiteralExprSyntax.self) { return "Double" }
        if value.is(BooleanLiteralExprSyntax.self) { return "Bool" }
        return nil
    }

    /// The type that an optional type wraps (`Mood` for `Mood?` or
    /// `Optional<Mood>`), or the type itself.
    private static func wrappedType(_ type: TypeSyntax?) -> String? {
        guard let type else { return nil }
        if let optional = type.as(OptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
        if let optional = type.as(ImplicitlyUnwrappedOptionalTypeSyntax.self) { return optional.wrappedType.trimmedDescription }
        if type.isOptional, let argument = type.as(IdentifierTypeSyntax.self)?.genericArgumentClause?.arguments.first {
            return argument.argument.trimmedDescription
        }
        return type.trimmedDescription
    }

    private static func idKind(_ type: String) -> IdKind? {
        let name = type.hasPrefix("TrellisObjects.") ? String(type.dropFirst("TrellisObjects.".count)) : type
        switch name {
        case "Id", "UInt64", "Swift.UInt64": return .plain
        case "Int64", "Swift.Int64": return .signed
        default: return name.hasPrefix("EntityId<") ? .typed : nil
        }
    }

    /// The only property whose type is an id type (`Id`, `EntityId`,
    /// `UInt64`, `Int64`), nil when there are none or several.
    private static func onlyIdTyped(_ properties: [StoredProperty]) -> StoredProperty? {
        let ids = properties.filter { property in
            guard let type = property.type?.trimmedDescription else { return false }
            return idKind(type) != nil && !property.isOptional
        }
        return ids.count == 1 ? ids[0] : nil
    }

    private static func relation(of type: String) -> Relation {
        let name = type.hasPrefix("TrellisObjects.") ? String(type.dropFirst("TrellisObjects.".count)) : type
        if name.hasPrefix("ToOne<") { return .toOne }
        if name.hasPrefix("ToMany<") { return .toMany }
        return .none
    }

    /// The string literal of a static property of the type
    /// (`static let idPropertyName = "thisIsMyId"`).
    private static func staticStringLiteral(_ name: String, in members: [DeclSyntax]) -> String? {
        for member in members {
            guard let variable = member.as(VariableDeclSyntax.self), variable.isStatic else { continue }
            for binding in variable.bindings where binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text == name {
                if let literal = binding.initializer?.value.as(StringLiteralExprSyntax.self) {
                    return literal.representedLiteralValue
                }
                // `static var idPropertyName: String { "thisIsMyId" }`
                if case .getter(let body) = binding.accessorBlock?.accessors, body.count == 1,
                   let literal = body.first?.item.as(StringLiteralExprSyntax.self)
                {
                    return literal.representedLiteralValue
                }
            }
        }
        return nil
    }
}

extension DeclGroupSyntax {
    /// The `class` or `struct` keyword, where the diagnostics about the
    /// whole type point.
    var introducerNode: Syntax {
        if let classDecl = self.as(ClassDeclSyntax.self) { return Syntax(classDecl.classKeyword) }
        if let structDecl = self.as(StructDeclSyntax.self) { return Syntax(structDecl.structKeyword) }
        return Syntax(self)
    }
}

import SwiftDiagnostics
import SwiftSyntax

/// A struct or class that a record macro is attached to: its stored
/// properties and the columns they map to.
struct RecordDeclaration {
    enum Kind {
        case `struct`
        case `class`(isFinal: Bool)
    }

    var kind: Kind
    /// The access modifier of generated members: that of the type, so that
    /// a public record has public conformances.
    var accessModifier: String
    /// The stored properties that map to columns, in declaration order.
    var properties: [StoredProperty]
    /// Whether the type declares its own `Columns`.
    var declaresColumns: Bool
    /// The protocols named in the type's inheritance clause.
    var inheritedNames: Set<String>

    /// Reads the declaration, or reports why it can not be a record (and
    /// returns nil).
    init?(_ declaration: some DeclGroupSyntax, macro: String, diagnose: (Diagnostic) -> Void) {
        if declaration.is(StructDeclSyntax.self) {
            kind = .struct
        } else if let classDecl = declaration.as(ClassDeclSyntax.self) {
            kind = .class(isFinal: classDecl.modifiers.contains { $0.name.text == "final" })
        } else {
            diagnose(Diagnostic(node: declaration, message: RecordMacroDiagnostic.notAStructOrClass(macro: macro)))
            return nil
        }
        accessModifier = Self.accessModifier(of: declaration)
        inheritedNames = Set(declaration.inheritanceClause?.inheritedTypes.map {
            $0.type.trimmedDescription.split(separator: ".").last.map(String.init) ?? ""
        } ?? [])

        let members = declaration.memberBlock.members.map(\.decl)
        declaresColumns = members.contains { member in
            if let enumDecl = member.as(EnumDeclSyntax.self) { return enumDecl.name.text == "Columns" }
            if let structDecl = member.as(StructDeclSyntax.self) { return structDecl.name.text == "Columns" }
            if let alias = member.as(TypeAliasDeclSyntax.self) { return alias.name.text == "Columns" }
            return false
        }

        var valid = true
        for member in members {
            if let function = member.as(FunctionDeclSyntax.self), function.name.text == "databaseColumnDecodingStrategy" {
                diagnose(Diagnostic(node: function.name, message: RecordMacroDiagnostic.columnStrategy(function.name.text)))
                valid = false
            }
            if let variable = member.as(VariableDeclSyntax.self), variable.isStatic {
                for binding in variable.bindings {
                    guard let name = binding.pattern.as(IdentifierPatternSyntax.self)?.identifier.text,
                          ["databaseColumnDecodingStrategy", "databaseColumnEncodingStrategy"].contains(name)
                    else { continue }
                    diagnose(Diagnostic(node: binding.pattern, message: RecordMacroDiagnostic.columnStrategy(name)))
                    valid = false
                }
            }
        }

        let codingKeys = Self.codingKeys(in: members)
        var properties: [StoredProperty] = []
        for member in members {
            guard let variable = member.as(VariableDeclSyntax.self), !variable.isStatic, !variable.isLazy else { continue }
            var columnName: String?
            for attribute in variable.attributes {
                guard let attribute = attribute.as(AttributeSyntax.self) else { continue }
                let attributeName = attribute.attributeName.trimmedDescription
                if attributeName == "Column" || attributeName.hasSuffix(".Column") {
                    guard let name = Self.stringLiteralArgument(of: attribute) else {
                        diagnose(Diagnostic(node: attribute, message: RecordMacroDiagnostic.columnNameNotALiteral))
                        valid = false
                        continue
                    }
                    columnName = name
                } else if let binding = variable.bindings.first, binding.isStored {
                    let name = binding.pattern.trimmedDescription
                    diagnose(Diagnostic(
                        node: attribute,
                        message: RecordMacroDiagnostic.propertyWrapper(name, wrapper: attributeName)))
                    valid = false
                }
            }
            for binding in variable.bindings where binding.isStored {
                guard let pattern = binding.pattern.as(IdentifierPatternSyntax.self) else { continue }
                let name = pattern.identifier.text.trimmingBackticks
                // A type annotation of `var a, b: Int` is on the last binding.
                let type = binding.typeAnnotation?.type ?? (binding.initializer != nil ? nil : variable.bindings
                    .drop { $0.id != binding.id }
                    .first { $0.typeAnnotation != nil }?.typeAnnotation?.type)
                let hasInitialValue = binding.initializer != nil
                if let codingKeys, codingKeys[name] == nil, columnName == nil {
                    // Not coded: left to its initial value, as Codable does.
                    if !hasInitialValue && !(type?.isOptional ?? false) {
                        diagnose(Diagnostic(node: pattern, message: RecordMacroDiagnostic.excludedWithoutValue(name)))
                        valid = false
                    }
                    continue
                }
                properties.append(StoredProperty(
                    name: name,
                    type: type,
                    column: columnName ?? codingKeys?[name] ?? name,
                    isOptional: type?.isOptional ?? false,
                    hasInitialValue: hasInitialValue,
                    isConstantWithValue: variable.isConstant && hasInitialValue,
                    initialValue: binding.initializer?.value,
                    variable: variable,
                    node: Syntax(pattern)))
            }
        }

        var seen: [String: String] = [:]
        for property in properties {
            let column = property.column.lowercased()
            if let first = seen[column] {
                diagnose(Diagnostic(
                    node: property.node,
                    message: RecordMacroDiagnostic.duplicateColumn(property.column, first: first, second: property.name)))
                valid = false
            }
            seen[column] = property.name
        }
        guard valid else { return nil }
        self.properties = properties
    }

    /// Whether the type names a protocol of `names` in its inheritance
    /// clause, or names none of the record protocols (it conforms in an
    /// extension).
    func adopts(any names: Set<String>) -> Bool {
        let recordProtocols: Set<String> = [
            "FetchableRecord", "TableRecord", "EncodableRecord", "PersistableRecord", "MutablePersistableRecord",
        ]
        return !inheritedNames.isDisjoint(with: names) || inheritedNames.isDisjoint(with: recordProtocols)
    }

    /// The access modifier of the type, for its generated members.
    private static func accessModifier(of declaration: some DeclGroupSyntax) -> String {
        for modifier in declaration.modifiers {
            switch modifier.name.text {
            case "public", "open": return "public "
            case "package": return "package "
            default: continue
            }
        }
        return ""
    }

    /// The column of each coding key of a nested `CodingKeys` enum, or nil
    /// when the type declares none.
    private static func codingKeys(in members: [DeclSyntax]) -> [String: String]? {
        guard let enumDecl = members.lazy.compactMap({ $0.as(EnumDeclSyntax.self) }).first(where: { $0.name.text == "CodingKeys" })
        else { return nil }
        var keys: [String: String] = [:]
        for member in enumDecl.memberBlock.members {
            guard let caseDecl = member.decl.as(EnumCaseDeclSyntax.self) else { continue }
            for element in caseDecl.elements {
                let name = element.name.text.trimmingBackticks
                if let literal = element.rawValue?.value.as(StringLiteralExprSyntax.self),
                   let value = literal.representedLiteralValue
                {
                    keys[name] = value
                } else {
                    keys[name] = name
                }
            }
        }
        return keys
    }

    private static func stringLiteralArgument(of attribute: AttributeSyntax) -> String? {
        guard case .argumentList(let arguments) = attribute.arguments,
              arguments.count == 1,
              let literal = arguments.first?.expression.as(StringLiteralExprSyntax.self)
        else { return nil }
        return literal.representedLiteralValue
    }
}

extension String {
    var trimmingBackticks: String {
        hasPrefix("`") && hasSuffix("`") && count >= 2 ? String(dropFirst().dropLast()) : self
    }

    /// The text of a Swift string literal that holds this string.
    var swiftLiteral: String {
        var result = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case "\0": result += "\\0"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    result += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }
}

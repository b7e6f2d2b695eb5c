import SwiftSyntax

/// A stored property of a record type, as the record macros read it from
/// the declaration.
struct StoredProperty {
    /// The property name, as written (without backticks).
    var name: String
    /// The declared type, when the property has a type annotation.
    var type: TypeSyntax?
    /// The column, from `@Column("...")`, else `CodingKeys`, else the name.
    var column: String
    /// Whether the declared type is optional (`T?`, `T!`, `Optional<T>`).
    var isOptional: Bool
    /// Whether the property has an initial value.
    var hasInitialValue: Bool
    /// Whether it is a `let` with an initial value, which an initializer
    /// can not assign: it is written, never read, as Codable does.
    var isConstantWithValue: Bool
    /// The initial value, when the property has one.
    var initialValue: ExprSyntax?
    /// The declaration of the property, whose comments the entity macro
    /// reads.
    var variable: VariableDeclSyntax
    /// The node, for diagnostics.
    var node: Syntax

    /// The name as an identifier in generated code.
    var identifier: String {
        StoredProperty.needsBackticks(name) ? "`\(name)`" : name
    }

    /// Whether a name must be escaped to declare it (`static let \`default\``).
    static func needsBackticks(_ name: String) -> Bool {
        reservedWords.contains(name)
    }

    private static let reservedWords: Set<String> = [
        "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import", "init", "inout",
        "internal", "let", "open", "operator", "private", "precedencegroup", "protocol", "public", "rethrows",
        "static", "struct", "subscript", "typealias", "var", "break", "case", "catch", "continue", "default", "defer",
        "do", "else", "fallthrough", "for", "guard", "if", "in", "repeat", "return", "throw", "switch", "where",
        "while", "Any", "as", "await", "false", "is", "nil", "self", "Self", "super", "throws", "true", "try",
    ]
}

extension TypeSyntax {
    /// Whether the type is written as an array: `[Element]` or
    /// `Array<Element>`.
    var isArray: Bool {
        if self.is(ArrayTypeSyntax.self) { return true }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Array" && identifier.genericArgumentClause != nil
        }
        if let member = self.as(MemberTypeSyntax.self) {
            return member.name.text == "Array" && member.baseType.trimmedDescription == "Swift" && member.genericArgumentClause != nil
        }
        return false
    }

    /// Whether the type is written as an optional.
    var isOptional: Bool {
        if self.is(OptionalTypeSyntax.self) || self.is(ImplicitlyUnwrappedOptionalTypeSyntax.self) {
            return true
        }
        if let identifier = self.as(IdentifierTypeSyntax.self) {
            return identifier.name.text == "Optional" && identifier.genericArgumentClause != nil
        }
        if let member = self.as(MemberTypeSyntax.self) {
            return member.name.text == "Optional" && member.baseType.trimmedDescription == "Swift"
        }
        if let attributed = self.as(AttributedTypeSyntax.self) {
            return attributed.baseType.isOptional
        }
        return false
    }
}

extension VariableDeclSyntax {
    var isStatic: Bool {
        modifiers.contains { ["static", "class"].contains($0.name.text) }
    }

    var isLazy: Bool {
        modifiers.contains { $0.name.text == "lazy" }
    }

    var isConstant: Bool {
        bindingSpecifier.tokenKind == .keyword(.let)
    }
}

extension PatternBindingSyntax {
    /// Whether the binding stores a value: no accessor, or only observers.
    var isStored: Bool {
        guard let accessorBlock else { return true }
        switch accessorBlock.accessors {
        case .getter:
            return false
        case .accessors(let accessors):
            return accessors.allSatisfy {
                [.keyword(.willSet), .keyword(.didSet)].contains($0.accessorSpecifier.tokenKind)
            }
        }
    }
}

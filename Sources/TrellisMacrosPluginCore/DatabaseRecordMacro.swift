import SwiftDiagnostics
import SwiftSyntax
import SwiftSyntaxMacros

/// `@DatabaseRecord`: writes `init(row:)`, `encode(to:)` and `Columns` from
/// the stored properties of a struct or class, as a person would write them
/// by hand.
///
/// A struct gets them in an extension, so that it keeps its memberwise
/// initializer; a class gets its initializer in its body, where a class
/// declares its designated initializers.
public struct DatabaseRecordMacro: ExtensionMacro, MemberMacro {
    static let name = "DatabaseRecord"

    public static func expansion(
        of node: AttributeSyntax,
        attachedTo declaration: some DeclGroupSyntax,
        providingExtensionsOf type: some TypeSyntaxProtocol,
        conformingTo protocols: [TypeSyntax],
        in context: some MacroExpansionContext
    ) throws -> [ExtensionDeclSyntax] {
        guard let record = RecordDeclaration(declaration, macro: name, diagnose: { context.diagnose($0) }) else {
            return []
        }
        var members: [String] = []
        if !record.declaresColumns, record.adopts(any: ["TableRecord", "PersistableRecord", "MutablePersistableRecord"]) {
            members.append(columnsEnum(record))
        }
        var conformance = ""
        if case .struct = record.kind {
            members += initAndEncode(record)
            if let decoder = prefetchedRecordsDecoder(record),
               let name = protocols.map(\.trimmedDescription).first(where: { $0.hasSuffix("_PrefetchedRecordsDecoding") })
            {
                members.append(decoder)
                conformance = ": " + (name.hasPrefix("Trellis.") ? name : "Trellis." + name)
            }
        }
        guard !members.isEmpty else { return [] }
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
        guard declaration.is(ClassDeclSyntax.self),
              let record = RecordDeclaration(declaration, macro: name, diagnose: { _ in })
        else { return [] }
        return initAndEncode(record).map { DeclSyntax(stringLiteral: $0) }
    }

    /// `init(row:)` and `encode(to:)`, for the protocols the type adopts.
    static func initAndEncode(_ record: RecordDeclaration) -> [String] {
        var members: [String] = []
        if record.adopts(any: ["FetchableRecord"]) {
            members.append(initFromRow(record))
        }
        if record.adopts(any: ["EncodableRecord", "PersistableRecord", "MutablePersistableRecord"]) {
            members.append(encodeToContainer(record))
        }
        return members
    }

    static func columnsEnum(_ record: RecordDeclaration) -> String {
        let access = record.accessModifier
        let columns = record.properties.map {
            "    \(access)static let \($0.identifier) = Column(\($0.column.swiftLiteral))"
        }
        return "\(access)enum Columns {\n\(columns.joined(separator: "\n"))\n}"
    }

    static func initFromRow(_ record: RecordDeclaration) -> String {
        var signature = record.accessModifier
        if case .class(isFinal: false) = record.kind {
            signature += "required "
        }
        // A struct borrows its row: the fetch keeps it, and passes it
        // without the retain and the release that an initializer's owned
        // argument costs. A class keeps the convention of the initializers
        // it may override or be overridden by (`Record`'s).
        if case .class = record.kind {
            signature += "init(row: Row) throws"
        } else {
            signature += "init(row: __shared Row) throws"
        }
        let decoded = record.properties.filter { !$0.isConstantWithValue }
        guard !decoded.isEmpty else { return "\(signature) {\n}" }
        // The columns of the properties, in the order of the reads: a row
        // that starts with them (`SELECT *` on a table declared in the same
        // order) is read by position.
        let columns = decoded.map(\.column.swiftLiteral).joined(separator: ", ")
        var lines = ["    var reader = RecordRowReader<Self>(row: row, columns: [\(columns)])"]
        for property in decoded {
            let method = property.isOptional ? "decodeIfPresent" : "decode"
            lines.append("    self.\(property.identifier) = try reader.\(method)(forKey: \(property.column.swiftLiteral))")
        }
        return "\(signature) {\n\(lines.joined(separator: "\n"))\n}"
    }

    /// The decoder of the arrays of records that `init(row:)` reads from
    /// prefetched rows, so that the prefetch decodes them as its rows come
    /// (see `_PrefetchedRecordsDecoding`); nil for a record that reads no
    /// array. An array of values that are not records gets no decoder, by
    /// the overloads of `make`. The key path names the type of the
    /// property, which the extension, outside the scope of the record's
    /// declaration, may not find by name.
    static func prefetchedRecordsDecoder(_ record: RecordDeclaration) -> String? {
        guard record.adopts(any: ["FetchableRecord"]) else { return nil }
        let cases = record.properties.compactMap { property -> String? in
            guard !property.isConstantWithValue, !property.isOptional, let type = property.type, type.isArray else { return nil }
            return "    case \(property.column.swiftLiteral):\n        _PrefetchedRecordsDecoder.make(for: \\Self.\(property.identifier))"
        }
        guard !cases.isEmpty else { return nil }
        return """
            \(record.accessModifier)static func _prefetchedRecordsDecoder(forKey key: String) -> _PrefetchedRecordsDecoder? {
                switch key {
            \(cases.joined(separator: "\n"))
                default:
                    nil
                }
            }
            """
    }

    static func encodeToContainer(_ record: RecordDeclaration) -> String {
        let signature = "\(record.accessModifier)func encode(to container: inout PersistenceContainer) throws"
        guard !record.properties.isEmpty else { return "\(signature) {\n}" }
        // The columns are written through one writer: the container's
        // storage is made its own once, not at each column.
        let lines = ["    let columns = container._recordColumns()"] + record.properties.map { property in
            let method = property.isOptional ? "encodeIfPresent" : "encode"
            return "    try columns.\(method)(self.\(property.identifier), forKey: \(property.column.swiftLiteral), of: Self.self)"
        }
        return "\(signature) {\n\(lines.joined(separator: "\n"))\n}"
    }
}

/// `@Column("name")`: the column of a record property. It adds nothing to
/// the property; the record macros read it.
public struct ColumnMacro: PeerMacro {
    public static func expansion(
        of node: AttributeSyntax,
        providingPeersOf declaration: some DeclSyntaxProtocol,
        in context: some MacroExpansionContext
    ) throws -> [DeclSyntax] {
        []
    }
}

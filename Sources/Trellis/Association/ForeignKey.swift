/// The columns that link two tables, for associations when the schema
/// defines no foreign key between them, or several.
///
/// ```swift
/// struct Book: TableRecord {
///     static let authorForeignKey = ForeignKey(["authorId"])
///     static let translatorForeignKey = ForeignKey(["translatorId"])
///     static let author = belongsTo(Person.self, using: authorForeignKey)
///     static let translator = belongsTo(Person.self, using: translatorForeignKey)
/// }
/// struct Person: TableRecord {
///     static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
/// }
/// ```
///
/// A foreign key is always defined from the table that holds its origin
/// columns. Without `to:`, the destination columns are those of the
/// schema's foreign key on the same columns, or else the primary key of the
/// destination table.
public struct ForeignKey: Hashable, Sendable, CustomStringConvertible {
    /// The columns of the origin table.
    public let originColumns: [String]
    /// The columns of the destination table, if given.
    public let destinationColumns: [String]?

    /// A foreign key from column names.
    public init(_ originColumns: [String], to destinationColumns: [String]? = nil) {
        self.originColumns = originColumns
        self.destinationColumns = destinationColumns
    }

    /// A foreign key from columns.
    ///
    /// ```swift
    /// static let authorForeignKey = ForeignKey([Columns.authorId], to: [Person.Columns.id])
    /// ```
    public init(_ originColumns: [any ColumnExpression], to destinationColumns: [any ColumnExpression]? = nil) {
        self.init(originColumns.map(\.name), to: destinationColumns.map { columns in columns.map(\.name) })
    }

    public var description: String {
        "ForeignKey(\(originColumns)" + (destinationColumns.map { ", to: \($0)" } ?? "") + ")"
    }
}

/// A foreign key resolved against the schema: pairs of origin and
/// destination columns.
struct ResolvedForeignKey: Sendable {
    let originTable: String
    let destinationTable: String
    let mapping: [(origin: String, destination: String)]
}

extension Database {
    /// The foreign key from `originTable` to `destinationTable`: the given
    /// one completed from the schema, or the only one the schema defines.
    ///
    /// Throws "Could not infer foreign key from book to person" when there
    /// is none, and "Ambiguous foreign key from book to person" when there
    /// are several.
    func resolveForeignKey(_ foreignKey: ForeignKey?, from originTable: String, to destinationTable: String) throws -> ResolvedForeignKey {
        let cacheKey = "fk:\(originTable.lowercased())>\(destinationTable.lowercased()):\(foreignKey?.description ?? "")"
        if let cached = schemaCache.derived[cacheKey] as? ResolvedForeignKey { return cached }
        let resolved = try resolveForeignKeyWithoutCache(foreignKey, from: originTable, to: destinationTable)
        schemaCache.derived[cacheKey] = resolved
        return resolved
    }

    private func resolveForeignKeyWithoutCache(_ foreignKey: ForeignKey?, from originTable: String, to destinationTable: String) throws -> ResolvedForeignKey {
        for table in [originTable, destinationTable] where try !tableExists(table) && !viewExists(table) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "no such table: \(table)")
        }
        var candidates: [ForeignKeyInfo] = []
        for foreignKey in try foreignKeys(on: originTable)
        where foreignKey.destinationTable.lowercased() == destinationTable.lowercased() {
            // A key declared twice (by a column constraint and a table
            // constraint, or by two migrations) is one key, not an
            // ambiguity.
            let mapping = foreignKey.mapping.map { [$0.origin.lowercased(), $0.destination.lowercased()] }
            if candidates.contains(where: { $0.mapping.map { [$0.origin.lowercased(), $0.destination.lowercased()] } == mapping }) {
                continue
            }
            candidates.append(foreignKey)
        }
        if let foreignKey {
            if let destinationColumns = foreignKey.destinationColumns {
                guard destinationColumns.count == foreignKey.originColumns.count else {
                    throw DatabaseError(
                        resultCode: .SQLITE_MISUSE,
                        message: "\(foreignKey) from \(originTable) to \(destinationTable) has \(foreignKey.originColumns.count) origin and \(destinationColumns.count) destination columns")
                }
                return ResolvedForeignKey(
                    originTable: originTable, destinationTable: destinationTable,
                    mapping: Array(zip(foreignKey.originColumns, destinationColumns)))
            }
            let origin = foreignKey.originColumns.map { $0.lowercased() }
            if let match = candidates.first(where: { $0.originColumns.map { $0.lowercased() } == origin }) {
                return try ResolvedForeignKey(schemaKey: match, from: originTable, to: destinationTable)
            }
            // The primary key of a table that declares none is its hidden
            // rowid, as in GRDB.
            let primaryKey = try self.primaryKey(destinationTable)
            guard primaryKey.columns.count == foreignKey.originColumns.count else {
                throw DatabaseError(
                    resultCode: .SQLITE_ERROR,
                    message: "Could not infer foreign key from \(originTable) to \(destinationTable): \(foreignKey) does not match the primary key \(primaryKey.columns) of \(destinationTable)")
            }
            return ResolvedForeignKey(
                originTable: originTable, destinationTable: destinationTable,
                mapping: Array(zip(foreignKey.originColumns, primaryKey.columns)))
        }
        switch candidates.count {
        case 0:
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "Could not infer foreign key from \(originTable) to \(destinationTable)")
        case 1:
            return try ResolvedForeignKey(schemaKey: candidates[0], from: originTable, to: destinationTable)
        default:
            let columns = candidates.map { "[" + $0.originColumns.joined(separator: ", ") + "]" }.joined(separator: ", ")
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "Ambiguous foreign key from \(originTable) to \(destinationTable): several foreign keys (\(columns)) link them; define the association with ForeignKey")
        }
    }
}

extension ResolvedForeignKey {
    /// A foreign key of the schema. One whose columns do not match the
    /// primary key of its destination, which SQLite calls a "foreign key
    /// mismatch", throws, rather than join on a column of no name.
    init(schemaKey: ForeignKeyInfo, from originTable: String, to destinationTable: String) throws {
        guard !schemaKey.destinationColumns.contains("") else {
            throw DatabaseError(
                resultCode: .SQLITE_ERROR,
                message: "foreign key mismatch - \"\(originTable)\" referencing \"\(destinationTable)\": "
                    + "the foreign key (\(schemaKey.originColumns.joined(separator: ", "))) does not match the primary key of \(destinationTable)")
        }
        self.init(originTable: originTable, destinationTable: destinationTable, mapping: schemaKey.mapping)
    }
}

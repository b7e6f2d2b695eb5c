/// A row that references a missing row, as reported by
/// `PRAGMA foreign_key_check`.
public struct ForeignKeyViolation: Sendable, CustomStringConvertible {
    /// The table of the referencing row.
    public let originTable: String
    /// The rowid of the referencing row, if the table has one.
    public let originRowID: Int64?
    /// The referenced table.
    public let destinationTable: String
    /// The id of the foreign key in `PRAGMA foreign_key_list`.
    public let foreignKeyId: Int

    public var description: String {
        "FOREIGN KEY constraint violation - from \(originTable)\(originRowID.map { " (rowid \($0))" } ?? "") to \(destinationTable)"
    }
}

extension Database {
    /// The foreign key violations of the database, or of one table.
    ///
    /// ```swift
    /// for violation in try db.foreignKeyViolations() {
    ///     print(violation)
    /// }
    /// ```
    public func foreignKeyViolations(in table: String? = nil) throws -> [ForeignKeyViolation] {
        if let table { try checkTableExists(table) }
        let sql = table.map { "PRAGMA foreign_key_check(\($0.quotedDatabaseIdentifier))" } ?? "PRAGMA foreign_key_check"
        return try Row.fetchAll(self, sql: sql).map { row in
            ForeignKeyViolation(
                originTable: row["table"] ?? "",
                originRowID: row["rowid"],
                destinationTable: row["parent"] ?? "",
                foreignKeyId: row["fkid"] ?? 0)
        }
    }

    /// Throws a ``DatabaseError`` that describes the first foreign key
    /// violation, if any.
    ///
    /// ```swift
    /// try db.checkForeignKeys()
    /// ```
    public func checkForeignKeys(in table: String? = nil) throws {
        let violations = try foreignKeyViolations(in: table)
        if let violation = violations.first {
            throw DatabaseError(
                resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY,
                message: "\(violation) (\(violations.count) violation(s) in all)")
        }
    }
}

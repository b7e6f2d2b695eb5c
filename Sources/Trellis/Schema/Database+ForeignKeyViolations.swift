/// A row that references a missing row, as reported by
/// `PRAGMA foreign_key_check`.
///
/// ```swift
/// let violations = try db.foreignKeyViolations()
/// while let violation = try violations.next() {
///     print(try violation.failureDescription(db))
///     // FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:10 authorId:42 title:"x"]
/// }
/// ```
public struct ForeignKeyViolation: Sendable, CustomStringConvertible {
    /// The table of the referencing row.
    public let originTable: String
    /// The rowid of the referencing row, if the table has one.
    public let originRowID: Int64?
    /// The referenced table.
    public let destinationTable: String
    /// The id of the foreign key in `PRAGMA foreign_key_list`.
    public let foreignKeyId: Int

    /// `FOREIGN KEY constraint violation - from book to author, in rowid 10`
    public var description: String {
        var text = "FOREIGN KEY constraint violation - from \(originTable) to \(destinationTable)"
        if let originRowID { text += ", in rowid \(originRowID)" }
        return text
    }

    /// The violation with its columns and the referencing row:
    /// `FOREIGN KEY constraint violation - from book(authorId) to
    /// author(id), in [id:10 authorId:42 title:"x"]`.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails to read the foreign key or
    ///   the referencing row.
    public func failureDescription(_ db: Database) throws -> String {
        var text = "FOREIGN KEY constraint violation - from \(originTable)"
        // The columns of a key to a table that does not exist are unknown:
        // the violation is still told, without them.
        let foreignKeys = try? db.foreignKeys(on: originTable)
        if let foreignKey = foreignKeys?.first(where: { $0.id == foreignKeyId }) {
            text += "(\(foreignKey.originColumns.joined(separator: ", "))) to \(destinationTable)"
            text += "(\(foreignKey.destinationColumns.joined(separator: ", ")))"
        } else {
            text += " to \(destinationTable)"
        }
        if let originRowID, let rowID = try? db.recordStatementCache.rowIDName(db, originTable) {
            let sql = "SELECT * FROM \(originTable.quotedDatabaseIdentifier) WHERE \(rowID) = ?"
            if let row = try Row.fetchOne(db, sql: sql, arguments: [originRowID]) {
                text += ", in \(row)"
            } else {
                text += ", in rowid \(originRowID)"
            }
        }
        return text
    }
}

extension Database {
    /// A cursor over the foreign key violations of the database, or of one
    /// table.
    ///
    /// ```swift
    /// let violations = try db.foreignKeyViolations()
    /// while let violation = try violations.next() { print(violation) }
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the table or schema does not exist, or
    ///   if SQLite fails.
    public func foreignKeyViolations(in table: String? = nil, in schemaName: String? = nil) throws -> AnyCursor<ForeignKeyViolation> {
        if let table { try checkTableExists(table, in: schemaName) }
        let prefix = schemaName.map { $0.quotedDatabaseIdentifier + "." } ?? ""
        let sql = table.map { "PRAGMA \(prefix)foreign_key_check(\($0.quotedDatabaseIdentifier))" } ?? "PRAGMA \(prefix)foreign_key_check"
        let violations = try Row.fetchAll(self, sql: sql).map { row in
            ForeignKeyViolation(
                originTable: row["table"] ?? "",
                originRowID: row["rowid"],
                destinationTable: row["parent"] ?? "",
                foreignKeyId: row["fkid"] ?? 0)
        }
        return AnyCursor(violations)
    }

    /// Throws a ``DatabaseError`` that describes the first foreign key
    /// violation, with its columns and row, if any.
    ///
    /// ```swift
    /// try db.checkForeignKeys()
    /// // SQLite error 19: FOREIGN KEY constraint violation - from book(authorId) to author(id), in [id:10 authorId:42 title:"x"]
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` (`SQLITE_CONSTRAINT_FOREIGNKEY`) that
    ///   describes the first violation; a ``DatabaseError`` if the table or
    ///   schema does not exist, or if SQLite fails.
    public func checkForeignKeys(in table: String? = nil, in schemaName: String? = nil) throws {
        if let violation = try foreignKeyViolations(in: table, in: schemaName).next() {
            throw DatabaseError(resultCode: .SQLITE_CONSTRAINT_FOREIGNKEY, message: try violation.failureDescription(self))
        }
    }
}

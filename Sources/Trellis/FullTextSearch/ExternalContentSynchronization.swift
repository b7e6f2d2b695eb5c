/// The content table of a full-text table created with
/// `synchronize(withTable:)`, and the triggers that keep the full-text
/// index up to date with it.
///
/// Triggers are named `__<full-text table>_<suffix>`, as GRDB names them,
/// so that `dropFTS5SynchronizationTriggers(forTable:)` drops the triggers
/// of a database created with GRDB, and the other way around.
struct ExternalContentSynchronization {
    /// The synchronized regular table.
    let contentTable: String

    static func triggerName(_ fullTextTable: String, _ suffix: String) -> String {
        "__\(fullTextTable)_\(suffix)"
    }

    /// Throws `no such table` when the content table does not exist, and
    /// an error when it lacks one of the columns of the full-text table.
    ///
    /// Checked before the full-text table is created: a failed `rebuild`
    /// of an FTS5 table, even rolled back, makes SQLite fail the commit of
    /// the transaction.
    func checkContentTable(hasColumns columns: [String], _ db: Database) throws {
        let contentColumns = Set(try db.columns(in: contentTable).map { $0.name.lowercased() })
        if let missing = columns.first(where: { !contentColumns.contains($0.lowercased()) }) {
            throw DatabaseError(resultCode: .SQLITE_ERROR, message: "table \(contentTable) has no column named \(missing)")
        }
    }

    /// The column that holds the rowid of the content table: its `INTEGER
    /// PRIMARY KEY`, or nil for the hidden `rowid`. Throws `no such table`
    /// when the content table does not exist.
    func contentRowIDColumn(_ db: Database) throws -> String? {
        try db.primaryKey(contentTable).rowIDColumn
    }

    /// The triggers of an FTS5 table, and the statement that indexes the
    /// rows already in the content table.
    func fts5Statements(_ fullTextTable: String, columns: [String], ifNotExists: Bool, db: Database) throws -> [String] {
        let rowID = try contentRowIDColumn(db) ?? "rowid"
        let table = fullTextTable.quotedDatabaseIdentifier
        let targetColumns = (["rowid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let oldValues = ([rowID] + columns).map { "old." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let insert = "INSERT INTO \(table)(\(targetColumns)) VALUES (\(newValues));"
        let delete = "INSERT INTO \(table)(\(table), \(targetColumns)) VALUES('delete', \(oldValues));"
        return [
            trigger(fullTextTable, "ai", "AFTER INSERT", ifNotExists: ifNotExists, body: [insert]),
            trigger(fullTextTable, "ad", "AFTER DELETE", ifNotExists: ifNotExists, body: [delete]),
            trigger(fullTextTable, "au", "AFTER UPDATE", ifNotExists: ifNotExists, body: [delete, insert]),
            rebuildSQL(fullTextTable),
        ]
    }

    /// The triggers of an FTS4 table, and the statement that indexes the
    /// rows already in the content table. FTS4 reads the old content
    /// before it is deleted or updated, hence the BEFORE triggers.
    func fts4Statements(_ fullTextTable: String, columns: [String], ifNotExists: Bool, db: Database) throws -> [String] {
        let rowID = try contentRowIDColumn(db) ?? "rowid"
        let table = fullTextTable.quotedDatabaseIdentifier
        let targetColumns = (["docid"] + columns).map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        let newValues = ([rowID] + columns).map { "new." + $0.quotedDatabaseIdentifier }.joined(separator: ", ")
        let delete = "DELETE FROM \(table) WHERE docid=old.\(rowID.quotedDatabaseIdentifier);"
        let insert = "INSERT INTO \(table)(\(targetColumns)) VALUES(\(newValues));"
        return [
            trigger(fullTextTable, "bu", "BEFORE UPDATE", ifNotExists: ifNotExists, body: [delete]),
            trigger(fullTextTable, "bd", "BEFORE DELETE", ifNotExists: ifNotExists, body: [delete]),
            trigger(fullTextTable, "au", "AFTER UPDATE", ifNotExists: ifNotExists, body: [insert]),
            trigger(fullTextTable, "ai", "AFTER INSERT", ifNotExists: ifNotExists, body: [insert]),
            rebuildSQL(fullTextTable),
        ]
    }

    private func trigger(_ fullTextTable: String, _ suffix: String, _ event: String, ifNotExists: Bool, body: [String]) -> String {
        let name = Self.triggerName(fullTextTable, suffix).quotedDatabaseIdentifier
        return "CREATE TRIGGER " + (ifNotExists ? "IF NOT EXISTS " : "") + name
            + " \(event) ON \(contentTable.quotedDatabaseIdentifier) BEGIN\n"
            + body.map { "    " + $0 + "\n" }.joined() + "END"
    }

    private func rebuildSQL(_ fullTextTable: String) -> String {
        let table = fullTextTable.quotedDatabaseIdentifier
        return "INSERT INTO \(table)(\(table)) VALUES('rebuild')"
    }
}

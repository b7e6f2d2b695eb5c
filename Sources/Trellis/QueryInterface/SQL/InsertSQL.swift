/// The SQL of an INSERT statement whose values are `?` parameters: the
/// one writer of inserts, for records (`insert`, `insertAll`, and the
/// insert that starts an `upsert`) and for ``Table``.
///
/// ```
/// INSERT [OR <conflict>] INTO <table> (<columns>) VALUES (?, ...)[, (?, ...)...]
///   [ON CONFLICT[(<target>)] DO UPDATE SET <column> = excluded.<column>, ... | DO NOTHING]
/// INSERT INTO <table> DEFAULT VALUES
/// ```
struct InsertSQL {
    /// `ON CONFLICT[(conflictTarget)] DO UPDATE SET column = excluded.column...`
    /// for `updatedColumns`, or `DO NOTHING` when there are none.
    struct Upsert {
        var conflictTarget: [String]
        var updatedColumns: [String]
    }

    var table: String
    var columns: [String]
    var conflict: Database.ConflictResolution = .abort
    /// The number of rows of values (a multi-row insert).
    var rowCount = 1
    var upsert: Upsert?

    /// The SQL for `db`: a conflict resolution is SQLite's only, and
    /// throws on a database server. An upsert that updates without a
    /// conflict target takes the one the dialect requires.
    func sql(_ db: Database) throws -> String {
        guard conflict == .abort || !db.usesServer else { throw db.dialect.unsupported("INSERT OR \(conflict.rawValue)") }
        guard var upsert, !upsert.updatedColumns.isEmpty else { return sql }
        upsert.conflictTarget = try db.dialect.upsertConflictTarget(upsert.conflictTarget) {
            try db.primaryKey(table).columns
        }
        var statement = self
        statement.upsert = upsert
        return statement.sql
    }

    var sql: String {
        var sql = conflict == .abort ? "INSERT" : "INSERT OR \(conflict.rawValue)"
        sql += " INTO \(table.quotedDatabaseIdentifier) "
        if columns.isEmpty {
            sql += "DEFAULT VALUES"
        } else {
            let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
            sql += "(" + columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ") VALUES "
            sql += Array(repeating: row, count: rowCount).joined(separator: ", ")
        }
        if let upsert {
            sql += upsert.conflictTarget.isEmpty
                ? " ON CONFLICT"
                : " ON CONFLICT(" + upsert.conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if upsert.updatedColumns.isEmpty {
                sql += " DO NOTHING"
            } else {
                sql += " DO UPDATE SET " + upsert.updatedColumns
                    .map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }
                    .joined(separator: ", ")
            }
        }
        return sql
    }
}

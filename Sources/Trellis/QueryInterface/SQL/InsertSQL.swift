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
    /// What a row that conflicts with the inserted one updates.
    enum Upsert {
        /// `ON CONFLICT[(target)] DO UPDATE SET column = excluded.column...`
        /// for `columns`, or `DO NOTHING` when there are none.
        case update(conflictTarget: [String], columns: [String])
    }

    var table: String
    var columns: [String]
    var conflict: Database.ConflictResolution = .abort
    /// The number of rows of values (a multi-row insert).
    var rowCount = 1
    var upsert: Upsert?

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
        switch upsert {
        case nil:
            break
        case .update(let conflictTarget, let updatedColumns):
            sql += conflictTarget.isEmpty
                ? " ON CONFLICT"
                : " ON CONFLICT(" + conflictTarget.map(\.quotedDatabaseIdentifier).joined(separator: ", ") + ")"
            if updatedColumns.isEmpty {
                sql += " DO NOTHING"
            } else {
                sql += " DO UPDATE SET " + updatedColumns
                    .map { "\($0.quotedDatabaseIdentifier) = excluded.\($0.quotedDatabaseIdentifier)" }
                    .joined(separator: ", ")
            }
        }
        return sql
    }
}

/// What an `...AndFetch` persistence method selects with its `RETURNING`
/// clause, and how it reads the statement once the arguments are bound.
@usableFromInline
struct PersistenceReturning {
    /// The returned columns, as SQL: `*`, or a selection.
    let selectionSQL: String

    /// Runs the statement and reads what it returns; false when it
    /// returned no row (an `INSERT OR IGNORE` that ignored the row, an
    /// `UPDATE` of a missing row).
    let fetch: (Statement) throws -> Bool

    /// The columns that records of type `T` select (`databaseSelection`),
    /// or all columns when `T` is no `TableRecord`, read as one row, in
    /// a statement that changes `table`.
    @usableFromInline
    static func row<T>(
        _ db: Database, of type: T.Type, table: String, _ consume: @escaping (Row) throws -> Void) throws -> PersistenceReturning
    {
        let selectionSQL = try (T.self as? any TableRecord.Type).map {
            try SQLSelection.returnedColumnsSQL(db, $0.databaseSelection, table: table)
        } ?? "*"
        return PersistenceReturning(selectionSQL: selectionSQL) { statement in
            guard let row = try Row.fetchOne(statement) else { return false }
            try consume(row)
            return true
        }
    }

    /// The columns of `selection`, read by the caller's `fetch`, in a
    /// statement that changes `table`.
    static func selection(
        _ db: Database, _ selection: [any SQLSelectable], table: String,
        fetch: @escaping (Statement) throws -> Void) throws -> PersistenceReturning
    {
        PersistenceReturning(selectionSQL: try SQLSelection.returnedColumnsSQL(db, selection, table: table)) { statement in
            try fetch(statement)
            return true
        }
    }
}

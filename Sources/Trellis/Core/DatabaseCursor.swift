import TrellisSQLite

/// A cursor that steps a statement and decodes each of its rows.
///
/// The statement is reset when the cursor ends, fails, or is released, so
/// that it never holds a read lock longer than needed.
public final class DatabaseCursor<Element>: Cursor {
    /// The statement the cursor steps.
    public let statement: Statement

    @usableFromInline
    let decode: (Row) throws -> Element

    @usableFromInline
    let layout: RowLayout?

    /// The row that reads the statement, made at the first step: the
    /// columns are known for sure only then.
    @usableFromInline
    var row: Row?

    @usableFromInline
    var isDone = false

    @usableFromInline
    init(statement: Statement, arguments: StatementArguments?, layout: RowLayout? = nil,
         decode: @escaping (Row) throws -> Element) throws
    {
        self.statement = statement
        self.decode = decode
        self.layout = layout
        if let arguments {
            try statement.setArguments(arguments)
        } else {
            statement.reset()
        }
        try statement.database.willExecute(statement)
        // Until it ends, the cursor owns the statement: a fetch of the same
        // SQL must not take it from the cache and bind other arguments,
        // even before the first step (SQLite calls it busy only after).
        statement.isReservedByCursor = true
    }

    deinit {
        if !isDone { end() }
    }

    /// Resets the statement, and gives it back to the cache.
    @usableFromInline
    func end() {
        isDone = true
        statement.reset()
        statement.isReservedByCursor = false
    }

    @usableFromInline
    func firstRow() -> Row {
        statement.checkColumnsAfterFirstStep()
        let row = Row(statement: statement, layout: layout)
        self.row = row
        return row
    }

    @inlinable
    public func next() throws -> Element? {
        if isDone { return nil }
        do {
            guard try statement.step() else {
                end()
                return nil
            }
            let row = self.row ?? firstRow()
            let element = try decode(row)
            try row.checkRecordedDecodingError()
            return element
        } catch {
            end()
            throw error
        }
    }
}

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

    /// The elements of a fetch that needed every row before the first
    /// element (a request that prefetches associated records): the cursor
    /// iterates them once its statement is done, which it is from the
    /// start. Read only after the statement is done, so that stepping a
    /// statement does not pay for it.
    @usableFromInline
    var prefetchedElements: IndexingIterator<[Element]>?

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
        if statement.server != nil {
            // The server gives every row at once.
            prefetchedElements = try statement.database.fetchAllOnServer(statement, layout: layout, reusesRow: false, decode: decode).makeIterator()
            isDone = true
            return
        }
        // Until it ends, the cursor owns the statement: a fetch of the same
        // SQL must not take it from the cache and bind other arguments,
        // even before the first step (SQLite calls it busy only after).
        statement.isReservedByCursor = true
    }

    /// A cursor over elements already decoded from the rows of
    /// `statement`, which is done.
    init(statement: Statement, prefetchedElements elements: [Element]) {
        self.statement = statement
        self.decode = { _ in
            throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "a cursor of prefetched elements decodes no row")
        }
        self.layout = nil
        self.isDone = true
        self.prefetchedElements = elements.makeIterator()
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
    func firstRow() throws -> Row {
        // The scopes of joined rows count on the columns of the statement.
        try statement.checkColumnsAfterFirstStep(assumedByRequest: layout != nil)
        let row = Row(statement: statement, layout: layout)
        self.row = row
        return row
    }

    /// The next element, or nil at the end.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails while stepping the
    ///   statement; a ``RowDecodingError``, or the error of the decoding
    ///   function, if a row cannot be decoded.
    @inlinable
    public func next() throws -> Element? {
        if isDone { return prefetchedElements?.next() }
        do {
            guard try statement.step() else {
                end()
                return nil
            }
            let row = try self.row ?? firstRow()
            let element = try decode(row)
            try row.checkRecordedDecodingError()
            return element
        } catch {
            end()
            throw error
        }
    }
}

/// The rows that a to-many prefetch copies from one statement, stored
/// together: the values one row after the other, the column names once.
///
/// A prefetch copies many small rows (the books of a thousand authors). A
/// row of its own each, with an array of values each, would cost two
/// allocations per row; a batch costs none until a row is asked for, and
/// its rows share one lookup memo, as the rows of a statement do.
@usableFromInline
final class RowBatch {
    /// The names of the columns that each row reads, scopes included.
    @usableFromInline let names: [String]

    /// The layout of the scopes of each row.
    @usableFromInline let layout: RowLayout?

    /// The number of values of each row: its columns, then its scopes'.
    @usableFromInline let width: Int

    /// The number of columns of each row, without its scopes'.
    @usableFromInline let columnCount: Int

    /// The values of all rows, one row after the other. Only the prefetch
    /// that fills the batch writes them, on the connection's thread: they
    /// are not checked for exclusive access at run time (the check costs
    /// more than the copy of a value).
    @usableFromInline @exclusivity(unchecked) private(set) var values: [DatabaseValue] = []

    /// The number of rows.
    @exclusivity(unchecked) private(set) var rowCount = 0

    /// The memo of the name lookups of the rows: they share their names.
    @usableFromInline let columnLookup = ColumnLookup()

    /// A batch for the rows of `statement`, laid out by `layout`.
    init(statement: Statement, layout: RowLayout?) {
        names = statement.columnNames
        self.layout = layout
        width = statement.columnCount
        columnCount = layout?.baseCount ?? statement.columnCount
    }

    /// A batch of rows already copied: the answer of a database server.
    init(names: [String], layout: RowLayout?, values: [DatabaseValue], rowCount: Int) {
        self.names = names
        self.layout = layout
        width = names.count
        columnCount = layout?.baseCount ?? names.count
        self.values = values
        self.rowCount = rowCount
    }

    /// Copies the current row of the statement that `row` reads, and
    /// returns its position in the batch.
    func append(_ row: Row) -> Int {
        for index in 0..<width {
            values.append(row.databaseValue(atIndex: index))
        }
        defer { rowCount += 1 }
        return rowCount
    }

    /// The row at `position`.
    @usableFromInline
    func row(at position: Int) -> Row {
        Row(statement: nil, values: values, names: names, offset: 0, count: columnCount, layout: layout, parent: nil,
            batch: self, valuesOffset: position * width)
    }
}

/// A connection to a database server that a ``Database`` runs its
/// statements on, instead of an SQLite connection: see
/// `Database.init(server:label:)`.
///
/// The methods are synchronous: each one sends its statement and waits for
/// the whole answer, on the thread of the access. An engine's product
/// (TrellisPostgres) implements it; Trellis knows no server of its own.
package protocol DatabaseServerConnection: AnyObject {
    /// The SQL language of the server.
    var dialect: SQLDialect { get }

    /// Runs one statement, written in the server's dialect, with the
    /// values of its parameters in order, and returns all its rows.
    ///
    /// - parameters:
    ///   - statement: The statement and its values.
    ///   - sql: The statement as it was written, for the thrown errors.
    ///   - arguments: The arguments of the statement, for the thrown errors.
    /// - throws: A ``DatabaseError`` when the server refuses the statement
    ///   or the connection fails.
    func run(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> DatabaseServerRows

    /// The names of the columns of a query, found without running it:
    /// `SELECT`, `VALUES`, `TABLE`, or a `WITH` that only reads. The
    /// connection asks for no other statement's columns (see
    /// `ServerStatement.columns`).
    func columnNames(of statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> [String]

    /// Whether a table or a view exists.
    func tableExists(_ name: String) throws -> Bool

    /// Whether a view exists.
    func viewExists(_ name: String) throws -> Bool

    /// The columns of a table, in order; throws `no such table` when the
    /// table does not exist.
    func columns(in table: String) throws -> [ColumnInfo]

    /// The primary key of a table; throws when the table does not exist
    /// or has none.
    func primaryKey(_ table: String) throws -> PrimaryKeyInfo

    /// The foreign keys of a table; throws when the table does not exist.
    func foreignKeys(on table: String) throws -> [ForeignKeyInfo]
}

/// The answer of a server to one statement, copied: the rows are read as
/// rows with stored values.
package struct DatabaseServerRows {
    /// The names of the columns.
    package var columnNames: [String]

    /// The values of the rows, one row after the other.
    package var values: [DatabaseValue]

    /// The number of rows.
    package var rowCount: Int

    /// The number of rows that an INSERT, UPDATE or DELETE changed; nil
    /// for other statements, which leave the count of the last change.
    package var changesCount: Int?

    package init(columnNames: [String], values: [DatabaseValue], rowCount: Int, changesCount: Int?) {
        self.columnNames = columnNames
        self.values = values
        self.rowCount = rowCount
        self.changesCount = changesCount
    }
}

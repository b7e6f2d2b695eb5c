/// A ``Database`` on a database server: a product such as TrellisPostgres
/// creates one for each access, and gives it to the closure of the access,
/// so that raw SQL, requests and records run unchanged.
///
/// Its statements are prepared as SQLite statements are (see
/// ``ServerStatement``), and the test of the engine is made once per
/// statement run, where the statement would step: `runOnServer(_:)` sends
/// it, and the rows come back copied, as rows with stored values. A
/// feature that only SQLite has asks for the SQLite connection, and throws
/// a `not supported` error.
extension Database {
    /// A connection whose statements run on `server`.
    package convenience init(server: any DatabaseServerConnection, label: String) {
        self.init(server: server, configuration: Configuration(), label: label)
    }

    /// The SQL language of the connection.
    package var dialect: SQLDialect {
        server?.dialect ?? .sqlite
    }

    /// Runs `body` in a transaction begun with `begin` (the SQL of the
    /// server), and commits it; a thrown error rolls it back and is
    /// rethrown. The connection can not be used afterwards: it throws.
    package func inServerAccess<T>(begin: String, _ body: (Database) throws -> T) throws -> T {
        defer { isOutsideAccess = true }
        try execute(sql: begin)
        let value: T
        do {
            value = try body(self)
            try throwUnreportedDecodingError()
            try throwPendingServerError()
        } catch {
            // The error of the body is the one to report: a ROLLBACK that
            // fails (the connection is lost) leaves no transaction either.
            if serverTransactionIsOpen { try? execute(sql: "ROLLBACK") }
            throw error
        }
        try execute(sql: "COMMIT")
        return value
    }

    /// Prepares the first statement of `utf8` (SQL with a trailing NUL) at
    /// or after `offset`, as `prepareStatement(utf8:from:persistent:)` does
    /// for SQLite.
    func prepareServerStatement(utf8: ContiguousArray<CChar>, from offset: Int, dialect: SQLDialect) throws
        -> (statement: Statement, next: Int, isLast: Bool)?
    {
        let rest = String(decoding: utf8.dropFirst(offset).prefix { $0 != 0 }.map(UInt8.init(bitPattern:)), as: UTF8.self)
        let templates = try dialect.templates(rest)
        guard let first = templates.first else { return nil }
        return (try Statement(database: self, template: first), offset + first.utf8Count, templates.count == 1)
    }

    /// Runs a statement of the server, with the arguments bound to it.
    @usableFromInline
    func executeOnServer(_ statement: Statement) throws {
        _ = try runOnServer(statement)
    }

    /// Runs a statement of the server, with the arguments bound to it, and
    /// returns its rows.
    func runOnServer(_ statement: Statement) throws -> DatabaseServerRows {
        guard let server, let serverStatement = statement.server else {
            throw DatabaseError.misuse("a statement of a database server ran on another connection", sql: statement.sql)
        }
        try throwPendingServerError()
        let values = try serverStatement.boundValues(of: statement.sqliteStatement)
        let rows = try server.run(
            DialectStatement(sql: serverStatement.engineSQL, values: values),
            sql: statement.sql, arguments: StatementArguments(values: values))
        if let changes = rows.changesCount {
            serverChangesCount = changes
            serverTotalChangesCount += changes
        }
        // The key of a row that the statement inserted is unknown: the
        // record methods that insert set it again once their statement ran.
        if serverStatement.mayInsert { serverLastInsertedRowID = nil }
        switch serverStatement.effect {
        case .beginsTransaction: serverTransactionIsOpen = true
        case .commitsTransaction, .rollsBackTransaction: serverTransactionIsOpen = false
        case .none, .changesSchema, .rollsBackToSavepoint: break
        }
        // Without rows, the server tells no columns.
        if rows.rowCount > 0 { statement.takeServerColumns(rows.columnNames) }
        return rows
    }

    /// Decodes every row of a statement of the server, which `willExecute`
    /// accepted.
    ///
    /// With `reusesRow`, `decode` gets one row that moves from row to row
    /// of the answer, with its scope rows and decoders, as a fetch from
    /// SQLite gets the row of its statement: `decode` copies a row that
    /// it keeps. A cursor, whose rows are decoded before they are
    /// iterated, gets a row of its own for each.
    @usableFromInline
    func fetchAllOnServer<T>(
        _ statement: Statement, layout: RowLayout?, reusesRow: Bool = true, decode: (Row) throws -> T) throws -> [T]
    {
        let rows = try runOnServer(statement)
        guard rows.rowCount > 0 else { return [] }
        let batch = RowBatch(names: rows.columnNames, layout: layout, values: rows.values, rowCount: rows.rowCount)
        var result: [T] = []
        result.reserveCapacity(rows.rowCount)
        guard reusesRow else {
            for position in 0..<rows.rowCount {
                let row = batch.row(at: position)
                batch.columnLookup.startRow()
                result.append(try decode(row))
                try row.checkRecordedDecodingError()
            }
            return result
        }
        let row = batch.row(at: 0)
        row.beginBatchReuse()
        defer { row.endReuse() }
        let width = batch.width
        for position in 0..<rows.rowCount {
            if position > 0 { row.move(toValuesOffset: position &* width) }
            batch.columnLookup.startRow()
            result.append(try decode(row))
            try row.checkRecordedDecodingError()
        }
        return result
    }

    /// Decodes the first row of a statement of the server, if any.
    @usableFromInline
    func fetchOneOnServer<T>(_ statement: Statement, layout: RowLayout?, decode: (Row) throws -> T) throws -> T? {
        let rows = try runOnServer(statement)
        guard rows.rowCount > 0 else { return nil }
        let batch = RowBatch(names: rows.columnNames, layout: layout, values: rows.values, rowCount: rows.rowCount)
        let row = batch.row(at: 0)
        let value = try decode(row)
        try row.checkRecordedDecodingError()
        return value
    }

    /// The names of the columns of a statement of the server, before it
    /// runs: row adapters and prefetches read them. An error is thrown by
    /// the next statement.
    func describeOnServer(_ statement: Statement) -> [String] {
        guard let server, let serverStatement = statement.server else { return [] }
        switch serverStatement.columns {
        case .none:
            return []
        case .knownOnceRun:
            recordUnsupportedFeature(
                "Reading the columns of a statement that is not a query (RETURNING, SHOW, EXPLAIN) before it runs",
                hint: "the server tells them with the rows")
            return []
        case .describable:
            break
        }
        do {
            let values = try serverStatement.boundValues(of: statement.sqliteStatement)
            return try server.columnNames(
                of: DialectStatement(sql: serverStatement.engineSQL, values: values),
                sql: statement.sql, arguments: StatementArguments(values: values))
        } catch {
            if pendingServerError == nil { pendingServerError = error }
            return []
        }
    }

    /// Remembers the use of a feature that only SQLite has, on a server, by
    /// a method that can not throw: the next statement throws instead of
    /// running without it.
    func recordUnsupportedFeature(_ feature: String, hint: String? = nil) {
        guard let server, pendingServerError == nil else { return }
        pendingServerError = server.dialect.unsupported(feature, hint: hint)
    }

    private func throwPendingServerError() throws {
        if let error = pendingServerError {
            pendingServerError = nil
            throw error
        }
    }

    /// Throws the `not supported` error of a feature that only SQLite has,
    /// on a server.
    func checkSQLiteOnly(_ feature: String) throws {
        if let server { throw server.dialect.unsupported(feature) }
    }

    /// The name of a table of a server, which finds tables by its own
    /// search path: a schema name is not supported yet.
    func checkServerSchema(_ table: String, _ schemaName: String?) throws -> String {
        if let schemaName, let server { throw server.dialect.unsupported("the schema name \(schemaName)") }
        return table
    }
}

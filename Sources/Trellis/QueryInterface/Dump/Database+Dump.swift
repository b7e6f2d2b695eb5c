/// Printing the content of the database, for debugging: each method prints
/// to the standard output, or to `stream`.
extension Database {
    /// Prints the rows of the statements of `sql`, one statement after the
    /// other. Statements without result columns run and print nothing.
    ///
    /// ```swift
    /// try db.dumpSQL("SELECT type, sql FROM sqlite_schema WHERE tbl_name = 'player'")
    /// try db.dumpSQL("INSERT INTO player (name) VALUES ('Arthur'); SELECT * FROM player")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid or SQLite fails; the
    ///   error of the format.
    public func dumpSQL(_ sql: SQL, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        let statements = try allStatements(literal: sql)
        var format = format
        var output = DumpStream(stream)
        while let statement = try statements.next() {
            if statement.columnCount == 0 {
                try statement.execute()
            } else {
                try dump(statement, format: &format, to: &output)
            }
        }
    }

    /// Prints the rows of a request.
    ///
    /// ```swift
    /// try db.dumpRequest(Player.order(Column("score").desc))
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the request cannot be compiled or
    ///   SQLite fails; the error of the format.
    public func dumpRequest(_ request: some FetchRequest, format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        let statement = try request.makePreparedRequest(self, forSingleResult: false).statement
        var format = format
        var output = DumpStream(stream)
        try dump(statement, format: &format, to: &output)
    }

    /// Prints the rows of tables, sorted by primary key, each under its
    /// name when there are several, or always with `tableHeader: .always`.
    ///
    /// ```swift
    /// try db.dumpTables(["team", "player"])
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if a table does not exist or SQLite fails;
    ///   the error of the format.
    public func dumpTables(
        _ tables: [String], format: some DumpFormat = .debug(), tableHeader: DumpTableHeaderOptions = .automatic,
        stableOrder: Bool = false, to stream: (any TextOutputStream)? = nil) throws
    {
        var format = format
        var output = DumpStream(stream)
        let printsNames = tables.count > 1 || tableHeader == .always
        for table in tables {
            output.margin()
            if printsNames { output.write(table + "\n") }
            try dump(tableStatement(table, stableOrder: stableOrder), format: &format, to: &output)
        }
    }

    /// Prints the schema, then the rows of every table.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails; the error of the format.
    public func dumpContent(format: some DumpFormat = .debug(), to stream: (any TextOutputStream)? = nil) throws {
        var format = format
        var output = DumpStream(stream)
        try writeSchema(to: &output)
        for table in try userTableNames() {
            output.margin()
            output.write(table + "\n")
            try dump(tableStatement(table, stableOrder: true), format: &format, to: &output)
        }
    }

    /// Prints the schema: the SQL of tables, indexes, views and triggers.
    ///
    /// - Throws: A ``DatabaseError`` if SQLite fails.
    public func dumpSchema(to stream: (any TextOutputStream)? = nil) throws {
        var output = DumpStream(stream)
        try writeSchema(to: &output)
    }

    /// Prints the rows of `statement`, then ends its output.
    private func dump(_ statement: Statement, format: inout some DumpFormat, to stream: inout DumpStream) throws {
        let cursor = try Row.fetchCursor(statement)
        while try cursor.next() != nil {
            try format.writeRow(self, statement: statement, to: &stream)
        }
        format.finalize(self, statement: statement, to: &stream)
    }

    private func writeSchema(to output: inout DumpStream) throws {
        output.write("sqlite_master\n")
        let shadowTables = try shadowTableNames()
        let rows = try Row.fetchAll(self, sql: """
            SELECT tbl_name, sql || ';' AS sql FROM sqlite_master
            WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY tbl_name COLLATE NOCASE, type = 'table' DESC, name COLLATE NOCASE
            """)
        for row in rows where !shadowTables.contains((row["tbl_name"] as String).lowercased()) {
            output.write((row["sql"] as String) + "\n")
        }
    }

    private func userTableNames() throws -> [String] {
        let shadowTables = try shadowTableNames()
        return try String.fetchAll(self, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'
            ORDER BY name COLLATE NOCASE
            """).filter { !shadowTables.contains($0.lowercased()) }
    }

    /// The lowercased names of the tables that store virtual tables
    /// (`document_content` of a full-text `document` table): GRDB leaves
    /// them out of dumps. SQLite 3.37+ tells them apart.
    private func shadowTableNames() throws -> Set<String> {
        guard let names = try? String.fetchAll(self, sql: "SELECT name FROM pragma_table_list WHERE type = 'shadow'") else {
            return []
        }
        return Set(names.map { $0.lowercased() })
    }

    /// The statement of the rows of a table, by primary key (or rowid). A view has none:
    /// its rows come in their own order, or in every column when
    /// `stableOrder` asks for an order that does not depend on the view.
    /// Ordering a table by key needs no collation that the connection may
    /// lack (Android databases declare `COLLATE LOCALIZED` columns).
    private func tableStatement(_ table: String, stableOrder: Bool) throws -> Statement {
        let quoted = table.quotedDatabaseIdentifier
        let ordering: String
        if try viewExists(table) {
            guard stableOrder else { return try makeStatement(sql: "SELECT * FROM \(quoted)") }
            let count = try columns(in: table).count
            ordering = (1...max(1, count)).map(String.init).joined(separator: ", ")
        } else if let rowID = try recordStatementCache.rowIDName(self, table) {
            let primaryKey = try primaryKey(table)
            ordering = primaryKey.isRowID ? rowID : primaryKey.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        } else {
            ordering = try primaryKey(table).columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
        }
        return try makeStatement(sql: "SELECT * FROM \(quoted) ORDER BY \(ordering)")
    }
}

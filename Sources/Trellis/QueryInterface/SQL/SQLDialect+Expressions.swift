// The operators, functions and clauses of the query interface, in the SQL
// of each engine: the same request gives the same rows on SQLite and on
// PostgreSQL, or throws an error that names what only SQLite has.

// MARK: - Operators

extension SQLDialect {
    /// A binary operator of the query interface, given as SQLite writes
    /// it.
    ///
    /// SQLite's `IS` and `IS NOT` (`===`, `!==`) compare any two values,
    /// NULL included. PostgreSQL's `IS` only takes `NULL`, `TRUE` and
    /// `FALSE`: its comparison of any two values is `IS NOT DISTINCT FROM`.
    ///
    /// SQLite's `LIKE` ignores the case of ASCII letters, and PostgreSQL's
    /// does not: its `ILIKE` does. It ignores the case of other letters as
    /// well, where the database's locale knows them.
    package func binaryOperator(_ sqliteOperator: String) throws -> String {
        switch (engine, sqliteOperator) {
        case (.sqlite, _): return sqliteOperator
        case (.postgreSQL, "IS"): return "IS NOT DISTINCT FROM"
        case (.postgreSQL, "IS NOT"): return "IS DISTINCT FROM"
        case (.postgreSQL, "LIKE"): return "ILIKE"
        case (.postgreSQL, "MATCH"):
            throw unsupported("Full-text search (MATCH)", hint: "FTS3, FTS4 and FTS5 tables are SQLite's")
        case (.postgreSQL, "->"), (.postgreSQL, "->>"):
            // PostgreSQL's operators take a key where SQLite's take a
            // path (`'$.a'`), and refuse a TEXT column.
            throw unsupported("The JSON operator \(sqliteOperator)", hint: Self.jsonHint)
        case (.postgreSQL, _): return sqliteOperator
        }
    }

    private static let jsonHint = "Trellis's JSON functions are SQLite's"
}

// MARK: - Functions

extension SQLDialect {
    /// The call of a function of the query interface, named as SQLite
    /// names it (`IFNULL`, `TOTAL`...).
    ///
    /// Each closure of `arguments` writes the SQL of one argument, and
    /// binds its values: the dialect calls them in the order their SQL
    /// takes in the result, which may not be SQLite's order, so that the
    /// values follow their placeholders.
    ///
    /// On PostgreSQL, the functions that SQLite names otherwise, or whose
    /// results differ, are translated: `IFNULL` is `COALESCE`; `TOTAL`, 0.0
    /// for no row, and `AVG` are doubles as on SQLite; `MAX(x, y)` and
    /// `MIN(x, y)` are NULL when an argument is NULL, unlike `GREATEST` and
    /// `LEAST`; `LIKE(pattern, x, escape)` is `x ILIKE pattern ESCAPE
    /// escape`. The functions that only SQLite has throw.
    package func functionCall(_ name: String, distinct: Bool, arguments: [() throws -> String]) throws -> String {
        func call(_ name: String, _ arguments: [() throws -> String]) throws -> String {
            name + "(" + (distinct ? "DISTINCT " : "") + (try arguments.map { try $0() }.joined(separator: ", ")) + ")"
        }
        guard engine == .postgreSQL else { return try call(name, arguments) }
        try checkFunction(name)
        switch (name, arguments.count) {
        case ("IFNULL", _):
            return try call("COALESCE", arguments)
        case ("TOTAL", 1):
            return "CAST(COALESCE(" + (try call("SUM", arguments)) + ", 0) AS DOUBLE PRECISION)"
        case ("AVG", 1):
            // PostgreSQL's average of integers is a NUMERIC, which Trellis
            // reads as an integer when it is whole.
            return "CAST(" + (try call("AVG", arguments)) + " AS DOUBLE PRECISION)"
        case ("MAX", 2...), ("MIN", 2...):
            // The aggregate of the arguments, each written once, so that
            // their values are bound once.
            let values = try arguments.map { "(" + (try $0()) + ")" }.joined(separator: ", ")
            return "(SELECT CASE WHEN COUNT(trellis_value) = \(arguments.count) THEN \(name)(trellis_value) END "
                + "FROM (VALUES \(values)) AS trellis_values(trellis_value))"
        case ("LIKE", 3):
            let value = try arguments[1]()
            let pattern = try arguments[0]()
            let escape = try arguments[2]()
            return "((\(value)) ILIKE (\(pattern)) ESCAPE (\(escape)))"
        default:
            return try call(name, arguments)
        }
    }

    /// Throws for a function, named as SQLite names it, that only SQLite
    /// has.
    package func checkFunction(_ name: String) throws {
        guard engine == .postgreSQL else { return }
        if ["DATETIME", "JULIANDAY"].contains(name) {
            throw unsupported(
                "\(name)()", hint: "compute the date in Swift, or write PostgreSQL's date functions in SQL")
        }
        if name.hasPrefix("JSON") {
            throw unsupported("\(name)()", hint: Self.jsonHint)
        }
        if DatabaseFunction.builtIn.contains(where: { $0.name == name }) {
            throw unsupported(
                "\(name)()", hint: "lowercased, uppercased and capitalized call Swift functions of SQLite connections")
        }
    }
}

// MARK: - Collations, types and subqueries

extension SQLDialect {
    /// The collation of `x COLLATE name`, named as SQLite names it.
    ///
    /// SQLite's `BINARY` compares the bytes of the text, as PostgreSQL's
    /// `"C"` does: both order UTF-8 text by code point. PostgreSQL has no
    /// `NOCASE` nor `RTRIM`, nor the collations that Swift implements.
    package func collation(_ sqliteName: String) throws -> String {
        switch (engine, sqliteName.uppercased()) {
        case (.sqlite, _): return sqliteName
        case (.postgreSQL, "BINARY"): return "\"C\""
        case (.postgreSQL, _): throw unsupported("COLLATE \(sqliteName)")
        }
    }

    /// What follows a subquery in a `FROM` clause: PostgreSQL before
    /// version 16 refuses a subquery without a name.
    package func subqueryName(_ name: String) -> String {
        switch engine {
        case .sqlite: ""
        case .postgreSQL: " AS " + name.quotedDatabaseIdentifier
        }
    }
}

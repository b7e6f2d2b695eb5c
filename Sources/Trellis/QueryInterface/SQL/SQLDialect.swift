import Foundation

/// The SQL language of a database engine: the one place that knows how
/// SQLite and PostgreSQL differ.
///
/// The SQL generator and the schema DSL ask the dialect of their
/// generation context instead of testing which engine they write for.
/// SQLite is the default, and its answers are the SQL that Trellis
/// always wrote, byte for byte.
package struct SQLDialect: Sendable, Hashable {
    package enum Engine: Sendable, Hashable {
        case sqlite
        case postgreSQL
    }

    package let engine: Engine

    /// SQLite: the default dialect.
    package static let sqlite = SQLDialect(engine: .sqlite)

    /// PostgreSQL, and the engines that speak its protocol.
    package static let postgreSQL = SQLDialect(engine: .postgreSQL)

    /// The name of the engine, for error messages.
    package var name: String {
        switch engine {
        case .sqlite: "SQLite"
        case .postgreSQL: "PostgreSQL"
        }
    }

    /// The error thrown when a feature that only another engine has is
    /// used: Trellis never drops it silently. `hint` tells what to use
    /// instead.
    package func unsupported(_ feature: String, hint: String? = nil) -> DatabaseError {
        DatabaseError(
            resultCode: .SQLITE_ERROR, message: "\(feature) is not supported by \(name)" + (hint.map { ": " + $0 } ?? ""))
    }
}

// MARK: - Keys

extension SQLDialect {
    /// A query of the key that the sequence of a column (an identity or
    /// serial column) gave the last row that the session inserted in a
    /// table, NULL when no sequence fills the column: unlike `lastval()`,
    /// it can not return the value of another table's sequence. Its two
    /// arguments are the quoted name of the table and the column's name.
    ///
    /// Only a server needs it: SQLite tells the rowid of each insertion.
    package func generatedKeySQL() throws -> String {
        guard engine == .postgreSQL else { throw unsupported("reading a generated key with a query") }
        return "SELECT currval(pg_get_serial_sequence(?, ?))"
    }
}

// MARK: - Grouping

extension SQLDialect {
    /// Whether a grouped query may select columns that are neither grouped
    /// nor aggregated. SQLite takes their values from one row of each
    /// group. PostgreSQL accepts only the columns of a table whose primary
    /// key is grouped: the generator groups by the primary keys of the
    /// joined tables too.
    package var selectsUngroupedColumns: Bool {
        engine == .sqlite
    }
}

// MARK: - Upserts

extension SQLDialect {
    /// Whether the `DO UPDATE SET` clause of an upsert qualifies the
    /// columns of the target table with its name (`"player"."score"`).
    ///
    /// SQLite reads an unqualified column there as a column of the existing
    /// row. PostgreSQL sees the columns of `excluded` as well, and refuses
    /// the unqualified name as ambiguous. Both refuse a qualified column on
    /// the left of `=`: the assigned columns stay unqualified.
    package var qualifiesUpsertTargetColumns: Bool {
        engine == .postgreSQL
    }

    /// The conflict target of an upsert that updates the existing row:
    /// `target` when it names columns. SQLite's `ON CONFLICT DO UPDATE`
    /// without a target catches the conflicts of any unique key;
    /// PostgreSQL requires a target, and takes the primary key.
    package func upsertConflictTarget(_ target: [String], primaryKey: () throws -> [String]) rethrows -> [String] {
        guard target.isEmpty, engine == .postgreSQL else { return target }
        return try primaryKey()
    }
}

// MARK: - Values

extension SQLDialect {
    /// A value written as an SQL literal, for the schema statements that
    /// take no parameters (`DEFAULT`, `CHECK`).
    package func literal(_ value: DatabaseValue) -> String {
        switch (engine, value.storage) {
        case (.postgreSQL, .blob(let data)):
            // `X'…'` is SQLite's; PostgreSQL reads a hex `bytea` string.
            return "'\\x" + data.map { byte in
                let hex = String(byte, radix: 16)
                return byte < 16 ? "0" + hex : hex
            }.joined() + "'::bytea"
        default:
            return value.sqlLiteral
        }
    }

    /// A value written as an SQL literal for a column of type
    /// `columnType`, as SQLite names it: the `DEFAULT` of a column.
    ///
    /// Trellis stores a `Bool` as the integer 1 or 0, which SQLite's
    /// `BOOLEAN` columns take. A PostgreSQL `BOOLEAN` column refuses an
    /// integer default: 1 and 0 are written `TRUE` and `FALSE` there. Other
    /// columns, `INTEGER` ones included, keep the integer, which is what
    /// `defaults(to: true)` stores on SQLite.
    package func literal(_ value: DatabaseValue, columnType: String?) -> String {
        if engine == .postgreSQL, let columnType, ["BOOLEAN", "BOOL"].contains(columnType.uppercased()),
           case .int64(let int) = value.storage, int == 0 || int == 1
        {
            return literal(int == 1)
        }
        return literal(value)
    }

    /// A constant condition, such as the one that matches no row: SQLite
    /// has no boolean type and takes 1 and 0, PostgreSQL wants a boolean
    /// where it expects a condition (`WHERE`, `ON`).
    package func literal(_ bool: Bool) -> String {
        switch engine {
        case .sqlite: bool ? "1" : "0"
        case .postgreSQL: bool ? "TRUE" : "FALSE"
        }
    }
}

// MARK: - Schema

extension SQLDialect {
    /// What follows the name of a column in its definition: its type, and
    /// its primary key clause when it is the primary key.
    ///
    /// SQLite fills an `INTEGER PRIMARY KEY` that a row leaves NULL with a
    /// new rowid: PostgreSQL's equivalent is an identity column, which
    /// fills it when an insert leaves the column out, as Trellis's record
    /// inserts do on a server.
    package func columnTypeAndPrimaryKey(
        type: String?, isPrimaryKey: Bool, conflict: String?, autoincrement: Bool) throws -> String
    {
        switch engine {
        case .sqlite:
            var sql = type.map { " " + $0 } ?? ""
            if isPrimaryKey {
                sql += " PRIMARY KEY" + (try conflictClause(conflict))
                if autoincrement { sql += " AUTOINCREMENT" }
            }
            return sql
        case .postgreSQL:
            _ = try conflictClause(conflict)
            if isPrimaryKey, type?.uppercased() == "INTEGER" {
                return " BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"
            }
            if autoincrement { throw unsupported("AUTOINCREMENT on a column of type \(type ?? "none")") }
            var sql = try type.map { " " + (try typeName($0)) } ?? ""
            if isPrimaryKey { sql += " PRIMARY KEY" }
            return sql
        }
    }

    /// The name of a column type, given as SQLite names it.
    package func typeName(_ sqliteName: String) throws -> String {
        switch (engine, sqliteName.uppercased()) {
        case (.sqlite, _): sqliteName
        case (.postgreSQL, "DOUBLE"): "DOUBLE PRECISION"
        case (.postgreSQL, "BLOB"): "BYTEA"
        case (.postgreSQL, "DATETIME"): "TIMESTAMP"
        case (.postgreSQL, "ANY"): throw unsupported("The column type ANY")
        case (.postgreSQL, _): sqliteName
        }
    }

    /// The `ON CONFLICT` clause of a constraint (`NOT NULL ON CONFLICT
    /// REPLACE`), which only SQLite has.
    package func conflictClause(_ conflict: String?) throws -> String {
        guard let conflict else { return "" }
        guard engine == .sqlite else { throw unsupported("ON CONFLICT \(conflict) in a constraint") }
        return " ON CONFLICT \(conflict)"
    }

    /// Throws for a feature of the schema that only SQLite has: a
    /// collation, a table option, a virtual generated column.
    package func checkSchemaFeature(_ feature: String) throws {
        guard engine == .sqlite else { throw unsupported(feature) }
    }
}

// MARK: - Statements and placeholders

/// One statement as the engine runs it: its SQL, and the values of its
/// parameters in order.
package struct DialectStatement: Equatable, Sendable {
    package var sql: String
    package var values: [DatabaseValue]
}

extension SQLDialect {
    /// The statements that the engine runs for SQL written for SQLite.
    ///
    /// Trellis writes `?` for each bound value, in the order of the text,
    /// and users write `?`, `:name`, `@name` or `$name` in raw SQL, and may
    /// separate several statements with semicolons. SQLite runs that SQL
    /// as it is. PostgreSQL runs one statement at a time and numbers its
    /// parameters (`$1`, `$2`...): each `?` takes the next number and the
    /// next positional value, and a name takes one number for all its uses
    /// in its statement. A statement that already numbers its parameters
    /// (`$1`) keeps its text and takes the positional values as they are.
    /// Quoted strings, quoted identifiers, comments, `::` casts and
    /// dollar-quoted bodies are copied unchanged.
    ///
    /// Numbering placeholders in the final text, instead of while
    /// generating, keeps the generator's fragments independent of their
    /// position (subqueries, raw SQL literals, cached record statements),
    /// and leaves SQLite's SQL as it was.
    package func statements(_ sql: String, arguments: StatementArguments) throws -> [DialectStatement] {
        switch engine {
        case .sqlite:
            return [DialectStatement(sql: sql, values: arguments.values)]
        case .postgreSQL:
            var translation = PostgreSQLStatements(sql: sql, arguments: arguments)
            return try translation.translate()
        }
    }
}

/// One statement of SQL written for SQLite, as the engine runs it, before
/// it has arguments: see ``SQLDialect/templates(_:)``.
package struct DialectStatementTemplate: Equatable, Sendable {
    /// The statement as it was written, trimmed, for errors and traces.
    package var sql: String

    /// The statement as the engine runs it (`$1`, `$2`... on PostgreSQL).
    package var engineSQL: String

    /// The engine's parameters in the order of their numbers, each written
    /// as an SQLite placeholder (`?`, `:name`, `?3`): SQLite numbers these
    /// placeholders as the engine numbers its parameters.
    package var placeholders: [String]

    /// The length in UTF-8 bytes of the translated SQL up to the end of
    /// the statement, its semicolon included: where the next one starts.
    package var utf8Count: Int
}

extension SQLDialect {
    /// The statements of SQL written for SQLite, translated for the engine
    /// as ``statements(_:arguments:)`` translates them, with the
    /// placeholders of their parameters instead of values: a statement
    /// prepared once runs with the arguments that are bound later.
    ///
    /// SQLite numbers `?` and the first use of each name in the order of
    /// the text, as PostgreSQL's translation does; `$1`... keep their
    /// numbers, as `?1`...
    package func templates(_ sql: String) throws -> [DialectStatementTemplate] {
        var translation = PostgreSQLStatements(sql: sql, arguments: nil)
        _ = try translation.translate()
        return translation.templates
    }
}

/// The split of SQL into statements, and the translation of `?` and named
/// parameters into PostgreSQL's `$n`.
private struct PostgreSQLStatements {
    let sql: String
    /// Nil when translating templates: parameters take no value.
    let arguments: StatementArguments?
    private(set) var templates: [DialectStatementTemplate] = []
    private var statementStart = 0
    private var placeholders: [String] = []
    private var highestNumber = 0
    /// The UTF-8 length of the statements before the current one.
    private var utf8Count = 0
    private var scalars: [Unicode.Scalar]
    private var position = 0
    private var positionalIndex = 0
    private var statements: [DialectStatement] = []

    // The statement being translated.
    private var result = ""
    private var values: [DatabaseValue] = []
    private var namedNumbers: [String: Int] = [:]
    private var usesNumberedParameters = false
    private var hasContent = false

    init(sql: String, arguments: StatementArguments?) {
        self.sql = sql
        self.arguments = arguments
        self.scalars = Array(sql.unicodeScalars)
    }

    private func peek(_ offset: Int = 0) -> Unicode.Scalar? {
        position + offset < scalars.count ? scalars[position + offset] : nil
    }

    private mutating func copy(count: Int = 1) {
        for _ in 0..<count where position < scalars.count {
            result.unicodeScalars.append(scalars[position])
            position += 1
        }
    }

    private static func isNameStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.isAlphabetic || scalar == "_"
    }

    private static func isNamePart(_ scalar: Unicode.Scalar) -> Bool {
        isNameStart(scalar) || ("0"..."9").contains(scalar)
    }

    mutating func translate() throws -> [DialectStatement] {
        while let scalar = peek() {
            switch scalar {
            case "-" where peek(1) == "-":
                while let next = peek(), next != "\n" { copy() }
                continue
            case "/" where peek(1) == "*":
                copy(count: 2)
                while peek() != nil && !(peek() == "*" && peek(1) == "/") { copy() }
                copy(count: 2)
                continue
            case ";":
                try endStatement(end: position)
                position += 1
                statementStart = position
                continue
            default:
                break
            }
            if !scalar.properties.isWhitespace { hasContent = true }
            switch scalar {
            case "'", "\"":
                copyQuoted(by: scalar)
            case ":" where peek(1) == ":":
                copy(count: 2)
            case "?":
                position += 1
                let positional = arguments?.values ?? []
                values.append(positionalIndex < positional.count ? positional[positionalIndex] : .null)
                placeholders.append("?")
                positionalIndex += 1
                result += "$\(values.count)"
            case ":", "@", "$":
                try translateNamedOrDollar(scalar)
            default:
                copy()
            }
        }
        try endStatement(end: position)
        guard let arguments else { return statements }
        if positionalIndex != arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: expected \(positionalIndex), got \(arguments.values.count)",
                sql: sql)
        }
        return statements
    }

    private mutating func endStatement(end: Int) throws {
        defer {
            result = ""
            values = []
            namedNumbers = [:]
            usesNumberedParameters = false
            hasContent = false
            placeholders = []
            highestNumber = 0
        }
        // The statement and its semicolon, if any.
        for scalar in scalars[statementStart..<min(end + 1, scalars.count)] {
            utf8Count += UTF8.width(scalar)
        }
        guard hasContent else { return }
        if usesNumberedParameters {
            guard values.isEmpty, arguments == nil || positionalIndex == 0 else {
                throw DatabaseError.misuse("numbered parameters ($1) can not be mixed with ? or named parameters", sql: sql)
            }
            // SQLite holds the values of the parameters: its limit applies.
            guard highestNumber <= 32766 else {
                throw DatabaseError.misuse("too many SQL variables: $\(highestNumber)", sql: sql)
            }
            placeholders = highestNumber == 0 ? [] : (1...highestNumber).map { "?\($0)" }
            let positional = arguments?.values ?? []
            positionalIndex = positional.count
            statements.append(DialectStatement(sql: result, values: positional))
        } else {
            statements.append(DialectStatement(sql: result, values: values))
        }
        var written = ""
        written.unicodeScalars.append(contentsOf: scalars[statementStart..<end])
        templates.append(DialectStatementTemplate(
            sql: written.trimmingCharacters(in: .whitespacesAndNewlines), engineSQL: result, placeholders: placeholders,
            utf8Count: utf8Count))
    }

    private mutating func copyQuoted(by quote: Unicode.Scalar) {
        copy()
        while let next = peek() {
            copy()
            // A doubled quote is an escaped quote: the loop reads it as
            // the end and the start of two quoted runs, copied alike.
            if next == quote { return }
        }
    }

    private mutating func translateNamedOrDollar(_ prefix: Unicode.Scalar) throws {
        if prefix == "$" {
            if let next = peek(1), ("0"..."9").contains(next) {
                usesNumberedParameters = true
                copy()
                var digits = ""
                while let digit = peek(), ("0"..."9").contains(digit) {
                    digits.unicodeScalars.append(digit)
                    copy()
                }
                highestNumber = max(highestNumber, Int(digits) ?? 0)
                return
            }
            if let tag = dollarQuoteTag() {
                copyDollarQuoted(tag: tag)
                return
            }
        }
        guard let first = peek(1), Self.isNameStart(first) else {
            copy()
            return
        }
        var name = ""
        var end = position + 1
        while end < scalars.count, Self.isNamePart(scalars[end]) {
            name.unicodeScalars.append(scalars[end])
            end += 1
        }
        let value: DatabaseValue
        if let arguments {
            guard let named = arguments.namedValues[name] else {
                throw DatabaseError.misuse("missing statement argument: \(name)", sql: sql)
            }
            value = named
        } else {
            value = .null
        }
        position = end
        if let number = namedNumbers[name] {
            result += "$\(number)"
        } else {
            values.append(value)
            placeholders.append(":" + name)
            namedNumbers[name] = values.count
            result += "$\(values.count)"
        }
    }

    /// The tag of a dollar quote that starts at the current position
    /// (`$$` or `$body$`), if any.
    private func dollarQuoteTag() -> String? {
        var end = position + 1
        var tag = "$"
        while end < scalars.count {
            let scalar = scalars[end]
            if scalar == "$" { return tag + "$" }
            guard Self.isNamePart(scalar) else { return nil }
            tag.unicodeScalars.append(scalar)
            end += 1
        }
        return nil
    }

    private mutating func copyDollarQuoted(tag: String) {
        let tagScalars = Array(tag.unicodeScalars)
        copy(count: tagScalars.count)
        while position < scalars.count {
            if scalars[position...].starts(with: tagScalars) {
                copy(count: tagScalars.count)
                return
            }
            copy()
        }
    }
}

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
    /// used: Trellis never drops it silently.
    package func unsupported(_ feature: String) -> DatabaseError {
        DatabaseError(resultCode: .SQLITE_ERROR, message: "\(feature) is not supported by \(name)")
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

/// The split of SQL into statements, and the translation of `?` and named
/// parameters into PostgreSQL's `$n`.
private struct PostgreSQLStatements {
    let sql: String
    let arguments: StatementArguments
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

    init(sql: String, arguments: StatementArguments) {
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
                position += 1
                try endStatement()
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
                values.append(positionalIndex < arguments.values.count ? arguments.values[positionalIndex] : .null)
                positionalIndex += 1
                result += "$\(values.count)"
            case ":", "@", "$":
                try translateNamedOrDollar(scalar)
            default:
                copy()
            }
        }
        try endStatement()
        if positionalIndex != arguments.values.count {
            throw DatabaseError.misuse(
                "wrong number of statement arguments: expected \(positionalIndex), got \(arguments.values.count)",
                sql: sql)
        }
        return statements
    }

    private mutating func endStatement() throws {
        defer {
            result = ""
            values = []
            namedNumbers = [:]
            usesNumberedParameters = false
            hasContent = false
        }
        guard hasContent else { return }
        if usesNumberedParameters {
            guard values.isEmpty, positionalIndex == 0 else {
                throw DatabaseError.misuse("numbered parameters ($1) can not be mixed with ? or named parameters", sql: sql)
            }
            positionalIndex = arguments.values.count
            statements.append(DialectStatement(sql: result, values: arguments.values))
        } else {
            statements.append(DialectStatement(sql: result, values: values))
        }
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
                while let digit = peek(), ("0"..."9").contains(digit) { copy() }
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
        guard let value = arguments.namedValues[name] else {
            throw DatabaseError.misuse("missing statement argument: \(name)", sql: sql)
        }
        position = end
        if let number = namedNumbers[name] {
            result += "$\(number)"
        } else {
            values.append(value)
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

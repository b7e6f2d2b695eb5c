import Foundation

/// A piece of SQL with its arguments, built with string interpolation:
/// interpolated values are bound, never pasted into the SQL.
///
/// ```swift
/// let name = "O'Brien"
/// let query: SQL = "SELECT * FROM player WHERE name = \(name)"
/// let players = try Row.fetchAll(db, SQLRequest(literal: query))
/// try db.execute(literal: "UPDATE player SET score = \(1000) WHERE id = \(1)")
/// ```
///
/// Interpolations also accept columns, expressions, tables and requests:
/// `"SELECT \(Column("name")) FROM \(Player.self)"`.
public struct SQL: Sendable {
    enum Element: Sendable {
        case sql(String, StatementArguments)
        case expression(SQLExpression)
        case identifier(String)
        case subquery(SQLSubquery)
        case selection(SQLSelection)
        case ordering(SQLOrdering)
        case collation(DatabaseCollation)
    }

    var elements: [Element]

    /// Raw SQL with its arguments.
    public init(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements = [.sql(sql, arguments)]
    }

    /// An expression.
    public init(_ expression: some SQLExpressible) {
        elements = [.expression(expression.sqlExpression)]
    }

    init(elements: [Element]) {
        self.elements = elements
    }

    /// Whether the SQL is empty.
    public var isEmpty: Bool {
        elements.allSatisfy {
            if case .sql(let sql, let arguments) = $0 { return sql.isEmpty && arguments.isEmpty }
            return false
        }
    }

    var isSingleToken: Bool {
        guard elements.count == 1 else { return false }
        switch elements[0] {
        case .sql(let sql, _):
            return !sql.contains(where: { $0 == " " || $0 == "\n" || $0 == "\t" })
        case .identifier:
            return true
        default:
            return false
        }
    }

    /// The literal with its interpolated expressions qualified by `alias`.
    func qualified(with alias: AliasIdentity) -> SQL {
        SQL(elements: elements.map { element in
            switch element {
            case .expression(let expression): return .expression(expression.qualified(with: alias))
            case .selection(let selection): return .selection(selection.qualified(with: alias))
            case .ordering(let ordering): return .ordering(ordering.qualified(with: alias))
            case .sql, .identifier, .subquery, .collation: return element
            }
        })
    }

    /// Appends `other`.
    public mutating func append(literal other: SQL) {
        elements.append(contentsOf: other.elements)
    }

    /// Appends raw SQL.
    public mutating func append(sql: String, arguments: StatementArguments = StatementArguments()) {
        elements.append(.sql(sql, arguments))
    }

    public static func + (lhs: SQL, rhs: SQL) -> SQL {
        SQL(elements: lhs.elements + rhs.elements)
    }

    public static func += (lhs: inout SQL, rhs: SQL) {
        lhs.append(literal: rhs)
    }

    /// The SQL, with named arguments turned into positional ones, and its
    /// arguments appended to the context.
    func sql(_ context: SQLGenerationContext) throws -> String {
        var result = ""
        for element in elements {
            switch element {
            case .sql(let sql, let arguments):
                if arguments.namedValues.isEmpty && (!context.inlinesValues || arguments.values.isEmpty) {
                    context.arguments.append(contentsOf: arguments.values)
                    result += sql
                } else {
                    result += try Self.positional(sql: sql, arguments: arguments, context: context)
                }
            case .expression(let expression):
                result += try expression.sql(context)
            case .identifier(let name):
                result += name.quotedDatabaseIdentifier
            case .subquery(let subquery):
                result += try subquery.sql(context)
            case .selection(let selection):
                result += try selection.sql(context)
            case .ordering(let ordering):
                result += try ordering.sql(context)
            case .collation(let collation):
                context.db.addIfNeeded(collation: collation)
                result += collation.name.databaseIdentifierQuotedIfNeeded
            }
        }
        return result
    }

    /// The SQL and its arguments, ready to run.
    ///
    /// - Throws: A ``DatabaseError`` if a piece of the literal cannot be
    ///   compiled, such as a table or column that does not exist.
    public func build(_ db: Database) throws -> (sql: String, arguments: StatementArguments) {
        let context = SQLGenerationContext(db)
        let sql = try sql(context)
        return (sql, StatementArguments(values: context.arguments))
    }

    /// Replaces `:name` parameters with `?`, in order, so that pieces with
    /// named arguments can be combined.
    private static func positional(sql: String, arguments: StatementArguments, context: SQLGenerationContext) throws -> String {
        var result = ""
        var positional = arguments.values.makeIterator()
        var iterator = sql.unicodeScalars.makeIterator()
        var quote: Unicode.Scalar?
        var pending: Unicode.Scalar? = iterator.next()
        while let scalar = pending {
            pending = iterator.next()
            if let open = quote {
                result.unicodeScalars.append(scalar)
                if scalar == open { quote = nil }
                continue
            }
            switch scalar {
            case "'", "\"", "`":
                quote = scalar
                result.unicodeScalars.append(scalar)
            case "?":
                guard let value = positional.next() else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "wrong number of statement arguments", sql: sql)
                }
                result += context.bind(value)
            case ":", "@", "$":
                var name = ""
                while let next = pending, next.properties.isAlphabetic || next == "_" || ("0"..."9").contains(next) {
                    name.unicodeScalars.append(next)
                    pending = iterator.next()
                }
                if name.isEmpty {
                    result.unicodeScalars.append(scalar)
                } else if let value = arguments.namedValues[name] {
                    result += context.bind(value)
                } else {
                    throw DatabaseError(resultCode: .SQLITE_MISUSE, message: "missing statement argument: \(name)", sql: sql)
                }
            default:
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}

extension SQL: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self.init(sql: value)
    }

    public init(stringInterpolation: StringInterpolation) {
        self.init(elements: stringInterpolation.elements)
    }

    /// The interpolation of SQL literals.
    public struct StringInterpolation: StringInterpolationProtocol {
        var elements: [Element] = []

        public init(literalCapacity: Int, interpolationCount: Int) {}

        public mutating func appendLiteral(_ literal: String) {
            elements.append(.sql(literal, StatementArguments()))
        }

        /// A bound value, or an expression: `\(name)`, `\(Column("score") + 1)`.
        public mutating func appendInterpolation(_ expressible: some SQLExpressible) {
            elements.append(.expression(expressible.sqlExpression))
        }

        /// A bound value, or NULL written in the SQL: `\(optionalName)`.
        public mutating func appendInterpolation<T: SQLExpressible>(_ expressible: T?) {
            if let expressible {
                elements.append(.expression(expressible.sqlExpression))
            } else {
                elements.append(.sql("NULL", StatementArguments()))
            }
        }

        /// A bound blob: `\(data)` (not a list of bytes).
        public mutating func appendInterpolation(_ data: Data) {
            elements.append(.expression(data.sqlExpression))
        }

        /// A quoted column name, from a coding key that is also a column:
        /// `"SELECT \(CodingKeys.score) FROM player"`.
        public mutating func appendInterpolation<Key: CodingKey & SQLExpressible>(_ codingKey: Key) {
            elements.append(.identifier(codingKey.stringValue))
        }

        /// `*`: `"SELECT \(AllColumns()) FROM player"`.
        public mutating func appendInterpolation(_ allColumns: AllColumns) {
            elements.append(.sql("*", StatementArguments()))
        }

        /// An SQL literal, with its arguments.
        public mutating func appendInterpolation(literal sql: SQL) {
            elements.append(contentsOf: sql.elements)
        }

        /// Raw SQL, with its arguments: `\(sql: "score + ?", arguments: [1])`.
        public mutating func appendInterpolation(sql: String, arguments: StatementArguments = StatementArguments()) {
            elements.append(.sql(sql, arguments))
        }

        /// A quoted identifier: `\(identifier: "order")`.
        public mutating func appendInterpolation(identifier: String) {
            elements.append(.identifier(identifier))
        }

        /// An ordering term: `\(Column("score").desc)`.
        public mutating func appendInterpolation(_ ordering: SQLOrdering) {
            elements.append(.ordering(ordering.sqlOrdering))
        }

        /// A parenthesized list of values, for `IN` and `NOT IN`, written as
        /// GRDB writes it: `"WHERE id IN \(ids)"` gives `WHERE id IN (?,?,?)`.
        /// An empty sequence gives `(SELECT NULL WHERE NULL)`, an empty list
        /// that every SQL engine accepts: `IN` matches no row, `NOT IN` all.
        ///
        /// ```swift
        /// let ids: [Int64] = [1, 2, 3]
        /// let players = try SQLRequest<Player>(literal: "SELECT * FROM player WHERE id IN \(ids)").fetchAll(db)
        /// ```
        public mutating func appendInterpolation<S: Sequence>(_ sequence: S) where S.Element: SQLExpressible {
            var isEmpty = true
            elements.append(.sql("(", StatementArguments()))
            for element in sequence {
                if !isEmpty { elements.append(.sql(",", StatementArguments())) }
                isEmpty = false
                elements.append(.expression(element.sqlExpression))
            }
            if isEmpty { elements.append(.sql("SELECT NULL WHERE NULL", StatementArguments())) }
            elements.append(.sql(")", StatementArguments()))
        }

        /// A subquery, as GRDB writes it, without parentheses: write them
        /// where SQL needs them, as in
        /// `"WHERE score = (\(Player.select(max(Column("score")))))"`,
        /// and leave them out where it does not, as in
        /// `"\(bestPlayers) UNION \(newPlayers)"`.
        public mutating func appendInterpolation(_ subquery: some SQLSubqueryable) {
            elements.append(.subquery(subquery.sqlSubquery))
        }

        /// The quoted name of a table: `"SELECT * FROM \(Table("player"))"`.
        public mutating func appendInterpolation<RowDecoder>(_ table: Table<RowDecoder>) {
            elements.append(.identifier(table.tableName))
        }

        /// The quoted table name of a record type: `"SELECT * FROM \(Player.self)"`.
        public mutating func appendInterpolation<T: TableRecord>(_ table: T.Type) {
            elements.append(.identifier(T.databaseTableName))
        }

        /// The quoted table name of a record: `"SELECT * FROM \(tableOf: player)"`.
        public mutating func appendInterpolation<T: TableRecord>(tableOf record: T) {
            elements.append(.identifier(T.databaseTableName))
        }

        /// The columns selected by a record type, qualified by its table
        /// name or by `tableAlias`: `"SELECT \(columnsOf: Player.self) FROM player"`.
        public mutating func appendInterpolation<T: TableRecord>(columnsOf recordType: T.Type, tableAlias: String? = nil) {
            let qualifier = tableAlias ?? T.databaseTableName
            // A named alias that no request knows: its columns, in
            // expressions too, are qualified with its name.
            let alias = AliasIdentity(tableName: T.databaseTableName, userName: qualifier, isExplicit: true)
            for (index, selection) in T.defaultSelection.enumerated() {
                if index > 0 { elements.append(.sql(", ", StatementArguments())) }
                switch selection.impl {
                case .allColumns:
                    elements.append(.sql(qualifier.quotedDatabaseIdentifier + ".*", StatementArguments()))
                case .allColumnsExcluding, .expression:
                    elements.append(.selection(selection.qualified(with: alias)))
                }
            }
        }

        /// A quoted column name, from a coding key: `"SELECT \(CodingKeys.name) FROM player"`.
        public mutating func appendInterpolation(_ codingKey: some CodingKey) {
            elements.append(.identifier(codingKey.stringValue))
        }

        /// A built-in collation: `"ORDER BY email COLLATE \(.nocase)"`.
        public mutating func appendInterpolation(_ collation: Database.CollationName) {
            elements.append(.sql(collation.rawValue, StatementArguments()))
        }

        /// A collation implemented in Swift, registered when the SQL runs:
        /// `"ORDER BY name COLLATE \(.localizedCompare)"`.
        public mutating func appendInterpolation(_ collation: DatabaseCollation) {
            elements.append(.collation(collation))
        }
    }
}

extension SQL: SQLSpecificExpressible {
    public var sqlExpression: SQLExpression { .literal(self) }
}

extension SQL: SQLSelectable, SQLOrderingTerm {
    public var sqlSelection: SQLSelection { .expression(.literal(self), alias: nil) }
    public var sqlOrdering: SQLOrdering { SQLOrdering(expression: .literal(self), direction: nil) }
}

extension Database {
    /// Executes an SQL literal.
    ///
    /// ```swift
    /// try db.execute(literal: "INSERT INTO player (name) VALUES (\(name))")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, the arguments do
    ///   not fit, or SQLite fails.
    public func execute(literal sqlLiteral: SQL) throws {
        let (sql, arguments) = try sqlLiteral.build(self)
        try execute(sql: sql, arguments: arguments)
    }

    /// A new statement from an SQL literal, with its arguments set.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(literal: "SELECT * FROM player WHERE name = \(name)")
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   more than one statement.
    public func makeStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try makeStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }

    /// The statements of an SQL literal, with their shares of its
    /// arguments: see ``allStatements(sql:arguments:)``.
    ///
    /// ```swift
    /// let statements = try db.allStatements(literal: """
    ///     INSERT INTO player (name) VALUES (\(name));
    ///     DELETE FROM player WHERE name = \(oldName);
    ///     """)
    /// ```
    ///
    /// - Throws: A ``DatabaseError`` if a piece of the literal cannot be
    ///   compiled; the statements' own errors come from the cursor's `next()`.
    public func allStatements(literal sqlLiteral: SQL) throws -> SQLStatementCursor {
        let (sql, arguments) = try sqlLiteral.build(self)
        return try allStatements(sql: sql, arguments: arguments)
    }

    /// The cached statement of an SQL literal, with its arguments set.
    ///
    /// - Throws: A ``DatabaseError`` if the SQL is invalid, empty, or holds
    ///   more than one statement.
    public func cachedStatement(literal sqlLiteral: SQL) throws -> Statement {
        let (sql, arguments) = try sqlLiteral.build(self)
        let statement = try cachedStatement(sql: sql)
        try statement.setArguments(arguments)
        return statement
    }
}

extension Sequence where Element == SQL {
    /// The SQL literals concatenated, with `separator` between them.
    ///
    /// ```swift
    /// let components: [SQL] = [
    ///     "UPDATE player",
    ///     "SET name = \(name)",
    ///     "WHERE id = \(id)",
    /// ]
    /// try db.execute(literal: components.joined(separator: " "))
    /// ```
    public func joined(separator: String = "") -> SQL {
        var result = SQL(elements: [])
        for (index, literal) in enumerated() {
            if index > 0 && !separator.isEmpty { result.append(sql: separator) }
            result.append(literal: literal)
        }
        return result
    }
}

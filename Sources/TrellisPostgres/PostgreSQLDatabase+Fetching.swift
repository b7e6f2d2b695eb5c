import Trellis

extension Row {
    /// The rows of an SQL query.
    ///
    /// ```swift
    /// let rows = try Row.fetchAll(db, sql: "SELECT id, name FROM player WHERE score > ?", arguments: [10])
    /// ```
    public static func fetchAll(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Row]
    {
        try db.rows(sql: sql, arguments: arguments)
    }

    /// The first row of an SQL query, if any.
    ///
    /// ```swift
    /// let row = try Row.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1])
    /// ```
    public static func fetchOne(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Row?
    {
        try db.rows(sql: sql, arguments: arguments).first
    }
}

extension DatabaseValueConvertible {
    /// The values of the first column of an SQL query; NULL throws.
    ///
    /// ```swift
    /// let names = try String.fetchAll(db, sql: "SELECT name FROM player")
    /// ```
    public static func fetchAll(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self]
    {
        try db.rows(sql: sql, arguments: arguments).map { row in try row.decode(Self.self, atIndex: 0) }
    }

    /// The value of the first column of the first row of an SQL query:
    /// nil when there is no row, or when the value is NULL.
    ///
    /// ```swift
    /// let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player")
    /// ```
    public static func fetchOne(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self?
    {
        guard let row = try db.rows(sql: sql, arguments: arguments).first else { return nil }
        let dbValue: DatabaseValue = row[0]
        return dbValue.isNull ? nil : try row.decode(Self.self, atIndex: 0)
    }
}

extension FetchableRecord {
    /// The records of an SQL query.
    ///
    /// ```swift
    /// let players = try Player.fetchAll(db, sql: "SELECT * FROM player ORDER BY score DESC")
    /// ```
    public static func fetchAll(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> [Self]
    {
        try db.rows(sql: sql, arguments: arguments).map { row in try Self(row: row) }
    }

    /// The record of the first row of an SQL query, if any.
    ///
    /// ```swift
    /// let player = try Player.fetchOne(db, sql: "SELECT * FROM player WHERE id = ?", arguments: [1])
    /// ```
    public static func fetchOne(
        _ db: PostgreSQLDatabase.Connection, sql: String, arguments: StatementArguments = StatementArguments()) throws -> Self?
    {
        try db.rows(sql: sql, arguments: arguments).first.map { row in try Self(row: row) }
    }
}

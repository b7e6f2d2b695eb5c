/// The modifications of an existing table.
///
/// ```swift
/// try db.alter(table: "player") { t in
///     t.add(column: "email", .text)
///     t.rename(column: "name", to: "fullName")
///     t.drop(column: "obsolete")
/// }
/// ```
public final class TableAlteration {
    enum Change {
        case add(ColumnDefinition)
        case addSQL(SQL)
        case rename(String, String)
        case drop(String)
    }

    let name: String
    var changes: [Change] = []

    init(name: String) {
        self.name = name
    }

    /// Adds a column; `indexed()` adds an index named
    /// `<table>_on_<column>`.
    ///
    /// ```swift
    /// // ALTER TABLE "player" ADD COLUMN "hasBonus" BOOLEAN
    /// t.add(column: "hasBonus", .boolean)
    /// ```
    @discardableResult
    public func add(column name: String, _ type: Database.ColumnType? = nil) -> ColumnDefinition {
        let column = ColumnDefinition(name: name, type: type)
        changes.append(.add(column))
        return column
    }

    /// Adds a column defined with SQL.
    ///
    /// ```swift
    /// t.addColumn(sql: "hasBonus BOOLEAN")
    /// ```
    public func addColumn(sql: String) {
        changes.append(.addSQL(SQL(sql: sql)))
    }

    /// Adds a column defined with an SQL literal, whose interpolated
    /// values are written as SQL literals.
    ///
    /// ```swift
    /// let defaultName = "Anonymous"
    /// t.addColumn(literal: "name TEXT DEFAULT \(defaultName)")
    /// ```
    public func addColumn(literal: SQL) {
        changes.append(.addSQL(literal))
    }

    /// Renames a column.
    ///
    /// ```swift
    /// // ALTER TABLE "player" RENAME COLUMN "url" TO "homeURL"
    /// t.rename(column: "url", to: "homeURL")
    /// ```
    public func rename(column name: String, to newName: String) {
        changes.append(.rename(name, newName))
    }

    /// Drops a column.
    ///
    /// ```swift
    /// // ALTER TABLE "player" DROP COLUMN "score"
    /// t.drop(column: "score")
    /// ```
    public func drop(column name: String) {
        changes.append(.drop(name))
    }

    func sql(_ db: Database) throws -> [String] {
        let table = "ALTER TABLE " + name.quotedDatabaseIdentifier
        var statements: [String] = []
        for change in changes {
            switch change {
            case .add(let column):
                statements.append(table + " ADD COLUMN " + (try column.sql(db)))
                if column.isIndexed && column.unique == nil {
                    statements.append("CREATE INDEX " + "\(name)_on_\(column.name)".quotedDatabaseIdentifier
                        + " ON " + name.quotedDatabaseIdentifier + "(" + column.name.quotedDatabaseIdentifier + ")")
                }
            case .addSQL(let sql):
                statements.append(table + " ADD COLUMN " + (try sql.inlinedSQL(db)))
            case .rename(let old, let new):
                statements.append(table + " RENAME COLUMN " + old.quotedDatabaseIdentifier + " TO " + new.quotedDatabaseIdentifier)
            case .drop(let column):
                statements.append(table + " DROP COLUMN " + column.quotedDatabaseIdentifier)
            }
        }
        return statements
    }
}

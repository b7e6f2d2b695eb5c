extension Statement {
    /// The part of the database the statement reads: the columns SQLite
    /// reported when it prepared the statement. A statement that reads
    /// nothing (a plain `INSERT`) has an empty region.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// statement.databaseRegion.contains(table: "player") // true
    /// ```
    ///
    /// Its description is `player(name)`.
    public var databaseRegion: DatabaseRegion {
        DatabaseRegion(tables: region.readColumns)
    }
}

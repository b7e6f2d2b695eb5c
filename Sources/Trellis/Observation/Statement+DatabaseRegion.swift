extension Statement {
    /// The part of the database the statement reads: the tables SQLite
    /// reported when it prepared the statement. A statement that reads
    /// nothing (a plain `INSERT`) has an empty region.
    ///
    /// ```swift
    /// let statement = try db.makeStatement(sql: "SELECT name FROM player")
    /// statement.databaseRegion.contains(table: "player") // true
    /// ```
    ///
    /// Trellis regions are made of whole tables: GRDB describes this one as
    /// `player(name)`, Trellis as `player(*)`.
    public var databaseRegion: DatabaseRegion {
        DatabaseRegion(tableNames: region.readTables)
    }
}

extension DatabaseQueue {
    /// A connection to an in-memory copy of the database at `path`: the
    /// file is read once and never written. For tests that start from a
    /// fixture file, or for a read-only database shipped with an
    /// application that it changes in memory.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.inMemoryCopy(fromPath: "/path/to/fixture.sqlite")
    /// try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") } // the file is untouched
    /// ```
    ///
    /// With `configuration.readonly`, the copy is read-only too.
    ///
    /// - Throws: A ``DatabaseError`` if the file at `path` cannot be opened or
    ///   is not a database, or if the copy fails.
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try copy(fromPath: path, toPath: ":memory:", configuration: configuration)
    }

    /// A connection to a copy of the database at `path` in a temporary
    /// file, which SQLite deletes when the connection closes: the original
    /// file is read once and never written. Unlike ``inMemoryCopy(fromPath:configuration:)``,
    /// a large copy does not have to fit in memory.
    ///
    /// ```swift
    /// let dbQueue = try DatabaseQueue.temporaryCopy(fromPath: "/path/to/fixture.sqlite")
    /// try dbQueue.write { db in try db.execute(sql: "DELETE FROM player") } // the file is untouched
    /// ```
    ///
    /// The copy's ``path`` is empty, as SQLite names temporary databases.
    /// With `configuration.readonly`, the copy is read-only too.
    ///
    /// - Throws: A ``DatabaseError`` if the file at `path` cannot be opened or
    ///   is not a database, or if the copy fails.
    public static func temporaryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        // SQLite opens an empty path as a private database in a temporary
        // file.
        try copy(fromPath: path, toPath: "", configuration: configuration)
    }

    /// Opens `targetPath` and fills it with a backup of the database at
    /// `path`, opened read-only.
    private static func copy(fromPath path: String, toPath targetPath: String, configuration: Configuration) throws -> DatabaseQueue {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        var copyConfiguration = configuration
        // The backup writes the copy: it is made read-only afterwards.
        copyConfiguration.readonly = false
        let copy = try DatabaseQueue(path: targetPath, configuration: copyConfiguration)
        try source.backup(to: copy)
        try source.close()
        if configuration.readonly {
            try copy.writeWithoutTransaction { db in try db.makeQueryOnly() }
        }
        return copy
    }
}

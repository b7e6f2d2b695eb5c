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
    public static func inMemoryCopy(fromPath path: String, configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        var sourceConfiguration = configuration
        sourceConfiguration.readonly = true
        let source = try DatabaseQueue(path: path, configuration: sourceConfiguration)
        var copyConfiguration = configuration
        // The backup writes the copy: it is made read-only afterwards.
        copyConfiguration.readonly = false
        let copy = try DatabaseQueue(configuration: copyConfiguration)
        try source.backup(to: copy)
        try source.close()
        if configuration.readonly {
            try copy.writeWithoutTransaction { db in try db.execute(sql: "PRAGMA query_only = 1") }
        }
        return copy
    }
}

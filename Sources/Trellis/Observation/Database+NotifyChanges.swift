extension Database {
    /// Tells observers that the region changed in ways SQLite does not
    /// report: changes made by another connection or process, to a
    /// `WITHOUT ROWID` table, or to the schema (`Table("sqlite_master")`).
    ///
    /// ```swift
    /// try dbQueue.write { db in
    ///     // Notify observations that some changes were performed in the database
    ///     try db.notifyChanges(in: .fullDatabase)
    ///
    ///     // Notify observations that some changes were performed in the player table
    ///     try db.notifyChanges(in: Player.all())
    ///
    ///     // Equivalent alternative
    ///     try db.notifyChanges(in: Table("player"))
    /// }
    /// ```
    ///
    /// Transaction observers that observe a table of the region are told
    /// with ``TransactionObserver/databaseDidChange()``; a
    /// ``DatabaseRegionObservation`` of the region calls its function after
    /// the transaction commits; a ``ValueObservation`` that tracks the
    /// region fetches a fresh value then. A read access notifies nothing.
    ///
    /// - Throws: A ``DatabaseError`` if the region cannot be read, such as a
    ///   request that cannot be compiled.
    public func notifyChanges(in region: some DatabaseRegionConvertible) throws {
        guard !isReadOnlyAccess else { return }
        let region = try region.databaseRegion(self)
        guard !region.isEmpty else { return }
        if let broker = transactionHookHandler as? TransactionObserverBroker {
            broker.notifyChanges(inTables: try notifiedTables(region))
        }
        // Value observations hear of the changes of the access when it ends,
        // as they do of the rows it changes.
        recordNotifiedChanges(inTables: region.tables)
    }

    /// The tables of the region, with their columns, as their schema spells
    /// them; all tables for the full database.
    private func notifiedTables(_ region: DatabaseRegion) throws -> [(name: String, columns: Set<String>)] {
        var names = try String.fetchAll(self, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table'
            UNION ALL SELECT name FROM sqlite_temp_master WHERE type = 'table'
            """)
        names += ["sqlite_master", "sqlite_temp_master"]
        if let tableNames = region.tableNames {
            let known = Dictionary(names.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
            names = tableNames.sorted().map { known[$0] ?? $0 }
        } else {
            names.removeAll { $0 == "sqlite_master" || $0 == "sqlite_temp_master" }
        }
        return names.map { name in
            let columns: [String]
            if name.lowercased() == "sqlite_master" || name.lowercased() == "sqlite_temp_master" {
                columns = ["type", "name", "tbl_name", "rootpage", "sql"]
            } else {
                columns = (try? self.columns(in: name).map(\.name)) ?? []
            }
            return (name, Set(columns))
        }
    }
}

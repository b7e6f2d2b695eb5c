extension DatabaseMigrator {
    /// Applies the migrations that have not been applied yet, later, after
    /// the writes asked for before; then calls `completion` with the
    /// connection, still in the same access, or with the error that stopped
    /// the migrations.
    ///
    /// ```swift
    /// migrator.asyncMigrate(dbQueue) { dbResult in
    ///     do {
    ///         let db = try dbResult.get()
    ///         print("migrated:", try migrator.appliedMigrations(db))
    ///     } catch {
    ///         print("migrations failed:", error)
    ///     }
    /// }
    /// ```
    public func asyncMigrate(
        _ writer: some DatabaseWriter,
        completion: @escaping @Sendable (Result<Database, any Error>) -> Void)
    {
        let migrator = self
        writer.asyncBarrierWriteWithoutTransaction { dbResult in
            do {
                let db = try dbResult.get()
                try migrator.runMigrations(db, upTo: migrator.registered.last?.identifier)
                completion(.success(db))
            } catch {
                completion(.failure(error))
            }
        }
    }
}

import Trellis

/// The schema statements (CREATE, ALTER, DROP) that a connection runs, as
/// its trace reports them: GRDB's documentation shows them in comments.
final class SchemaStatementLog: @unchecked Sendable {
    // Written by the trace of one connection, read once its access ends.
    private(set) var statements: [String] = []

    /// Runs `body` with the connection traced, and returns the schema
    /// statements it ran (introspection queries are left out).
    static func statements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
        let log = SchemaStatementLog()
        db.trace { event in
            let sql = event.description
            if ["CREATE", "ALTER", "DROP"].contains(where: sql.hasPrefix) {
                log.statements.append(sql)
            }
        }
        defer { db.trace(nil) }
        try body()
        return log.statements
    }
}

import Trellis

/// The statements that `body` runs on `db`, as SQLite runs them (values
/// inlined), without the statements of transactions, savepoints, schema
/// introspection and triggers, which are not what the tests compare.
func recordedStatements(_ db: Database, _ body: () throws -> Void) rethrows -> [String] {
    final class Log { var statements: [String] = [] }
    let log = Log()
    db.trace { log.statements.append($0.expandedDescription) }
    defer { db.trace(nil) }
    try body()
    let ignoredPrefixes = ["--", "SAVEPOINT", "RELEASE", "ROLLBACK", "BEGIN", "COMMIT", "PRAGMA", "SELECT"]
    return log.statements.filter { statement in
        !ignoredPrefixes.contains { statement.hasPrefix($0) }
    }
}

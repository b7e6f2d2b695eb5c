import Foundation
import PostgresNIO
import Trellis

extension PostgreSQLDatabase {
    /// A connection to a PostgreSQL server, leased for one access of a
    /// ``PostgreSQLDatabase``.
    ///
    /// Its methods are synchronous: each one sends its statement and waits
    /// for the whole answer, on the thread of the access. Used after its
    /// access returned, when the client may have leased the connection to
    /// another access, it throws instead of running statements.
    ///
    /// ```swift
    /// try await database.write { db in
    ///     try db.execute(sql: "DELETE FROM player WHERE score < ?", arguments: [10])
    ///     print(db.changesCount)
    /// }
    /// ```
    public final class Connection {
        private let connection: PostgresNIO.PostgresConnection
        private let logger: Logger
        private var savepointCount = 0

        /// Whether the access runs: a connection that escaped its access
        /// may be read from another thread, hence the lock.
        private let accessLock = NSLock()
        private var isInsideAccess = true

        /// The number of rows that the last statement inserted, updated or
        /// deleted.
        public private(set) var changesCount = 0

        init(connection: PostgresNIO.PostgresConnection, logger: Logger) {
            self.connection = connection
            self.logger = logger
        }

        /// Runs SQL statements, separated by semicolons.
        ///
        /// Write `?` or `:name` for the arguments, as on SQLite: Trellis
        /// numbers them as PostgreSQL's `$1`, `$2`... (SQL that already
        /// uses `$1` runs as it is), and sends each statement on its own.
        ///
        /// ```swift
        /// try db.execute(sql: "INSERT INTO player (name) VALUES (:name)", arguments: ["name": "Arthur"])
        /// ```
        public func execute(sql: String, arguments: StatementArguments = StatementArguments()) throws {
            _ = try rows(sql: sql, arguments: arguments)
        }

        /// Runs SQL statements and returns the rows of the last one, as
        /// `Row` values.
        func rows(sql: String, arguments: StatementArguments) throws -> [Row] {
            var rows: [Row] = []
            for statement in try SQLDialect.postgreSQL.statements(sql, arguments: arguments) {
                rows = try run(statement, sql: sql, arguments: arguments)
            }
            return rows
        }

        /// Ends the access: statements then throw.
        func endAccess() {
            accessLock.withLock { isInsideAccess = false }
        }

        private func run(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> [Row] {
            guard accessLock.withLock({ isInsideAccess }) else {
                throw DatabaseError(
                    resultCode: .SQLITE_MISUSE,
                    message: "PostgreSQL connection used outside of its access", sql: sql)
            }
            var bindings = PostgresBindings(capacity: statement.values.count)
            for value in statement.values {
                bindings.appendValue(PostgresParameter(value))
            }
            let query = PostgresQuery(unsafeSQL: statement.sql, binds: bindings)
            let result: PostgresQueryResult
            do {
                result = try connection.query(query, logger: logger).wait()
            } catch let error as PSQLError {
                throw DatabaseError(error, sql: sql, arguments: arguments)
            }
            changesCount = result.metadata.rows ?? 0
            return try result.rows.map { row in
                try Row(columns: row.map { cell in (cell.columnName, try DatabaseValue(cell)) })
            }
        }

        /// Runs `operations` in a transaction begun with `begin`.
        func inTransaction<T>(begin: String, _ operations: () throws -> T) throws -> T {
            try execute(sql: begin)
            let value: T
            do {
                value = try operations()
            } catch {
                try? execute(sql: "ROLLBACK")
                throw error
            }
            try execute(sql: "COMMIT")
            return value
        }

        /// Runs `operations` in a savepoint: the changes they made are
        /// released when they return `.commit`, and rolled back when they
        /// return `.rollback` or throw (the error is rethrown).
        ///
        /// On PostgreSQL a failed statement aborts its transaction: a
        /// savepoint is the way to go on after an error.
        ///
        /// ```swift
        /// try await database.write { db in
        ///     try? db.inSavepoint {
        ///         try db.execute(sql: "INSERT INTO player (id, name) VALUES (1, 'Arthur')")
        ///         return .commit
        ///     }
        ///     // Runs even if the insert failed.
        ///     try db.execute(sql: "UPDATE player SET score = 0")
        /// }
        /// ```
        public func inSavepoint(_ operations: () throws -> Database.TransactionCompletion) throws {
            savepointCount += 1
            defer { savepointCount -= 1 }
            let name = "trellis_savepoint_\(savepointCount)"
            try execute(sql: "SAVEPOINT \(name)")
            let completion: Database.TransactionCompletion
            do {
                completion = try operations()
            } catch {
                try? execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
                try? execute(sql: "RELEASE SAVEPOINT \(name)")
                throw error
            }
            if case .rollback = completion {
                try execute(sql: "ROLLBACK TO SAVEPOINT \(name)")
            }
            try execute(sql: "RELEASE SAVEPOINT \(name)")
        }
    }
}

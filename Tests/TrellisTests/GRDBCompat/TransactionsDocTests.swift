import Foundation
import Testing
import Trellis

// GRDB's Transactions.md ("Transactions and Savepoints"): each sample, with
// the statements GRDB 7 runs for it (checked with GRDB itself), and the
// rows it leaves.

private struct Credit: Codable, FetchableRecord, PersistableRecord {
    var amount: Int
    init(_ account: String, _ amount: Int) { self.amount = amount }
}

private struct Debit: Codable, FetchableRecord, PersistableRecord {
    var amount: Int
    init(_ account: String, _ amount: Int) { self.amount = amount }
}

private struct TestError: Error {}

@Suite struct TransactionsDocTests {
    private let destinationAccount = "destination"
    private let sourceAccount = "source"
    private let amount = 10

    private func makeQueue(_ trace: StatementTrace, _ config: Configuration = Configuration()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace.configuration(config))
        try dbQueue.write { db in
            try db.create(table: "credit") { t in t.column("amount", .integer) }
            try db.create(table: "debit") { t in t.column("amount", .integer) }
        }
        _ = trace.take()
        return dbQueue
    }

    private func counts(_ dbQueue: DatabaseQueue) throws -> [Int] {
        try dbQueue.read { db in [try Credit.fetchCount(db), try Debit.fetchCount(db)] }
    }

    // MARK: Transactions and Safety

    @Test func writeAndReadInTransactions() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.write { db in
            try Credit(destinationAccount, amount).insert(db)
            try Debit(sourceAccount, amount).insert(db)
        }
        #expect(trace.take() == [
            "BEGIN IMMEDIATE TRANSACTION",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "COMMIT TRANSACTION",
        ])

        let (credits, debits) = try dbQueue.read { db in
            let credits = try Credit.fetchAll(db)
            let debits = try Debit.fetchAll(db)
            return (credits, debits)
        }
        #expect(trace.take() == [
            "BEGIN DEFERRED TRANSACTION",
            #"SELECT * FROM "credit""#,
            #"SELECT * FROM "debit""#,
            "COMMIT TRANSACTION",
        ])
        #expect(credits.map(\.amount) == [10])
        #expect(debits.map(\.amount) == [10])
    }

    @Test func writesWithoutTransaction() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.writeWithoutTransaction { db in
            try Credit(destinationAccount, amount).insert(db)
            try Debit(sourceAccount, amount).insert(db)
        }
        #expect(trace.take() == [
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
        ])
        try dbQueue.inDatabase { db in
            try Credit(destinationAccount, amount).insert(db)
        }
        #expect(trace.take() == [#"INSERT INTO "credit" ("amount") VALUES (?)"#])

        // UNSAFE DATABASE INTEGRITY: the credit stays when the debit fails.
        #expect(throws: TestError.self) {
            try dbQueue.writeWithoutTransaction { db in
                try Credit(destinationAccount, amount).insert(db)
                throw TestError()
            }
        }
        #expect(try counts(dbQueue) == [3, 1])
    }

    @Test func unsafeReadsRunNoTransaction() throws {
        let path = StatementTrace.temporaryPath("unsafe-read")
        defer { StatementTrace.removeDatabase(at: path) }
        let trace = StatementTrace()
        let dbPool = try DatabasePool(path: path, configuration: trace.configuration())
        try dbPool.write { db in
            try db.create(table: "credit") { t in t.column("amount", .integer) }
            try db.create(table: "debit") { t in t.column("amount", .integer) }
            try Credit(destinationAccount, amount).insert(db)
        }
        _ = trace.take()
        let (credits, debits) = try dbPool.unsafeRead { db in
            #expect(!db.isInsideTransaction)
            let credits = try Credit.fetchAll(db)
            let debits = try Debit.fetchAll(db)
            return (credits, debits)
        }
        #expect(trace.take() == [#"SELECT * FROM "credit""#, #"SELECT * FROM "debit""#])
        #expect(credits.count == 1)
        #expect(debits.isEmpty)
        try dbPool.read { db in #expect(db.isInsideTransaction) }
    }

    // MARK: Explicit Transactions

    @Test func explicitTransactions() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.inTransaction { db in
            try Credit(destinationAccount, amount).insert(db)
            try Debit(sourceAccount, amount).insert(db)
            return .commit
        }
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try Credit(destinationAccount, amount).insert(db)
                try Debit(sourceAccount, amount).insert(db)
                return .commit
            }
        }
        let statements = trace.take()
        #expect(statements.filter { !$0.hasPrefix("BEGIN") } == [
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "COMMIT TRANSACTION",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "COMMIT TRANSACTION",
        ])
        #expect(statements.filter { $0.hasPrefix("BEGIN") } == ["BEGIN IMMEDIATE TRANSACTION", "BEGIN IMMEDIATE TRANSACTION"])
        #expect(try counts(dbQueue) == [2, 2])
    }

    @Test func thrownErrorsAndRollbacksUndoTheTransaction() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        #expect(throws: TestError.self) {
            try dbQueue.inTransaction { db in
                try Credit(destinationAccount, amount).insert(db)
                throw TestError()
            }
        }
        try dbQueue.inTransaction { db in
            try Credit(destinationAccount, amount).insert(db)
            return .rollback
        }
        #expect(trace.take().filter { !$0.hasPrefix("BEGIN") } == [
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "ROLLBACK TRANSACTION",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "ROLLBACK TRANSACTION",
        ])
        #expect(try counts(dbQueue) == [0, 0])
    }

    @Test func manualTransactions() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.writeWithoutTransaction { db in
            try db.beginTransaction()
            try Credit(destinationAccount, amount).insert(db)
            try db.commit()

            try db.execute(sql: "BEGIN TRANSACTION")
            try Debit(sourceAccount, amount).insert(db)
            try db.execute(sql: "ROLLBACK")

            try db.beginTransaction(.exclusive)
            #expect(db.isInsideTransaction)
            try db.rollback()
            #expect(!db.isInsideTransaction)
        }
        let statements = trace.take()
        #expect(Array(statements.dropFirst()) == [
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "COMMIT TRANSACTION",
            "BEGIN TRANSACTION",
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "ROLLBACK",
            "BEGIN EXCLUSIVE TRANSACTION",
            "ROLLBACK TRANSACTION",
        ])
        #expect(statements.first == "BEGIN IMMEDIATE TRANSACTION")
        #expect(try counts(dbQueue) == [1, 0])
    }

    @Test func aTransactionLeftOpenIsAnError() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        // GRDB: "fatal error: A transaction has been left opened at the end
        // of a database access." Trellis rolls it back and throws.
        do {
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "BEGIN TRANSACTION")
                try Credit(destinationAccount, amount).insert(db)
                // <- no commit or rollback
            }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message?.contains("transaction was left opened at the end of a database access") == true)
        }
        #expect(try counts(dbQueue) == [0, 0])
        // The connection stays usable.
        try dbQueue.write { db in try Credit(destinationAccount, amount).insert(db) }
        #expect(try counts(dbQueue) == [1, 0])
    }

    @Test func allowsUnsafeTransactionsLetsATransactionSpanAccesses() throws {
        var config = Configuration()
        config.allowsUnsafeTransactions = true
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace, config)
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN TRANSACTION")
            try Credit(destinationAccount, amount).insert(db)
        }
        try dbQueue.writeWithoutTransaction { db in
            #expect(db.isInsideTransaction)
            try db.commit()
        }
        #expect(try counts(dbQueue) == [1, 0])
    }

    @Test func criticalSectionsUseSavepoints() throws {
        func myCriticalMethod(_ db: Database) throws {
            try db.inSavepoint {
                // Here the database is guaranteed to be inside a transaction.
                #expect(db.isInsideTransaction)
                try Credit(destinationAccount, amount).insert(db)
                return .commit
            }
        }
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try myCriticalMethod(db)
        }
        try dbQueue.write { db in
            #expect(db.isInsideTransaction)
            try myCriticalMethod(db)
        }
        #expect(try counts(dbQueue) == [2, 0])
    }

    // MARK: Savepoints

    @Test func savepointsCanBeRolledBackWithoutInvalidatingTheTransaction() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.write { db in
            // Makes sure both inserts succeed, or none:
            try db.inSavepoint {
                try Credit(destinationAccount, amount).insert(db)
                try Debit(sourceAccount, amount).insert(db)
                return .commit
            }
            try db.inSavepoint {
                try Credit(destinationAccount, amount).insert(db)
                return .rollback
            }
            #expect(throws: TestError.self) {
                try db.inSavepoint {
                    try Debit(sourceAccount, amount).insert(db)
                    throw TestError()
                }
            }
            #expect(db.isInsideTransaction)
        }
        // The savepoint names differ (GRDB's are "grdb"): the statements
        // are compared with their name left out.
        let statements = trace.take().dropFirst().map { $0.replacingOccurrences(of: "trellis", with: "grdb") }
        #expect(statements == [
            "SAVEPOINT grdb",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "RELEASE SAVEPOINT grdb",
            "SAVEPOINT grdb",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "ROLLBACK TRANSACTION TO SAVEPOINT grdb",
            "RELEASE SAVEPOINT grdb",
            "SAVEPOINT grdb",
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "ROLLBACK TRANSACTION TO SAVEPOINT grdb",
            "RELEASE SAVEPOINT grdb",
            "COMMIT TRANSACTION",
        ])
        #expect(try counts(dbQueue) == [1, 1])
    }

    @Test func nestedSavepointsWriteOnlyWhenTheOutermostCommits() throws {
        let trace = StatementTrace()
        let dbQueue = try makeQueue(trace)
        try dbQueue.writeWithoutTransaction { db in
            try db.inSavepoint {
                try Credit(destinationAccount, amount).insert(db)
                try db.inSavepoint {
                    try Debit(sourceAccount, amount).insert(db)
                    return .commit
                }
                return .commit // Writes changes to disk
            }
            try db.inSavepoint {
                try Credit(destinationAccount, amount).insert(db)
                try db.inSavepoint {
                    try Debit(sourceAccount, amount).insert(db)
                    return .commit
                }
                return .rollback // Undoes the nested savepoint too
            }
        }
        // Outside of a transaction, the outermost savepoint is a transaction.
        let statements = trace.take().map { $0.replacingOccurrences(of: "trellis", with: "grdb") }
        #expect(statements.filter { !$0.hasPrefix("BEGIN") } == [
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "SAVEPOINT grdb",
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "RELEASE SAVEPOINT grdb",
            "COMMIT TRANSACTION",
            #"INSERT INTO "credit" ("amount") VALUES (?)"#,
            "SAVEPOINT grdb",
            #"INSERT INTO "debit" ("amount") VALUES (?)"#,
            "RELEASE SAVEPOINT grdb",
            "ROLLBACK TRANSACTION",
        ])
        #expect(try counts(dbQueue) == [1, 1])
    }

    // MARK: Transaction Kinds

    @Test func transactionKinds() throws {
        let path = StatementTrace.temporaryPath("transaction-kinds")
        defer { StatementTrace.removeDatabase(at: path) }
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(path: path, configuration: trace.configuration())
        try dbQueue.inTransaction(.exclusive) { db in .commit }
        try dbQueue.inTransaction(.deferred) { db in .commit }
        try dbQueue.inTransaction(.immediate) { db in .rollback }
        #expect(trace.take() == [
            "BEGIN EXCLUSIVE TRANSACTION",
            "COMMIT TRANSACTION",
            "BEGIN DEFERRED TRANSACTION",
            "COMMIT TRANSACTION",
            "BEGIN IMMEDIATE TRANSACTION",
            "ROLLBACK TRANSACTION",
        ])
    }
}

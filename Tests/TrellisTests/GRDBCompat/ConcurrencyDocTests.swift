import Foundation
import Testing
import Trellis

// GRDB's Concurrency.md ("Concurrency"), the parts that apply on Linux
// (Combine publishers and RxSwift are left out). Where GRDB stops the
// process (a reentrant access, a concurrent read from inside a
// transaction), Trellis throws.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var name: String
    init(name: String) { self.name = name }
}

private struct Cookie: Codable, FetchableRecord, PersistableRecord {
    var flavor: String
}

@Suite struct ConcurrencyDocTests {
    private func prepare(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.create(table: "player") { t in t.column("name", .text).notNull() }
            try db.create(table: "cookie") { t in t.column("flavor", .text).notNull() }
        }
    }

    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        return dbQueue
    }

    // MARK: Concurrency Rules

    @Test func transactionsDelimitAccesses() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            // Inside a transaction
            #expect(db.isInsideTransaction)
        }
        try dbQueue.read { db in
            // Inside a transaction
            #expect(db.isInsideTransaction)
        }
    }

    // MARK: Synchronous and Asynchronous Database Accesses

    @Test func synchronousAccesses() throws {
        let dbQueue = try makeQueue()
        let playerCount = try dbQueue.read { db in
            try Player.fetchCount(db)
        }
        let newPlayerCount = try dbQueue.write { db -> Int in
            try Player(name: "Arthur").insert(db)
            return try Player.fetchCount(db)
        }
        #expect(playerCount == 0)
        #expect(newPlayerCount == 1)
    }

    @Test func syncAccessesAreNotReentrant() throws {
        let dbQueue = try makeQueue()
        // GRDB: "Fatal Error: Database methods are not reentrant."
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try dbQueue.write { db in try Player(name: "Arthur").insert(db) }
            }
        }
        #expect(error.resultCode == .SQLITE_MISUSE)
        #expect(error.message == "Database methods are not reentrant: use the Database value given to the enclosing closure.")
        #expect(throws: DatabaseError.self) {
            try dbQueue.read { _ in try dbQueue.read { db in try Player.fetchCount(db) } }
        }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)
    }

    @Test func asynchronousAccesses() async throws {
        let dbQueue = try makeQueue()
        let playerCount = try await dbQueue.read { db in
            try Player.fetchCount(db)
        }

        let newPlayerCount = try await dbQueue.write { db -> Int in
            try Player(name: "Arthur").insert(db)
            return try Player.fetchCount(db)
        }
        #expect(playerCount == 0)
        #expect(newPlayerCount == 1)

        // One asynchronous access...
        try await dbQueue.write { db in
            // ... always performs synchronous database operations:
            try Player(name: "Barbara").insert(db)
            try Player(name: "Craig").insert(db)
            let players = try Player.fetchAll(db)
            #expect(players.count == 3)
        }
    }

    @Test func cancelledAsyncAccessesThrowAndRollBack() async throws {
        let dbQueue = try makeQueue()
        // A task cancelled before its access: CancellationError, nothing written.
        let cancelledTask = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await dbQueue.write { db in try Player(name: "Arthur").insert(db) }
        }
        await #expect(throws: CancellationError.self) { try await cancelledTask.value }

        // A task cancelled during its access: the transaction is rolled back.
        let inserted = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let task = Task {
            try await dbQueue.write { db in
                try Player(name: "Barbara").insert(db)
                inserted.signal()
                resume.wait()
                try Player(name: "Craig").insert(db)
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                inserted.wait()
                continuation.resume()
            }
        }
        task.cancel()
        resume.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(try await dbQueue.read { db in try Player.fetchCount(db) } == 0)
    }

    @Test func completionBlocks() async throws {
        let dbQueue = try makeQueue()
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncWrite({ db in
                try Player(name: "Arthur").insert(db)
                return try Player.fetchCount(db)
            }, completion: { _, result in
                continuation.resume(with: result)
            })
        }
        #expect(count == 1)
        let readCount: Int = try await withCheckedThrowingContinuation { continuation in
            dbQueue.asyncRead { dbResult in
                continuation.resume(with: Result { try Player.fetchCount(dbResult.get()) })
            }
        }
        #expect(readCount == 1)
    }

    // MARK: Safe and Unsafe Database Accesses

    @Test func readsForbidWrites() throws {
        let dbQueue = try makeQueue()
        let error = try #require(throws: DatabaseError.self) {
            try dbQueue.read { db in try Player(name: "Arthur").insert(db) }
        }
        #expect(error.resultCode == .SQLITE_READONLY)
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 0)
    }

    @Test func unsafeAccesses() throws {
        let dbQueue = try makeQueue()
        // Reentrant write, outside of any transaction
        try dbQueue.write { db in
            try Player(name: "Arthur").insert(db)
            try dbQueue.unsafeReentrantWrite { db in
                try Player(name: "Barbara").insert(db)
            }
            #expect(try dbQueue.unsafeReentrantRead { db in try Player.fetchCount(db) } == 2)
        }

        // The Write Transactions guarantee restored with an explicit transaction
        try dbQueue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try db.inTransaction {
                #expect(db.isInsideTransaction)
                try Player(name: "Craig").insert(db)
                return .rollback
            }
        }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 2)

        // Read outside of any transaction: a DatabaseQueue lets it write,
        // until PRAGMA query_only restores the Forbidden Writes guarantee.
        try dbQueue.unsafeRead { db in
            #expect(!db.isInsideTransaction)
            try Player(name: "Dan").insert(db)
            try db.execute(sql: "PRAGMA query_only = 1")
            #expect(throws: DatabaseError.self) { try Player(name: "Eve").insert(db) }
            try db.execute(sql: "PRAGMA query_only = 0")
        }
        #expect(try dbQueue.read { db in try Player.fetchCount(db) } == 3)
    }

    @Test func databasePoolForbidsWritesInUnsafeReads() throws {
        let path = StatementTrace.temporaryPath("concurrency-unsafe")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)
        // The Forbidden Writes guarantee can only be lifted with DatabaseQueue.
        #expect(throws: DatabaseError.self) {
            try dbPool.unsafeRead { db in try Player(name: "Arthur").insert(db) }
        }
    }

    // MARK: Concurrent Thinking

    @Test func queuesAndPoolsShareCode() throws {
        let path = StatementTrace.temporaryPath("concurrency-thinking")
        defer { StatementTrace.removeDatabase(at: path) }
        func countCookies(_ reader: some DatabaseReader) throws -> Int {
            try reader.read { db in try Cookie.fetchCount(db) }
        }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)
        let dbQueue = try makeQueue()
        for writer in [dbPool as any DatabaseWriter, dbQueue] {
            try writer.write { db in try Cookie(flavor: "chocolate").insert(db) }
            // At this point, the number of cookies on disk
            // may have already changed.
            let cookieCount = try countCookies(writer)
            #expect(cookieCount == 1)
        }
    }

    // MARK: Advanced DatabasePool

    @Test func asyncConcurrentRead() throws {
        let path = StatementTrace.temporaryPath("concurrent-read")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)

        let newPlayerCount = try dbPool.write { db in
            // Increment the number of players
            try Player(name: "Arthur").insert(db)
            // Read the number of players. Concurrent writes are blocked :-(
            return try Player.fetchCount(db)
        }
        #expect(newPlayerCount == 1)

        let readDone = DispatchSemaphore(value: 0)
        let readCount = Shared<Result<Int, any Error>?>(nil)
        try dbPool.writeWithoutTransaction { db in
            // Increment the number of players
            try db.inTransaction {
                try Player(name: "Barbara").insert(db)
                return .commit
            }

            // <- Not in a transaction here
            dbPool.asyncConcurrentRead { dbResult in
                // Handle the new player count - guaranteed greater than zero
                readCount.set(Result {
                    let db = try dbResult.get()
                    return try Player.fetchCount(db)
                })
                readDone.signal()
            }
            // Written after the read took its snapshot: not seen by it.
            try Player(name: "Craig").insert(db)
        }
        readDone.wait()
        #expect(try readCount.get()?.get() == 2)
        #expect(try dbPool.read { db in try Player.fetchCount(db) } == 3)
    }

    @Test func asyncConcurrentReadOutsideOfItsPlaceFails() throws {
        let path = StatementTrace.temporaryPath("concurrent-read-misuse")
        defer { StatementTrace.removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)
        // GRDB stops the process; Trellis gives the closure an error.
        let insideTransaction = Shared<Result<Int, any Error>?>(nil)
        try dbPool.write { db in
            dbPool.asyncConcurrentRead { dbResult in
                insideTransaction.set(Result { try Player.fetchCount(dbResult.get()) })
            }
        }
        let outsideWrite = Shared<Result<Int, any Error>?>(nil)
        dbPool.asyncConcurrentRead { dbResult in
            outsideWrite.set(Result { try Player.fetchCount(dbResult.get()) })
        }
        for result in [insideTransaction.get(), outsideWrite.get()] {
            let error = try #require(throws: DatabaseError.self) { try result?.get() }
            #expect(error.resultCode == .SQLITE_MISUSE)
            #expect(error.message == "asyncConcurrentRead must be called from a write access, outside of any transaction")
        }
    }
}

/// A value shared with closures that run on other threads.
private final class Shared<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value
    init(_ value: Value) { self.value = value }
    func get() -> Value { lock.lock(); defer { lock.unlock() }; return value }
    func set(_ newValue: Value) { lock.lock(); value = newValue; lock.unlock() }
}

import Foundation
import Testing
import Trellis

@Suite struct DatabasePoolTests {
    static func makePath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("pool-\(UUID().uuidString).sqlite").path
    }

    static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func makePath() -> String { Self.makePath() }
    private func remove(_ path: String) { Self.remove(path) }

    @Test func readersSeeCommittedWritesAndSchemaChanges() throws {
        let path = makePath()
        defer { remove(path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
        }
        #expect(try dbPool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try dbPool.read { try $0.columns(in: "player").map(\.name) } == ["id", "name"])
        try dbPool.write { db in
            try db.alter(table: "player") { t in t.add(column: "score", .integer) }
        }
        // The reader's schema cache follows the writer's change.
        for _ in 0..<6 {
            #expect(try dbPool.read { try $0.columns(in: "player").map(\.name) } == ["id", "name", "score"])
        }
        #expect(throws: DatabaseError.self) { try dbPool.read { db in try db.execute(sql: "DELETE FROM player") } }
    }

    @Test func readersNeverWriteAndReentrantAccessesReuseTheirConnection() throws {
        let path = makePath()
        defer { remove(path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        // Only a queue lifts the read-only guarantee of `unsafeRead`.
        let error = #expect(throws: DatabaseError.self) {
            try dbPool.unsafeRead { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(try dbPool.unsafeRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)

        try dbPool.write { (db: Database) throws in
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            // The same connection, inside the same transaction.
            let count = try dbPool.unsafeReentrantWrite { inner in
                try inner.execute(sql: "INSERT INTO t VALUES (2)")
                return try Int.fetchOne(inner, sql: "SELECT COUNT(*) FROM t")
            }
            #expect(count == 2)
            #expect(try dbPool.unsafeReentrantRead { inner in inner === db })
        }
        try dbPool.read { (db: Database) throws in
            #expect(try dbPool.unsafeReentrantRead { inner in inner === db })
        }
        #expect(try dbPool.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)

        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a)")
            try dbQueue.unsafeReentrantWrite { inner in try inner.execute(sql: "INSERT INTO t VALUES (1)") }
            #expect(try dbQueue.unsafeReentrantRead { inner in try Int.fetchOne(inner, sql: "SELECT COUNT(*) FROM t") } == 1)
        }
        // Queues lift the guarantee.
        try dbQueue.unsafeRead { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(try dbQueue.unsafeReentrantRead { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func completionHandlerAccessesRunInOrder() async throws {
        let path = makePath()
        defer { remove(path) }
        for writer in [try DatabaseQueue() as any DatabaseWriter, try DatabasePool(path: path)] {
            try await writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            let results: [String] = await withCheckedContinuation { continuation in
                final class Log: @unchecked Sendable { var lines: [String] = [] }
                let log = Log()
                writer.asyncWrite({ db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    return db.changesCount
                }, completion: { db, result in
                    log.lines.append("wrote \((try? result.get()) ?? -1), in transaction: \(db.isInsideTransaction)")
                })
                writer.asyncWrite({ db in
                    try db.execute(sql: "INSERT INTO missing VALUES (1)")
                }, completion: { _, result in
                    if case .failure(let error as DatabaseError) = result { log.lines.append("failed \(error.message ?? "")") }
                })
                writer.asyncWriteWithoutTransaction { db in
                    try? db.execute(sql: "INSERT INTO t VALUES (2)")
                    writer.asyncRead { dbResult in
                        let db = try? dbResult.get()
                        log.lines.append("read \(db.flatMap { try? Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } ?? -1)")
                        writer.asyncUnsafeRead { dbResult in
                            log.lines.append("unsafe read \((try? dbResult.get()) != nil)")
                            continuation.resume(returning: log.lines)
                        }
                    }
                }
            }
            #expect(results == ["wrote 1, in transaction: false", "failed no such table: missing", "read 2", "unsafe read true"])
        }
    }

    @Test func concurrentReadsSeeTheDatabaseOfTheirStart() async throws {
        let path = makePath()
        defer { remove(path) }
        let dbPool = try DatabasePool(path: path)
        try await dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            do {
                try dbPool.writeWithoutTransaction { db in
                    dbPool.asyncConcurrentRead { dbResult in
                        continuation.resume(with: dbResult.flatMap { db in
                            Result { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? -1 }
                        })
                    }
                    // Written after the read started: the read does not see it.
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                }
            } catch {
                continuation.resume(throwing: error)
            }
        }
        #expect(count == 1)
        // Outside of a write access, it is a misuse.
        let misuse: Bool = await withCheckedContinuation { continuation in
            dbPool.asyncConcurrentRead { dbResult in
                if case .failure(let error as DatabaseError) = dbResult {
                    continuation.resume(returning: error.resultCode == .SQLITE_MISUSE)
                } else {
                    continuation.resume(returning: false)
                }
            }
        }
        #expect(misuse)
    }

    @Test func readsRunConcurrently() async throws {
        let path = makePath()
        defer { remove(path) }
        let dbPool = try DatabasePool(path: path)
        try await dbPool.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3)")
        }
        let sums = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 {
                group.addTask { try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT SUM(a) FROM t") ?? 0 } }
            }
            var sums: [Int] = []
            for try await sum in group { sums.append(sum) }
            return sums
        }
        #expect(sums == Array(repeating: 6, count: 20))
    }

    @Test func barrierWritesAndClose() throws {
        let path = makePath()
        defer { remove(path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1), (2), (3)") }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 3)
        let written = try dbPool.barrierWriteWithoutTransaction { db in
            try db.execute(sql: "DELETE FROM t")
            return db.changesCount
        }
        #expect(written == 3)
        try dbPool.close()
        #expect(throws: DatabaseError.self) { try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") } }
    }

    @Test func applicationCodeWorksWithAnyDatabaseWriter() throws {
        let path = makePath()
        defer { remove(path) }
        func addPlayer(_ writer: any DatabaseWriter) throws -> Int {
            try writer.write { db in
                try db.execute(sql: "CREATE TABLE IF NOT EXISTS player(name TEXT); INSERT INTO player VALUES ('Arthur')")
            }
            return try writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
        }
        #expect(try addPlayer(DatabasePool(path: path)) == 1)
        #expect(try addPlayer(DatabaseQueue()) == 1)
    }
}

@Suite struct DatabasePoolInvalidationTests {
    @Test func invalidatedReadersAreReplacedByNewConnections() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("invalidate-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t (a)") }
        // A function added to a reader lives as long as its connection.
        let answer = DatabaseFunction("answer", argumentCount: 0) { _ in 42 }
        try dbPool.read { db in db.add(function: answer) }
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT answer()") } == 42)
        dbPool.invalidateReadOnlyConnections()
        #expect(throws: DatabaseError.self) {
            try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT answer()") }
        }
        // The new reader sees the database.
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }
}

/// Which reader a read takes: an idle one when there is one.
@Suite struct DatabasePoolReaderChoiceTests {
    private final class PoolReference: @unchecked Sendable {
        var pool: DatabasePool?
    }

    private func makePath() -> String { DatabasePoolTests.makePath() }
    private func remove(_ path: String) { DatabasePoolTests.remove(path) }

    @Test func readsTakeAnIdleReaderRatherThanWaitBehindALongRead() throws {
        let path = makePath()
        defer { remove(path) }
        var configuration = Configuration()
        configuration.maximumReaderCount = 2
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        let started = DispatchSemaphore(value: 0)
        let othersDone = DispatchSemaphore(value: 0)
        let longReadEnded = DispatchSemaphore(value: 0)
        final class Outcome: @unchecked Sendable { var waitedInVain = false }
        let outcome = Outcome()
        DispatchQueue.global().async {
            try? dbPool.read { _ in
                started.signal()
                outcome.waitedInVain = othersDone.wait(timeout: .now() + 5) == .timedOut
            }
            longReadEnded.signal()
        }
        started.wait()
        // Each read takes the other reader: none waits for the long read.
        for _ in 0..<4 {
            #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        }
        othersDone.signal()
        longReadEnded.wait()
        #expect(!outcome.waitedInVain)
    }

    @Test func prepareDatabaseThatReadsItsOwnPoolThrowsInsteadOfWaitingForever() throws {
        let path = makePath()
        defer { remove(path) }
        let reference = PoolReference()
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            // A reader opening: this read would need another reader, whose
            // preparation would read again.
            if let pool = reference.pool {
                _ = try pool.read { try Int.fetchOne($0, sql: "SELECT 1") }
            }
        }
        let dbPool = try DatabasePool(path: path, configuration: configuration)
        reference.pool = dbPool
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect {
            try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") }
        } throws: { error in
            (error as? DatabaseError)?.message == "prepareDatabase can not read from its own DatabasePool while the pool opens a reader"
        }
        // The pool is still usable.
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        reference.pool = nil
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }
}

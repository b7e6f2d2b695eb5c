import Foundation
import Testing
import Trellis

/// The type erasers forward to the connection they wrap, including value
/// observations.
@Suite struct AnyDatabaseReaderTests {
    final class Values: @unchecked Sendable {
        private let lock = NSLock()
        private var storage: [Int] = []
        func append(_ value: Int) { lock.withLock { storage.append(value) } }
        var all: [Int] { lock.withLock { storage } }

        /// Waits for `count` values, for a few seconds at most.
        func wait(count: Int) async -> Bool {
            let deadline = Date().addingTimeInterval(5)
            while all.count < count {
                if Date() > deadline { return false }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return true
        }
    }

    @Test func aReaderReadsAndCanNotWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let reader = AnyDatabaseReader(dbQueue)
        #expect(try reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        #expect(throws: DatabaseError.self) {
            try reader.read { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        }
        #expect(reader.configuration.label == dbQueue.configuration.label)
    }

    @Test func anAsynchronousReadGoesThroughTheWrappedReader() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let reader = AnyDatabaseReader(dbQueue)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT a FROM t") } == 1)
    }

    @Test func aWriterWritesThroughItsConnection() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("any-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        let writer = AnyDatabaseWriter(dbPool)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try await dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        // A writer wrapped twice is wrapped once.
        let reader = AnyDatabaseReader(writer)
        #expect(try await reader.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func observationsOfAWrappedWriterSeeItsChanges() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let writer = AnyDatabaseWriter(dbQueue)
        let values = Values()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
            .start(in: AnyDatabaseReader(writer), scheduling: .async(onQueue: DispatchQueue(label: "test"))) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { count in
                values.append(count)
            }
        defer { cancellable.cancel() }
        #expect(await values.wait(count: 1))
        try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(await values.wait(count: 2))
        #expect(values.all == [0, 1])
    }
}

import Foundation
import Testing
import Trellis

/// A non-throwing row subscript that fails records its error and returns a
/// placeholder: when no fetch throws that error, the access that contains
/// the subscript does.
@Suite struct UnreportedDecodingErrorTests {
    private func temporaryPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("unreported-\(UUID().uuidString).sqlite").path
    }

    private func removeDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    private func prepare(_ writer: some DatabaseWriter) throws {
        try writer.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
        }
    }

    /// Reads a missing column without `try`, as a hand-written `init(row:)`
    /// would.
    private static func readMissingColumn(_ db: Database) throws -> Int {
        let row = try #require(try Row.fetchOne(db, sql: "SELECT a FROM t"))
        let value: Int = row["missing"]
        return value
    }

    private func expectMissingColumn(_ body: () throws -> Void) {
        let error = #expect(throws: RowDecodingError.self) { try body() }
        #expect(error?.reason == .columnNotFound)
        #expect(error.map { String(describing: $0) }?.contains("missing") == true)
    }

    private func expectMissingColumn(_ body: () async throws -> Void) async {
        let error = await #expect(throws: RowDecodingError.self) { try await body() }
        #expect(error?.reason == .columnNotFound)
    }

    @Test func everySynchronousAccessOfAQueueThrowsTheError() throws {
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        expectMissingColumn { _ = try dbQueue.read(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbQueue.write(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbQueue.inDatabase(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbQueue.writeWithoutTransaction(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbQueue.barrierWriteWithoutTransaction(Self.readMissingColumn) }
        // The connection goes on.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    @Test func everySynchronousAccessOfAPoolThrowsTheError() throws {
        let path = temporaryPath()
        defer { removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)
        expectMissingColumn { _ = try dbPool.read(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbPool.write(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbPool.writeWithoutTransaction(Self.readMissingColumn) }
        expectMissingColumn { _ = try dbPool.barrierWriteWithoutTransaction(Self.readMissingColumn) }
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    @Test func asynchronousAccessesThrowTheError() async throws {
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        await expectMissingColumn { _ = try await dbQueue.read(Self.readMissingColumn) }
        await expectMissingColumn { _ = try await dbQueue.write(Self.readMissingColumn) }
        await expectMissingColumn { _ = try await dbQueue.writeWithoutTransaction(Self.readMissingColumn) }
        await expectMissingColumn { _ = try await dbQueue.barrierWriteWithoutTransaction(Self.readMissingColumn) }

        let path = temporaryPath()
        defer { removeDatabase(at: path) }
        let dbPool = try DatabasePool(path: path)
        try prepare(dbPool)
        await expectMissingColumn { _ = try await dbPool.read(Self.readMissingColumn) }
        await expectMissingColumn { _ = try await dbPool.write(Self.readMissingColumn) }
        await expectMissingColumn { _ = try await dbPool.writeWithoutTransaction(Self.readMissingColumn) }
    }

    /// The write does not commit: the error is thrown before the commit.
    @Test func aWriteThatReadAFailedValueRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        expectMissingColumn {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                _ = try Self.readMissingColumn(db)
            }
        }
        #expect(try dbQueue.read { try Int.fetchAll($0, sql: "SELECT a FROM t") } == [1])
    }

    /// A record whose `init(row:)` fails in a fetch: the fetch throws, once.
    @Test func anErrorThrownByAFetchIsNotThrownAgainByTheAccess() throws {
        struct Record: FetchableRecord {
            var missing: Int
            init(row: Row) { missing = row["missing"] }
        }
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        let count = try dbQueue.read { db in
            do {
                _ = try Record.fetchAll(db, sql: "SELECT a FROM t")
                Issue.record("the fetch should throw")
            } catch let error as RowDecodingError {
                #expect(error.reason == .columnNotFound)
            }
            return try Int.fetchOne(db, sql: "SELECT count(*) FROM t")
        }
        #expect(count == 1)
    }

    /// A value that does not convert, in a nested scope row.
    @Test func aFailedConversionInAScopeIsReported() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db -> Int in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT 'abc' AS value"))
                let value: Int = row["value"]
                return value
            }
        }
        #expect(error?.reason == .valueMismatch)
    }

    /// Outside of any access nothing can throw: the row keeps its error,
    /// and the throwing accessor reports it.
    @Test func aRowUsedAfterItsAccessDoesNotThrow() throws {
        let dbQueue = try DatabaseQueue()
        try prepare(dbQueue)
        let row = try dbQueue.read { db in try #require(try Row.fetchOne(db, sql: "SELECT a FROM t")) }
        let value: Int = row["missing"]
        #expect(value == 0)
        #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
        // The next access has nothing to report.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }
}

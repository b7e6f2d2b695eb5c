import Foundation
import Testing
import Trellis

// I/O errors injected by a VFS that fails the Nth read, write or sync: the
// failing call throws SQLITE_IOERR, no partial transaction is visible, the
// connection stays usable, and what was committed before is intact.
//
// Each test walks the failure through every read, write or sync of its
// operation, from the first one until the operation runs without meeting it.

@Suite(.serialized) struct IOErrorTests {
    private struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var payload: String

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    private static let payload = String(repeating: "x", count: 300)

    /// A database of 50 committed items, opened through the VFS.
    private func makeDatabase() throws -> (DatabaseQueue, String) {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("io-error-\(UUID().uuidString).sqlite").path
        let dbQueue = try DatabaseQueue(path: FaultInjectingVFS.uri(path: path))
        try dbQueue.write { db in
            try db.create(table: "item") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("payload", .text).notNull()
            }
            for _ in 0..<50 {
                var item = Item(id: nil, payload: "committed")
                try item.insert(db)
            }
        }
        return (dbQueue, path)
    }

    private func remove(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Checks what each injected failure of `operation` during `work` left.
    /// Returns the number of failures injected.
    private func walkFailures(
        of operation: FaultInjectingVFS.Operation,
        during work: (DatabaseQueue) throws -> Void,
        expecting expectedCount: Int) throws -> Int
    {
        var injected = 0
        for count in 1...500 {
            let (dbQueue, path) = try makeDatabase()
            defer { remove(path) }
            FaultInjectingVFS.failNext(operation, count: count)
            var thrown: (any Error)?
            do { try work(dbQueue) } catch { thrown = error }
            let fired = FaultInjectingVFS.disarm()
            guard fired else {
                #expect(thrown == nil)
                break
            }
            injected += 1
            let error = try #require(thrown as? DatabaseError, "failure \(count): \(String(describing: thrown))")
            #expect(error.resultCode == .SQLITE_IOERR, "failure \(count): \(error)")

            // The connection goes on, and sees either all of the work or none of it.
            let (payloads, integrity) = try dbQueue.read { db in
                (try String.fetchAll(db, sql: "SELECT payload FROM item"),
                 try String.fetchOne(db, sql: "PRAGMA integrity_check"))
            }
            #expect(payloads.count == 50 || payloads.count == expectedCount, "failure \(count): \(payloads.count) rows")
            #expect(payloads.prefix(50).allSatisfy { $0 == "committed" })
            #expect(integrity == "ok", "failure \(count)")
            try dbQueue.write { db in
                var item = Item(id: nil, payload: "after")
                try item.insert(db)
            }
            try dbQueue.close()
        }
        return injected
    }

    private func insertMany(_ dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            for _ in 0..<200 {
                var item = Item(id: nil, payload: Self.payload)
                try item.insert(db)
            }
        }
    }

    @Test func everyFailedWriteOfATransactionLeavesTheDatabaseAsItWas() throws {
        let injected = try walkFailures(of: .write, during: insertMany, expecting: 250)
        #expect(injected > 5)
    }

    @Test func everyFailedSyncOfATransactionLeavesTheDatabaseAsItWas() throws {
        let injected = try walkFailures(of: .sync, during: insertMany, expecting: 250)
        #expect(injected > 0)
    }

    @Test func aFailedReadThrowsAndTheNextReadSucceeds() throws {
        let injected = try walkFailures(of: .read, during: { dbQueue in
            let count = try dbQueue.read { db in try Item.fetchAll(db).count }
            #expect(count == 50)
        }, expecting: 50)
        #expect(injected > 0)
    }
}

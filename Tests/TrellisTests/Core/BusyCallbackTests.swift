import Foundation
import Testing
import Trellis

@Suite struct BusyCallbackTests {
    final class Tries: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [Int] = []
        func append(_ value: Int) { lock.withLock { values.append(value) } }
        var all: [Int] { lock.withLock { values } }
    }

    @Test func theCallbackDecidesWhetherALockedDatabaseIsTriedAgain() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("busy-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let locker = try DatabaseQueue(path: path)
        try locker.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let tries = Tries()
        var config = Configuration()
        config.busyMode = .callback { numberOfTries in
            tries.append(numberOfTries)
            return numberOfTries < 3
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: config)

        try locker.inDatabase { db in try db.execute(sql: "BEGIN EXCLUSIVE") }
        #expect {
            try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_BUSY
        }
        #expect(tries.all == [0, 1, 2, 3])

        try locker.inDatabase { db in try db.execute(sql: "COMMIT") }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
        // No lock, no call.
        #expect(tries.all == [0, 1, 2, 3])
    }
}

import Foundation
import Testing
import Trellis

@Suite struct ValueObservationTests {
    @Test func valuesYieldTheCurrentValueThenEachChange() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT)") }
        let observation = ValueObservation.tracking { db in
            try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name")
        }
        var received: [[String]] = []
        for try await names in observation.values(in: dbQueue) {
            received.append(names)
            if received.count == 1 {
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
            } else if received.count == 2 {
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Barbara')") }
            } else {
                break
            }
        }
        #expect(received == [[], ["Arthur"], ["Arthur", "Barbara"]])
    }

    @Test func startDeliversChangesUntilCancelled() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("observe-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        final class Box: @unchecked Sendable {
            let lock = NSLock()
            var counts: [Int] = []
            func append(_ value: Int) { lock.lock(); counts.append(value); lock.unlock() }
            var values: [Int] { lock.lock(); defer { lock.unlock() }; return counts }
        }
        let box = Box()
        let changed = DispatchSemaphore(value: 0)
        let cancellable = ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
            .start(in: dbPool) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { count in
                box.append(count)
                changed.signal()
            }
        #expect(changed.wait(timeout: .now() + 5) == .success)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(changed.wait(timeout: .now() + 5) == .success)
        cancellable.cancel()
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        Thread.sleep(forTimeInterval: 0.2)
        #expect(box.values == [1, 2])
    }

    @Test func anErrorEndsTheSequence() async throws {
        let dbQueue = try DatabaseQueue()
        let observation = ValueObservation.tracking { db in try Int.fetchAll(db, sql: "SELECT * FROM missing") }
        await #expect(throws: DatabaseError.self) {
            for try await _ in observation.values(in: dbQueue) {}
        }
    }
}

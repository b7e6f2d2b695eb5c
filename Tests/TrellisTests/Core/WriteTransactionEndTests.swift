import Foundation
import Testing
import Trellis

// A write whose closure ends the transaction itself, and an observation
// whose first fetch fails.

@Suite("Transactions ended in a write, failed first fetches")
struct WriteTransactionEndTests {
    @Test("A write whose closure commits by itself throws SQLITE_ABORT, as in GRDB")
    func commitInsideWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.commit()
            }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_ABORT && (error as? DatabaseError)?.message == "Transaction was aborted"
        }
        // The insert was committed by the closure.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test("An observation whose first fetch fails tells no change, only the failure")
    func failedFirstFetchEvents() throws {
        final class Log: @unchecked Sendable {
            private let lock = NSLock()
            private var events: [String] = []
            func append(_ event: String) { lock.withLock { events.append(event) } }
            var all: [String] { lock.withLock { events } }
        }
        let log = Log()
        let failed = DispatchSemaphore(value: 0)
        let dbQueue = try DatabaseQueue()
        let observation = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
            .handleEvents(
                willStart: { log.append("willStart") },
                willFetch: { log.append("willFetch") },
                databaseDidChange: { log.append("databaseDidChange") },
                didFail: { _ in log.append("didFail") })
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")),
            onError: { _ in failed.signal() }, onChange: { _ in })
        #expect(failed.wait(timeout: .now() + 5) == .success)
        cancellable.cancel()
        #expect(log.all == ["willStart", "willFetch", "didFail"])
    }
}

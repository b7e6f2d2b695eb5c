import Dispatch
import Foundation
import Testing
import Trellis

// The "ValueObservation Behavior" section of GRDB's ValueObservation page:
// an initial value comes before the changes, only committed changes to the
// tracked region give values, and a fresh value is fetched right after
// each commit. On a DatabaseQueue, the first fetch is queued on the
// connection when the observation starts: a write made after `start`
// gives a value of its own, after the initial one.

/// Values received by `onChange`, awaited with a bound: a missing value
/// fails the test instead of hanging it.
private final class Values<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Value] = []

    func append(_ value: Value) {
        lock.withLock { values.append(value) }
    }

    /// The values, once there are at least `count` of them, or those
    /// received after a generous bound.
    func first(_ count: Int) async -> [Value] {
        for _ in 0..<1000 {
            let snapshot = lock.withLock { values }
            if snapshot.count >= count { return snapshot }
            try? await Task.sleep(nanoseconds: 10_000_000)
        }
        return lock.withLock { values }
    }
}

@Suite struct ValueObservationBehaviorDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
            }
        }
        return dbQueue
    }

    private func insert(_ name: String, in dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES (?)", arguments: [name]) }
    }

    private let names = ValueObservation.tracking { db in
        try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id")
    }

    @Test func aWriteRightAfterStartGivesItsOwnValue() async throws {
        let dbQueue = try makeDatabase()
        let values = Values<[String]>()
        let cancellable = names.start(
            in: dbQueue,
            scheduling: .async(onQueue: DispatchQueue(label: "observation")),
            onError: { error in Issue.record(error) },
            onChange: { values.append($0) })
        // A synchronous write, then an asynchronous one.
        try insert("Arthur", in: dbQueue)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(await values.first(3) == [[], ["Arthur"], ["Arthur", "Barbara"]])
        cancellable.cancel()
    }

    @Test func anAsyncSequenceStartsWithTheIteration() async throws {
        let dbQueue = try makeDatabase()
        let sequence = names.values(in: dbQueue)
        // The iteration runs in a task that a bound cancels, which ends it:
        // a missing value fails the test instead of hanging it.
        let values = try await withThrowingTaskGroup(of: [[String]].self) { group in
            group.addTask {
                var iterator = sequence.makeAsyncIterator()
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
                var values: [[String]] = []
                while values.count < 2, let value = try await iterator.next() {
                    values.append(value)
                }
                return values
            }
            group.addTask {
                try await Task.sleep(nanoseconds: 10_000_000_000)
                return []
            }
            let values = try await group.next() ?? []
            group.cancelAll()
            return values
        }
        #expect(values == [[], ["Arthur"]])
    }

    @Test func onlyCommittedChangesToTheTrackedRegionGiveValues() async throws {
        let dbQueue = try makeDatabase()
        let values = Values<[String]>()
        let cancellable = names.start(
            in: dbQueue,
            scheduling: .async(onQueue: DispatchQueue(label: "observation")),
            onError: { error in Issue.record(error) },
            onChange: { values.append($0) })
        // An update of no row, a rolled back transaction, a change to
        // another table, and a rolled back savepoint: no value.
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'Craig' WHERE id = 42") }
        try await dbQueue.writeWithoutTransaction { db in try db.inTransaction {
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Rolled back')")
            return .rollback
        } }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try await dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Rolled back')")
                return .rollback
            }
            try db.execute(sql: "INSERT INTO team DEFAULT VALUES")
        }
        try insert("Arthur", in: dbQueue)
        #expect(await values.first(2) == [[], ["Arthur"]])
        cancellable.cancel()
    }
}

import Foundation
import Testing
import Trellis

// Observations in the shapes application layers return and consume them:
// typed `ValueObservation<ValueReducers.Fetch<...>>` and
// `AsyncValueObservation<...>` results, fetch functions passed by name,
// an async sequence wrapped in an `AsyncThrowingStream`, `start` with
// trailing closures, explicit regions given as `Table`s, and region
// observations of a filtered request.

private struct Reminder: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var title: String
    var done: Bool
}

private enum ReminderQueries {
    static func open(_ db: Database) throws -> [Reminder] {
        try Reminder.filter(Column("done") == false).order(Column("id")).fetchAll(db)
    }

    static func openCount(_ db: Database) throws -> Int {
        try Reminder.filter(Column("done") == false).fetchCount(db)
    }
}

private func makeReminderQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "reminder") { t in
            t.primaryKey("id", .integer)
            t.column("title", .text).notNull()
            t.column("done", .boolean).notNull()
        }
        try db.create(table: "tick") { t in
            t.autoIncrementedPrimaryKey("id")
        }
    }
    return dbQueue
}

private func openRemindersObservation() -> ValueObservation<ValueReducers.Fetch<[Reminder]>> {
    ValueObservation.tracking(ReminderQueries.open)
}

private func openCountValues(in reader: any DatabaseReader) -> AsyncValueObservation<Int> {
    ValueObservation.tracking(ReminderQueries.openCount(_:)).removeDuplicates().values(in: reader)
}

extension DatabaseReader {
    /// An application-side wrapper that exposes an observation as a stream.
    fileprivate func stream<Value: Sendable>(
        _ fetch: @escaping @Sendable (Database) throws -> Value) -> AsyncThrowingStream<Value, any Error>
    {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    for try await value in ValueObservation.tracking(fetch).values(in: self) {
                        continuation.yield(value)
                    }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }
}

@Suite("App usage: observation")
struct AppUsageObservationTests {
    @Test("A typed observation of a fetch function notifies the initial and the changed values in order")
    func typedObservation() async throws {
        let dbQueue = try makeReminderQueue()
        var values: [[Int64]] = []
        for try await reminders in openRemindersObservation().values(in: dbQueue) {
            values.append(reminders.map(\.id))
            switch values.count {
            case 1: try await dbQueue.write { db in try Reminder(id: 1, title: "a", done: false).insert(db) }
            case 2: try await dbQueue.write { db in try Reminder(id: 2, title: "b", done: false).insert(db) }
            default: break
            }
            if values.count == 3 { break }
        }
        #expect(values == [[], [1], [1, 2]])
    }

    @Test("removeDuplicates skips a change that leaves the observed count equal")
    func removeDuplicatesOnCount() async throws {
        let dbQueue = try makeReminderQueue()
        var counts: [Int] = []
        for try await count in openCountValues(in: dbQueue) {
            counts.append(count)
            if counts.count == 1 {
                try await dbQueue.write { db in
                    try Reminder(id: 1, title: "done already", done: true).insert(db)
                }
                try await dbQueue.write { db in
                    try Reminder(id: 2, title: "open", done: false).insert(db)
                }
            } else {
                break
            }
        }
        #expect(counts == [0, 1])
    }

    @Test("An observation wrapped in an AsyncThrowingStream ends its task when the stream is dropped")
    func wrappedStream() async throws {
        let dbQueue = try makeReminderQueue()
        var titles: [[String]] = []
        let stream = dbQueue.stream { db in try Reminder.order(Column("id")).fetchAll(db).map(\.title) }
        for try await value in stream {
            titles.append(value)
            if titles.count == 1 {
                try await dbQueue.write { db in try Reminder(id: 1, title: "x", done: false).insert(db) }
            } else {
                break
            }
        }
        #expect(titles == [[], ["x"]])
    }

    @Test("start(in:) with trailing onError and onChange closures, on a table that is empty at first fetch")
    @MainActor
    func startWithTrailingClosures() async throws {
        let dbQueue = try makeReminderQueue()
        let (values, continuation) = AsyncStream.makeStream(of: Int.self)
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tick") ?? 0 }
            .start(in: dbQueue, scheduling: .immediate) { error in
                Issue.record(error)
            } onChange: { count in
                continuation.yield(count)
            }
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == 0)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO tick DEFAULT VALUES") }
        #expect(await iterator.next() == 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO tick DEFAULT VALUES") }
        #expect(await iterator.next() == 2)
        cancellable.cancel()
    }

    @Test("Explicit regions given as Table values trigger a fetch that reads no table")
    func explicitTableRegions() async throws {
        let dbQueue = try makeReminderQueue()
        let (values, continuation) = AsyncStream.makeStream(of: String.self)
        let queue = DispatchQueue(label: "observation")
        let cancellable = ValueObservation
            .tracking(regions: [Table("tick"), Table("reminder")]) { _ in "fetched" }
            .start(
                in: dbQueue, scheduling: .async(onQueue: queue),
                onError: { Issue.record($0) }, onChange: { continuation.yield($0) })
        var iterator = values.makeAsyncIterator()
        #expect(await iterator.next() == "fetched")
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO tick DEFAULT VALUES") }
        #expect(await iterator.next() == "fetched")
        try await dbQueue.write { db in try Reminder(id: 1, title: "a", done: false).insert(db) }
        #expect(await iterator.next() == "fetched")
        cancellable.cancel()
    }

    @Test("A region observation of a filtered request is told of changes to its columns, in the writer's transaction")
    func regionObservation() throws {
        let dbQueue = try makeReminderQueue()
        let counts = Received<Int>()
        let observation = DatabaseRegionObservation(tracking: Reminder.filter(Column("done") == false))
        let cancellable = observation.start(in: dbQueue) { error in
            Issue.record(error)
        } onChange: { db in
            counts.append((try? ReminderQueries.openCount(db)) ?? -1)
        }
        try dbQueue.write { db in try Reminder(id: 1, title: "a", done: false).insert(db) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO tick DEFAULT VALUES") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE reminder SET done = 1") }
        cancellable.cancel()
        #expect(counts.values == [1, 0])
    }
}

extension AppUsageObservationTests {
    @Test("Region observations of the full database and of an array of requests, reading in their callback")
    func regionObservationForms() throws {
        let dbQueue = try makeReminderQueue()
        let everything = Received<Int>()
        let reminders = Received<[String]>()
        let full = DatabaseRegionObservation(tracking: .fullDatabase)
            .start(in: dbQueue, onError: { Issue.record($0) }, onChange: { _ in everything.append(1) })
        let listed = DatabaseRegionObservation(tracking: [Reminder.all()])
            .start(in: dbQueue, onError: { Issue.record($0) }, onChange: { db in
                do {
                    reminders.append(try String.fetchAll(db, sql: "SELECT title FROM reminder ORDER BY id"))
                } catch {
                    Issue.record(error)
                }
            })
        try dbQueue.write { db in try Reminder(id: 1, title: "a", done: false).insert(db) }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO tick DEFAULT VALUES") }
        try dbQueue.write { db in try Reminder(id: 2, title: "b", done: true).insert(db) }
        full.cancel()
        listed.cancel()
        try dbQueue.write { db in try Reminder(id: 3, title: "c", done: true).insert(db) }
        #expect(everything.values.count == 3)
        #expect(reminders.values == [["a"], ["a", "b"]])
    }
}

private final class Received<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    func append(_ value: Value) {
        lock.lock()
        storage.append(value)
        lock.unlock()
    }

    var values: [Value] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}

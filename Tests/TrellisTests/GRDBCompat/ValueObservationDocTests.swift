import Dispatch
import Foundation
import Testing
import Trellis

// GRDB's ValueObservation page (Extension/ValueObservation.md): its
// samples (but the Combine publishers), with what GRDB 7 delivers for
// them; the samples that start without a scheduler run on the main actor. Values arrive asynchronously: the tests wait for
// them, and never for a duration.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
    var id: Int64?
    var name: String
    var score: Int = 0
    init(name: String, score: Int = 0) {
        self.name = name
        self.score = score
    }
    enum Columns {
        static let score = Column("score")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// Values and errors received by callbacks, awaited in order.
private final class Inbox<Value: Sendable>: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var received: [Result<Value, any Error>] = []
    private var waiters: [CheckedContinuation<Result<Value, any Error>, Never>] = []

    func receive(_ result: Result<Value, any Error>) {
        lock.lock()
        if waiters.isEmpty {
            received.append(result)
            lock.unlock()
        } else {
            let waiter = waiters.removeFirst()
            lock.unlock()
            waiter.resume(returning: result)
        }
    }

    /// The next value or error, in the order they came.
    func next() async -> Result<Value, any Error> {
        await withCheckedContinuation { continuation in
            lock.lock()
            if received.isEmpty {
                waiters.append(continuation)
                lock.unlock()
            } else {
                let result = received.removeFirst()
                lock.unlock()
                continuation.resume(returning: result)
            }
        }
    }

    func nextValue() async throws -> Value {
        try await next().get()
    }

    /// The values received so far, without waiting.
    func pendingValues() throws -> [Value] {
        lock.lock()
        let results = received
        received = []
        lock.unlock()
        return try results.map { try $0.get() }
    }
}

@Suite struct ValueObservationDocTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
        }
        return dbQueue
    }

    private func insert(_ name: String, score: Int = 0, in dbQueue: DatabaseQueue) throws {
        try dbQueue.write { db in
            var player = Player(name: name, score: score)
            try player.insert(db)
        }
    }

    // MARK: ValueObservation Usage

    @Test @MainActor func startAndCancel() async throws {
        let dbQueue = try makeDatabase()
        // For example, an observation of [Player], which tracks all players:
        let observation = ValueObservation.tracking { db in
            try Player.fetchAll(db)
        }
        let inbox = Inbox<[String]>()
        let cancellable = observation.start(in: dbQueue) { error in
            inbox.receive(.failure(error))
        } onChange: { (players: [Player]) in
            inbox.receive(.success(players.map(\.name)))
        }
        // The initial value, then the value after each change.
        #expect(try await inbox.nextValue() == [])
        try insert("Arthur", in: dbQueue)
        #expect(try await inbox.nextValue() == ["Arthur"])
        // A change to another table does not trigger a fetch: the next
        // value is the one of the next change to the player table.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try insert("Barbara", in: dbQueue)
        #expect(try await inbox.nextValue() == ["Arthur", "Barbara"])
        // Rolled back changes are not notified. (Trellis may fetch again
        // after a rollback, and notify the same value: GRDB's documentation
        // allows consecutive identical values.)
        try dbQueue.inTransaction { db in
            try db.execute(sql: "DELETE FROM player")
            return .rollback
        }
        try insert("Craig", in: dbQueue)
        var next = try await inbox.nextValue()
        if next == ["Arthur", "Barbara"] { next = try await inbox.nextValue() }
        #expect(next == ["Arthur", "Barbara", "Craig"])
        cancellable.cancel()
    }

    @Test func shorthandNotationAndAsyncSequence() async throws {
        let dbQueue = try makeDatabase()
        // The same observation, using shorthand notation:
        let observation = ValueObservation.tracking(Player.fetchAll)
        var names: [[String]] = []
        do {
            for try await players in observation.values(in: dbQueue) {
                names.append(players.map(\.name))
                if names.count == 1 {
                    try insert("Arthur", in: dbQueue)
                } else {
                    break
                }
            }
        } catch {
            Issue.record(error)
        }
        #expect(names == [[], ["Arthur"]])
    }

    @Test func errorsEndTheObservation() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing")
        }
        do {
            for try await _ in observation.values(in: dbQueue) {
                Issue.record("unexpected value")
            }
            Issue.record("expected an error")
        } catch let error as DatabaseError {
            #expect(error.message == "no such table: missing")
        }
    }

    // MARK: ValueObservation Scheduling

    @Test @MainActor func immediateSchedulingNotifiesTheInitialValueRightOnSubscription() throws {
        let dbQueue = try makeDatabase()
        try insert("Arthur", in: dbQueue)
        let observation = ValueObservation.tracking(Player.fetchAll)
        let inbox = Inbox<[Player]>()
        // Immediate scheduling notifies
        // the initial value right on subscription.
        let cancellable = observation
            .start(in: dbQueue, scheduling: .immediate) { error in
                inbox.receive(.failure(error))
            } onChange: { value in
                inbox.receive(.success(value))
            }
        // <- Here "Fresh value" has already been printed: the value waits
        // in the inbox, and `next` does not wait for a fetch.
        #expect(try inbox.pendingValues().map { $0.map(\.name) } == [["Arthur"]])
        cancellable.cancel()
    }

    @Test func asyncSchedulingNotifiesOnTheGivenQueue() async throws {
        let dbQueue = try makeDatabase()
        let key = DispatchSpecificKey<String>()
        let myQueue = DispatchQueue(label: "myQueue")
        myQueue.setSpecific(key: key, value: "myQueue")
        let observation = ValueObservation.tracking(Player.fetchCount)
        let inbox = Inbox<String?>()
        // Async scheduling notifies all values
        // on the specified dispatch queue.
        // (The article writes `.async(myQueue)`: the label is `onQueue:`,
        // in GRDB as in Trellis.)
        let cancellable = observation
            .start(in: dbQueue, scheduling: .async(onQueue: myQueue)) { error in
                inbox.receive(.failure(error))
            } onChange: { _ in
                inbox.receive(.success(DispatchQueue.getSpecific(key: key)))
            }
        #expect(try await inbox.nextValue() == "myQueue")
        try insert("Arthur", in: dbQueue)
        #expect(try await inbox.nextValue() == "myQueue")
        cancellable.cancel()
    }

    @Test func taskScheduling() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking(Player.fetchCount)
        var counts: [Int] = []
        for try await count in observation.values(in: dbQueue, scheduling: .task, bufferingPolicy: .unbounded) {
            counts.append(count)
            if counts.count == 2 { break }
            try insert("Arthur", in: dbQueue)
        }
        #expect(counts == [0, 1])
    }

    // MARK: ValueObservation Sharing

    @Test func sharedObservation() async throws {
        let dbQueue = try makeDatabase()
        final class FetchCounter: @unchecked Sendable {
            private let lock = NSLock()
            private var _count = 0
            var count: Int { lock.withLock { _count } }
            func increment() { lock.withLock { _count += 1 } }
        }
        let fetches = FetchCounter()
        // SharedValueObservation<[Player]>
        let sharedObservation = ValueObservation
            .tracking { db in try Player.fetchAll(db) }
            .handleEvents(willFetch: { fetches.increment() })
            .shared(in: dbQueue)

        let first = Inbox<[String]>()
        let second = Inbox<[String]>()
        let firstCancellable = sharedObservation.start { error in
            first.receive(.failure(error))
        } onChange: { players in
            first.receive(.success(players.map(\.name)))
        }
        #expect(try await first.nextValue() == [])
        // A new subscriber receives the last value, without a new fetch.
        let secondCancellable = sharedObservation.start { error in
            second.receive(.failure(error))
        } onChange: { players in
            second.receive(.success(players.map(\.name)))
        }
        #expect(try await second.nextValue() == [])
        #expect(fetches.count == 1)

        // One fetch per change, for all subscribers.
        try insert("Arthur", in: dbQueue)
        #expect(try await first.nextValue() == ["Arthur"])
        #expect(try await second.nextValue() == ["Arthur"])
        #expect(fetches.count == 2)

        // The async sequence of a shared observation.
        for try await players in sharedObservation.values() {
            #expect(players.map(\.name) == ["Arthur"])
            break
        }
        #expect(fetches.count == 2)

        // Without subscribers, the observation stops; the next one starts
        // it again.
        firstCancellable.cancel()
        secondCancellable.cancel()
        let third = Inbox<[String]>()
        let thirdCancellable = sharedObservation.start { error in
            third.receive(.failure(error))
        } onChange: { players in
            third.receive(.success(players.map(\.name)))
        }
        #expect(try await third.nextValue() == ["Arthur"])
        #expect(fetches.count == 3)
        thirdCancellable.cancel()
    }

    // MARK: Specifying the Tracked Region

    @Test func trackingARegion() async throws {
        let dbQueue = try makeDatabase()
        try insert("Arthur", in: dbQueue)
        let observation = ValueObservation.tracking(
            // Define the tracked database region
            // (the score column of the player with id 1)
            region: Player.select(\.score).filter(id: 1),
            // Define what to fetch upon such change to the tracked region
            // (the player with id 1)
            fetch: { db in try Player.fetchOne(db, id: 1) }
        )
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next()??.score == 0)
        // The team table is not in the region.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 10 WHERE id = 1") }
        #expect(try await iterator.next()??.score == 10)

        // Several regions.
        let counts = ValueObservation.tracking(regions: [Player.all(), Table("team")]) { db in
            try Player.fetchCount(db)
        }
        var countIterator = counts.values(in: dbQueue).makeAsyncIterator()
        #expect(try await countIterator.next() == 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(try await countIterator.next() == 1)

        // A constant region.
        let constant = ValueObservation.trackingConstantRegion(Player.fetchCount)
        var constantIterator = constant.values(in: dbQueue).makeAsyncIterator()
        #expect(try await constantIterator.next() == 1)
        try insert("Barbara", in: dbQueue)
        #expect(try await constantIterator.next() == 2)
    }

    @Test func registerAccessExtendsTheTrackedRegion() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking { db in
            try db.registerAccess(to: Table("team"))
            return try Player.fetchCount(db)
        }
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(try await iterator.next() == 0)
        // Outside of an observation, it does nothing.
        try await dbQueue.read { db in try db.registerAccess(to: Table("team")) }
    }

    // MARK: Dealing with Undetected Changes

    @Test func notifyChangesTriggersAFetch() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking(Player.fetchCount)
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await dbQueue.write { db in
            // Notify observations that some changes were performed in the database
            try db.notifyChanges(in: .fullDatabase)
        }
        #expect(try await iterator.next() == 0)
        try await dbQueue.write { db in
            // Notify observations that some changes were performed in the player table
            try db.notifyChanges(in: Player.all())
        }
        #expect(try await iterator.next() == 0)
        // A change of another table: no fetch. The next value is the one
        // of the next change of the player table.
        try await dbQueue.write { db in try db.notifyChanges(in: Table("team")) }
        try await dbQueue.write { db in
            // Equivalent alternative, with a real change
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.notifyChanges(in: Table("player"))
        }
        #expect(try await iterator.next() == 1)
    }

    // MARK: ValueObservation Performance

    @Test func mapAndRemoveDuplicates() async throws {
        let dbQueue = try makeDatabase()
        // Optimized observation
        // (the article omits the `in` of the closure)
        let observation = ValueObservation
            .tracking { db in try Player.fetchAll(db) }
            .map { players in players.map(\.score).max() ?? 0 }
            .removeDuplicates()
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try insert("Arthur", score: 10, in: dbQueue)
        #expect(try await iterator.next() == 10)
        // The maximum does not change: no value.
        try insert("Barbara", score: 5, in: dbQueue)
        try insert("Craig", score: 20, in: dbQueue)
        #expect(try await iterator.next() == 20)

        let byCount = ValueObservation
            .tracking(Player.fetchAll)
            .removeDuplicates { $0.count == $1.count }
        var countIterator = byCount.values(in: dbQueue).makeAsyncIterator()
        #expect(try await countIterator.next()?.count == 3)
        try await dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 0") }
        try insert("David", in: dbQueue)
        #expect(try await countIterator.next()?.count == 4)
    }

    // MARK: Debugging and write access

    @Test func handleEventsAndPrint() async throws {
        final class Lines: TextOutputStream, @unchecked Sendable {
            private let lock = NSLock()
            private var text = ""
            var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
            func write(_ string: String) { lock.withLock { text += string } }
        }
        let dbQueue = try makeDatabase()
        let output = Lines()
        let observation = ValueObservation
            .tracking(Player.fetchCount)
            .print("players", to: output)
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try insert("Arthur", in: dbQueue)
        #expect(try await iterator.next() == 1)
        #expect(output.lines == [
            "players: start",
            "players: fetch",
            "players: tracked region: player(*)",
            "players: value: 0",
            "players: database did change",
            "players: fetch",
            "players: value: 1",
        ])

        let events = Lines()
        let failing = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
            .handleEvents(
                willStart: { events.write("willStart\n") },
                didReceiveValue: { _ in events.write("didReceiveValue\n") },
                didFail: { _ in events.write("didFail\n") },
                didCancel: { events.write("didCancel\n") })
        do {
            for try await _ in failing.values(in: dbQueue) {}
        } catch {}
        #expect(events.lines == ["willStart", "didFail"])
    }

    @Test func requiresWriteAccess() async throws {
        let dbQueue = try makeDatabase()
        var observation = ValueObservation.tracking { db -> Int in
            try db.execute(sql: "CREATE TEMP TABLE IF NOT EXISTS fetchLog(date)")
            try db.execute(sql: "INSERT INTO fetchLog VALUES (CURRENT_TIMESTAMP)")
            return try Player.fetchCount(db)
        }
        // A read-only fetch can not write.
        do {
            for try await _ in observation.values(in: dbQueue) {
                Issue.record("unexpected value")
            }
        } catch let error as DatabaseError {
            #expect(error.resultCode == .SQLITE_READONLY)
        }
        observation.requiresWriteAccess = true
        var iterator = observation.removeDuplicates().values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try insert("Arthur", in: dbQueue)
        #expect(try await iterator.next() == 1)
    }
}

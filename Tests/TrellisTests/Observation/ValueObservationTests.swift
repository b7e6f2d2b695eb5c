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
        let fetches = Box()
        let changed = DispatchSemaphore(value: 0)
        let cancellable = ValueObservation
            .tracking { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
                fetches.append(count)
                return count
            }
            .start(in: dbPool, scheduling: .task) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { count in
                box.append(count)
                changed.signal()
            }
        #expect(changed.wait(timeout: .now() + 5) == .success)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        #expect(changed.wait(timeout: .now() + 5) == .success)
        cancellable.cancel()
        // A change is fetched inside the write that made it: once the write
        // returns, a fetch it triggered has run, and every value comes from
        // a fetch.
        try dbPool.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
        #expect(fetches.values == [1, 2])
        #expect(box.values == [1, 2])
    }

    @Test func anErrorEndsTheSequence() async throws {
        let dbQueue = try DatabaseQueue()
        let observation = ValueObservation.tracking { db in try Int.fetchAll(db, sql: "SELECT * FROM missing") }
        await #expect(throws: DatabaseError.self) {
            for try await _ in observation.values(in: dbQueue) {}
        }
    }

    // MARK: - Tracked region

    /// Collects the values an observation delivers, and waits for them.
    final class Recorder<Value: Sendable>: @unchecked Sendable {
        private let lock = NSLock()
        private var received: [Value] = []
        private let delivered = DispatchSemaphore(value: 0)

        func append(_ value: Value) {
            lock.lock()
            received.append(value)
            lock.unlock()
            delivered.signal()
        }

        var values: [Value] { lock.lock(); defer { lock.unlock() }; return received }

        /// Waits for one more value; false after a timeout.
        func waitForValue(seconds: Double = 5) -> Bool {
            delivered.wait(timeout: .now() + seconds) == .success
        }

        /// Waits, without blocking the thread, until `count` values arrived;
        /// false after a timeout.
        func nextValues(count: Int, seconds: Double = 5) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while values.count < count {
                if Date() > deadline { return false }
                try? await Task.sleep(nanoseconds: 5_000_000)
            }
            return true
        }
    }

    /// The number of players, each fetch recorded in `fetches`.
    private func playerCount(recordingFetchesIn fetches: Recorder<Int>) -> ValueObservation<ValueReducers.Fetch<Int>> {
        ValueObservation.tracking { db in
            let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
            fetches.append(count)
            return count
        }
    }

    /// Starts observing the number of players: the fetches it makes, the
    /// values it delivers, and its cancellable.
    private func observePlayerCount(
        in writer: some DatabaseWriter) -> (fetches: Recorder<Int>, recorder: Recorder<Int>, cancellable: AnyDatabaseCancellable)
    {
        let fetches = Recorder<Int>()
        let recorder = Recorder<Int>()
        let cancellable = observe(playerCount(recordingFetchesIn: fetches), in: writer, into: recorder)
        return (fetches, recorder, cancellable)
    }

    private func observe<Reducer: ValueReducer>(
        _ observation: ValueObservation<Reducer>,
        in writer: some DatabaseWriter,
        into recorder: Recorder<Reducer.Value>) -> AnyDatabaseCancellable
    {
        observation.start(in: writer, scheduling: .task) { error in
            Issue.record("unexpected error \(error)")
        } onChange: { value in
            recorder.append(value)
        }
    }

    @Test func writesToOtherTablesDoNotTriggerAFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT); CREATE TABLE team(name TEXT)")
        }
        let (fetches, recorder, cancellable) = observePlayerCount(in: dbQueue)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        // A change is fetched inside the write that made it: no fetch once
        // the write returned, so no value to come.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES ('Reds')") }
        #expect(fetches.values == [0])
        #expect(recorder.values == [0])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [0, 1])
    }

    @Test func rolledBackChangesAreNotObserved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT)") }
        let (fetches, recorder, cancellable) = observePlayerCount(in: dbQueue)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        struct Failure: Error {}
        // A transaction rolled back, a write that throws, a savepoint
        // rolled back in a write that commits nothing else.
        try dbQueue.inTransaction { db in
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur')")
            return .rollback
        }
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player VALUES ('Arthur')")
                throw Failure()
            }
        }
        try dbQueue.write { db in
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO player VALUES ('Arthur')")
                return .rollback
            }
        }
        // A change is fetched inside the write that made it: no fetch once
        // the writes returned, so no value to come.
        #expect(fetches.values == [0])
        #expect(recorder.values == [0])
        // After a rollback, the same statement committed is observed.
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player VALUES ('Arthur')")
                return .rollback
            }
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO player VALUES ('Arthur')")
                return .commit
            }
        }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [0, 1])
    }

    @Test func tablesAreMatchedWhateverTheirCase() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE Player(name TEXT)") }
        let recorder = Recorder<[String]>()
        let cancellable = observe(
            ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT name FROM player") },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO PLAYER VALUES ('Arthur')") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [[], ["Arthur"]])
    }

    @Test func writesMadeByTriggersTriggerAFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(name TEXT);
                CREATE TABLE log(message TEXT);
                CREATE TRIGGER logInsert AFTER INSERT ON player BEGIN
                    INSERT INTO log VALUES ('inserted ' || NEW.name);
                END;
                """)
        }
        let recorder = Recorder<[String]>()
        let cancellable = observe(
            ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT message FROM log") },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [[], ["inserted Arthur"]])
    }

    @Test func viewsAreTrackedThroughTheirTables() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(name TEXT, score INTEGER);
                CREATE VIEW champion AS SELECT name FROM player WHERE score > 100;
                """)
        }
        let recorder = Recorder<[String]>()
        let cancellable = observe(
            ValueObservation.tracking { db in try String.fetchAll(db, sql: "SELECT name FROM champion") },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 200)") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [[], ["Arthur"]])
    }

    @Test func theTrackedRegionFollowsTheLastFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE setting(useTeams BOOLEAN); INSERT INTO setting VALUES (0);
                CREATE TABLE player(name TEXT); CREATE TABLE team(name TEXT);
                """)
        }
        let recorder = Recorder<[String]>()
        let cancellable = observe(
            ValueObservation.tracking { db in
                let useTeams = try Bool.fetchOne(db, sql: "SELECT useTeams FROM setting") ?? false
                return try String.fetchAll(db, sql: useTeams ? "SELECT name FROM team" : "SELECT name FROM player")
            },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "UPDATE setting SET useTeams = 1") }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES ('Reds')") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [[], [], ["Reds"]])
    }

    @Test func schemaChangesTriggerAFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT); INSERT INTO player VALUES ('Arthur')") }
        let recorder = Recorder<[String]>()
        let cancellable = observe(
            ValueObservation.tracking { db in try db.columns(in: "player").map(\.name) },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "ALTER TABLE player ADD COLUMN score INTEGER") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [["name"], ["name", "score"]])
    }

    @Test func removeDuplicatesSkipsEqualValues() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("observe-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT, score INTEGER)") }
        let recorder = Recorder<Int>()
        let cancellable = observe(
            ValueObservation.tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
                .removeDuplicates(),
            in: dbPool, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 10)") }
        #expect(recorder.waitForValue())
        // Same count: no new value. Values come in order: a duplicate would
        // come before the value of the next change.
        try dbPool.write { db in try db.execute(sql: "UPDATE player SET score = 20") }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Barbara', 5)") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [0, 1, 2])
    }

    // MARK: - Transforms and scheduling

    @Test func mapTransformsTheValuesAfterDuplicatesAreRemoved() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT, score INTEGER)") }
        let recorder = Recorder<String>()
        let cancellable = observe(
            ValueObservation
                .trackingConstantRegion { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0 }
                .removeDuplicates()
                .map { "\($0) players" },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur', 1)") }
        #expect(recorder.waitForValue())
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = 2") }
        #expect(recorder.values == ["0 players", "1 players"])
        // Values come in order: a duplicate would come before the value of
        // the next change.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Barbara', 3)") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == ["0 players", "1 players", "2 players"])
    }

    @Test @MainActor func immediateSchedulingDeliversTheCurrentValueBeforeStartReturns() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
            .start(in: dbQueue, scheduling: .immediate) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { count in
                MainActor.assertIsolated()
                recorder.append(count)
            }
        defer { cancellable.cancel() }
        #expect(recorder.values == [1])
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (2)") }
        // The next values come asynchronously, on the main actor: it must
        // be free to run them.
        #expect(await recorder.nextValues(count: 2))
        #expect(recorder.values == [1, 2])
    }

    @Test @MainActor func valuesAreDeliveredOnTheMainActorByDefault() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        final class Model {
            var counts: [Int] = []
        }
        let model = Model()   // main-actor state, not Sendable
        let recorder = Recorder<Int>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
            .start(in: dbQueue) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { count in
                model.counts.append(count)
                recorder.append(count)
            }
        defer { cancellable.cancel() }
        // Asynchronous: nothing before start returns.
        #expect(model.counts.isEmpty)
        #expect(await recorder.nextValues(count: 1))
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(await recorder.nextValues(count: 2))
        #expect(model.counts == [0, 1])
    }

    @Test func asyncSchedulingDeliversOnTheGivenQueue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let queue = DispatchQueue(label: "deliveries")
        let key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: "deliveries")
        let recorder = Recorder<String?>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
            .start(in: dbQueue, scheduling: .async(onQueue: queue)) { error in
                Issue.record("unexpected error \(error)")
            } onChange: { _ in
                recorder.append(DispatchQueue.getSpecific(key: key))
            }
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        #expect(recorder.values == ["deliveries"])
    }

    @Test func anExplicitRegionReplacesTheTablesTheFetchReads() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(name TEXT); CREATE TABLE team(name TEXT)")
        }
        let fetches = Recorder<Int>()
        let recorder = Recorder<Int>()
        let cancellable = observe(
            ValueObservation.tracking(region: SQLRequest<Row>(sql: "SELECT * FROM team")) { db in
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
                fetches.append(count)
                return count
            },
            in: dbQueue, into: recorder)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        // A change is fetched inside the write that made it: no fetch once
        // the write returned, so no value to come.
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
        #expect(fetches.values == [0])
        #expect(recorder.values == [0])
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO team VALUES ('Reds')") }
        #expect(recorder.waitForValue())
        #expect(recorder.values == [0, 1])
    }

    // MARK: - When values are fetched

    /// Each write gives its own value, fetched before the write returns:
    /// a fast series of writes is not coalesced.
    @Test(arguments: [false, true])
    func eachCommittedWriteIsFetchedBeforeTheWriteReturns(usesPool: Bool) throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("each-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let writer: any DatabaseWriter = usesPool ? try DatabasePool(path: path) : try DatabaseQueue(path: path)
        try writer.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT)") }
        let (fetches, recorder, cancellable) = observePlayerCount(in: writer)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        for expectedCount in 1...5 {
            try writer.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Arthur')") }
            #expect(fetches.values.last == expectedCount)
        }
        for _ in 1...5 { #expect(recorder.waitForValue()) }
        #expect(recorder.values == [0, 1, 2, 3, 4, 5])
    }

    /// The changes of a transaction that an access leaves open (as
    /// `allowsUnsafeTransactions` permits) are observed when a later
    /// access commits it.
    @Test func aTransactionLeftOpenIsObservedWhenItCommits() throws {
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let dbQueue = try DatabaseQueue(configuration: configuration)
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(name TEXT)") }
        let (fetches, recorder, cancellable) = observePlayerCount(in: dbQueue)
        defer { cancellable.cancel() }
        #expect(recorder.waitForValue())
        try dbQueue.writeWithoutTransaction { db in
            try db.execute(sql: "BEGIN; INSERT INTO player VALUES ('Arthur')")
        }
        #expect(fetches.values == [0])
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "COMMIT") }
        #expect(fetches.values == [0, 1])
        #expect(recorder.waitForValue())
        #expect(recorder.values == [0, 1])
    }
}

import Dispatch
import Foundation
import Testing
import Trellis

// ValueObservationScheduler is a protocol, as in GRDB: the built-in
// schedulers are found by their static names wherever a
// `some ValueObservationScheduler` is expected, and applications may
// write their own.

/// A scheduler of the application: delivers on its queue, and counts the
/// deliveries it was given.
private struct QueueScheduler: ValueObservationScheduler {
    let queue: DispatchQueue
    let key: DispatchSpecificKey<String>
    let isImmediate: Bool
    let scheduled = ObservationLog<Void>()

    init(label: String, isImmediate: Bool = false) {
        queue = DispatchQueue(label: label)
        key = DispatchSpecificKey<String>()
        queue.setSpecific(key: key, value: label)
        self.isImmediate = isImmediate
    }

    var isCurrent: Bool { DispatchQueue.getSpecific(key: key) != nil }

    func immediateInitialValue() -> Bool { isImmediate }

    func schedule(_ action: @escaping @Sendable () -> Void) {
        scheduled.append(())
        queue.async(execute: action)
    }
}

/// A main actor scheduler that wrongly delivers off the main thread.
private struct OffMainScheduler: ValueObservationMainActorScheduler {
    let queue = DispatchQueue(label: "offMain")
    func immediateInitialValue() -> Bool { false }
    func schedule(_ action: @escaping @Sendable () -> Void) { queue.async(execute: action) }
}

private func isImmediate(_ scheduler: some ValueObservationScheduler) -> Bool {
    scheduler.immediateInitialValue()
}

private func isImmediateOnMainActor(_ scheduler: some ValueObservationMainActorScheduler) -> Bool {
    scheduler.immediateInitialValue()
}

@Suite struct ValueObservationSchedulerTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        return dbQueue
    }

    private func insertPlayer(in dbQueue: DatabaseQueue) async throws {
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
    }

    @Test func builtInSchedulersAndTheirInitialValue() {
        #expect(isImmediate(.immediate))
        #expect(!isImmediate(.task))
        #expect(!isImmediate(.async(onQueue: DispatchQueue(label: "test"))))
        #expect(isImmediateOnMainActor(.immediate))
        #expect(!isImmediateOnMainActor(.mainActor))
        let schedulers: [any ValueObservationScheduler] = [
            ImmediateValueObservationScheduler(), DelayedMainActorValueObservationScheduler(),
            TaskValueObservationScheduler(), AsyncValueObservationScheduler(queue: .main),
        ]
        #expect(schedulers.map { $0.immediateInitialValue() } == [true, false, false, false])
    }

    @Test func aSchedulerOfTheApplicationDeliversEverything() async throws {
        let dbQueue = try makeDatabase()
        let scheduler = QueueScheduler(label: "custom")
        let inbox = ObservationInbox<Bool>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: scheduler) { error in
                inbox.receive(.failure(error))
            } onChange: { _ in
                inbox.receive(scheduler.isCurrent)
            }
        #expect(try await inbox.nextValue() == true)
        try await insertPlayer(in: dbQueue)
        #expect(try await inbox.nextValue() == true)
        #expect(scheduler.scheduled.all.count == 2)
        cancellable.cancel()

        // Async sequences take a scheduler as well.
        let sequenceScheduler = QueueScheduler(label: "sequence")
        for try await count in ValueObservation.tracking(Player.fetchCount).values(in: dbQueue, scheduling: sequenceScheduler) {
            #expect(count == 1)
            break
        }
        #expect(sequenceScheduler.scheduled.all.count >= 1)
    }

    @Test func anImmediateSchedulerOfTheApplicationDeliversTheInitialValueBeforeStartReturns() async throws {
        let dbQueue = try makeDatabase()
        let scheduler = QueueScheduler(label: "immediate", isImmediate: true)
        let inbox = ObservationInbox<Int>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: scheduler) { error in
                inbox.receive(.failure(error))
            } onChange: { count in
                inbox.receive(count)
            }
        // Delivered already, on this thread, without the scheduler.
        #expect(try inbox.pending().map { try $0.get() } == [0])
        #expect(scheduler.scheduled.all.isEmpty)
        // The next values go through the scheduler.
        try await insertPlayer(in: dbQueue)
        #expect(try await inbox.nextValue() == 1)
        #expect(scheduler.scheduled.all.count == 1)
        cancellable.cancel()
    }

    @Test @MainActor func immediateErrorsComeBeforeStartReturns() throws {
        let dbQueue = try makeDatabase()
        let inbox = ObservationInbox<Int?>()
        let cancellable = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
            .start(in: dbQueue, scheduling: .immediate) { error in
                inbox.receive(.failure(error))
            } onChange: { value in
                inbox.receive(value)
            }
        let pending = inbox.pending()
        #expect(pending.count == 1)
        if case .failure(let error as DatabaseError) = pending.first {
            #expect(error.message == "no such table: missing")
        } else {
            Issue.record("expected a database error, got \(pending)")
        }
        cancellable.cancel()
    }

    @Test @MainActor func theMainActorSchedulerDeliversLaterOnTheMainActor() async throws {
        let dbQueue = try makeDatabase()
        let inbox = ObservationInbox<Bool>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: .mainActor) { error in
                inbox.receive(.failure(error))
            } onChange: { _ in
                inbox.receive(MainQueue.isCurrent)
            }
        // Not before `start` returns.
        #expect(inbox.pending().isEmpty)
        #expect(try await inbox.nextValue() == true)
        try await insertPlayer(in: dbQueue)
        #expect(try await inbox.nextValue() == true)
        cancellable.cancel()
    }

    @Test @MainActor func mainActorCallbacksRunOnTheMainActorWhateverTheScheduler() async throws {
        let dbQueue = try makeDatabase()
        let inbox = ObservationInbox<Bool>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: OffMainScheduler()) { error in
                inbox.receive(.failure(error))
            } onChange: { _ in
                MainActor.assertIsolated()
                inbox.receive(MainQueue.isCurrent)
            }
        #expect(try await inbox.nextValue() == true)
        cancellable.cancel()
    }

    @Test func taskSchedulersKeepTheOrderOfValues() async throws {
        let dbQueue = try makeDatabase()
        let inbox = ObservationInbox<Int>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: .task) { error in
                inbox.receive(.failure(error))
            } onChange: { count in
                inbox.receive(count)
            }
        #expect(try await inbox.nextValue() == 0)
        for _ in 0..<20 { try await insertPlayer(in: dbQueue) }
        var counts: [Int] = []
        for _ in 0..<20 { counts.append(try await inbox.nextValue()) }
        #expect(counts == Array(1...20))
        cancellable.cancel()
    }

    /// GRDB's `ValueObservationScheduler.task(priority:)`.
    @Test(arguments: [TaskPriority.background, .low, .medium, .high])
    func taskSchedulersWithAPriorityKeepTheOrderOfValuesOffTheMainQueue(priority: TaskPriority) async throws {
        let dbQueue = try makeDatabase()
        let inbox = ObservationInbox<Int>()
        let offMain = ObservationInbox<Bool>()
        let cancellable = ValueObservation.tracking(Player.fetchCount)
            .start(in: dbQueue, scheduling: .task(priority: priority)) { error in
                inbox.receive(.failure(error))
            } onChange: { count in
                offMain.receive(!MainQueue.isCurrent)
                inbox.receive(count)
            }
        #expect(try await inbox.nextValue() == 0)
        #expect(try await offMain.nextValue() == true)
        for _ in 0..<5 { try await insertPlayer(in: dbQueue) }
        var counts: [Int] = []
        for _ in 0..<5 { counts.append(try await inbox.nextValue()) }
        #expect(counts == Array(1...5))
        cancellable.cancel()
    }
}

private enum Player {
    static func fetchCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
    }
}

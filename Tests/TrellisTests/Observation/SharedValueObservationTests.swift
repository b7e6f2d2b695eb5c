import Dispatch
import Foundation
import Testing
import Trellis

// SharedValueObservation, with the schedulers of GRDB: by default on the
// main dispatch queue, or where `scheduling:` says.

@Suite struct SharedValueObservationTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)") }
        return dbQueue
    }

    private func insertPlayer(in dbQueue: DatabaseQueue) async throws {
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
    }

    private static func playerCount(_ db: Database) throws -> Int {
        try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM player") ?? 0
    }

    @Test func valuesAreDeliveredOnTheMainQueueByDefault() async throws {
        let dbQueue = try makeDatabase()
        let sharedObservation = ValueObservation.tracking(Self.playerCount).shared(in: dbQueue)
        let inbox = ObservationInbox<Bool>()
        let cancellable = sharedObservation.start { error in
            inbox.receive(.failure(error))
        } onChange: { _ in
            inbox.receive(MainQueue.isCurrent)
        }
        #expect(try await inbox.nextValue() == true)
        // The replayed value of a new subscriber too.
        let replayInbox = ObservationInbox<Bool>()
        let replayCancellable = sharedObservation.start { error in
            replayInbox.receive(.failure(error))
        } onChange: { _ in
            replayInbox.receive(MainQueue.isCurrent)
        }
        #expect(try await replayInbox.nextValue() == true)
        cancellable.cancel()
        replayCancellable.cancel()
    }

    @Test func taskSchedulingForAsyncSequences() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking(Self.playerCount)
        let sharedObservation = observation.shared(in: dbQueue, scheduling: .task)
        var counts: [Int] = []
        do {
            for try await count in sharedObservation.values() {
                counts.append(count)
                if counts.count == 2 { break }
                try await insertPlayer(in: dbQueue)
            }
        } catch {
            Issue.record(error)
        }
        #expect(counts == [0, 1])
    }

    @Test func aQueueSchedulerDeliversValuesAndReplaysOnItsQueue() async throws {
        let dbQueue = try makeDatabase()
        let key = DispatchSpecificKey<String>()
        let myQueue = DispatchQueue(label: "myQueue")
        myQueue.setSpecific(key: key, value: "myQueue")
        let sharedObservation = ValueObservation.tracking(Self.playerCount)
            .shared(in: dbQueue, scheduling: .async(onQueue: myQueue))
        let first = ObservationInbox<String?>()
        let firstCancellable = sharedObservation.start { error in
            first.receive(.failure(error))
        } onChange: { _ in
            first.receive(DispatchQueue.getSpecific(key: key))
        }
        #expect(try await first.nextValue() == "myQueue")
        let second = ObservationInbox<Int>()
        let secondCancellable = sharedObservation.start { error in
            second.receive(.failure(error))
        } onChange: { count in
            #expect(DispatchQueue.getSpecific(key: key) == "myQueue")
            second.receive(count)
        }
        #expect(try await second.nextValue() == 0)
        try await insertPlayer(in: dbQueue)
        #expect(try await first.nextValue() == "myQueue")
        #expect(try await second.nextValue() == 1)
        firstCancellable.cancel()
        secondCancellable.cancel()
    }

    @Test func anObservationLifetimeExtentKeepsObservingWithoutSubscribers() async throws {
        let dbQueue = try makeDatabase()
        let fetches = ObservationInbox<Void>()
        let sharedObservation = ValueObservation.tracking(Self.playerCount)
            .handleEvents(willFetch: { fetches.receive(()) })
            .shared(in: dbQueue, scheduling: .task, extent: .observationLifetime)
        let inbox = ObservationInbox<Int>()
        let cancellable = sharedObservation.start { error in
            inbox.receive(.failure(error))
        } onChange: { count in
            inbox.receive(count)
        }
        #expect(try await inbox.nextValue() == 0)
        try await fetches.nextValue()
        cancellable.cancel()

        // No subscriber: the change is fetched all the same, and the next
        // subscriber receives its value without another fetch.
        try await insertPlayer(in: dbQueue)
        try await fetches.nextValue()
        let next = ObservationInbox<Int>()
        let nextCancellable = sharedObservation.start { error in
            next.receive(.failure(error))
        } onChange: { count in
            next.receive(count)
        }
        #expect(try await next.nextValue() == 1)
        #expect(fetches.pending().isEmpty)
        nextCancellable.cancel()
    }

    @Test func aWhileObservedExtentStopsWithTheLastSubscriber() async throws {
        let dbQueue = try makeDatabase()
        let fetches = ObservationInbox<Void>()
        let sharedObservation = ValueObservation.tracking(Self.playerCount)
            .handleEvents(willFetch: { fetches.receive(()) })
            .shared(in: dbQueue, scheduling: .task, extent: .whileObserved)
        let inbox = ObservationInbox<Int>()
        let cancellable = sharedObservation.start { error in
            inbox.receive(.failure(error))
        } onChange: { count in
            inbox.receive(count)
        }
        #expect(try await inbox.nextValue() == 0)
        try await fetches.nextValue()
        cancellable.cancel()
        // The write fetches nothing (a database queue fetches within the
        // write, which has returned).
        try await insertPlayer(in: dbQueue)
        #expect(fetches.pending().isEmpty)
    }

    @Test func errorsReachEverySubscriber() async throws {
        let dbQueue = try makeDatabase()
        let sharedObservation = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
            .shared(in: dbQueue, scheduling: .task)
        let first = ObservationInbox<Int?>()
        let second = ObservationInbox<Int?>()
        let firstCancellable = sharedObservation.start { first.receive(.failure($0)) } onChange: { first.receive($0) }
        let secondCancellable = sharedObservation.start { second.receive(.failure($0)) } onChange: { second.receive($0) }
        #expect(try await first.nextError() is DatabaseError)
        #expect(try await second.nextError() is DatabaseError)
        firstCancellable.cancel()
        secondCancellable.cancel()
    }
}

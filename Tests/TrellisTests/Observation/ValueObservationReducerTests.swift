import Foundation
import Testing
import Trellis

// ValueObservation is generic over its reducer, as in GRDB: the types of
// observations name their reducers, generic code accepts any of them, and
// each run of an observation has its own reducer state.

private struct Player: Codable, FetchableRecord, MutablePersistableRecord, Identifiable, Equatable {
    var id: Int64?
    var name: String
    var score: Int = 0
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

/// The first value of any observation: generic code over reducers.
private func firstValue<Reducer: ValueReducer>(
    of observation: ValueObservation<Reducer>,
    in reader: some DatabaseReader) async throws -> Reducer.Value?
{
    for try await value in observation.values(in: reader) {
        return value
    }
    return nil
}

@Suite struct ValueObservationReducerTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull().defaults(to: 0)
            }
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            var player = Player(name: "Arthur", score: 10)
            try player.insert(db)
        }
        return dbQueue
    }

    @Test func observationTypesNameTheirReducers() async throws {
        let dbQueue = try makeDatabase()
        let players: ValueObservation<ValueReducers.Fetch<[Player]>> = ValueObservation.tracking { db in
            try Player.fetchAll(db)
        }
        let names: ValueObservation<ValueReducers.Map<ValueReducers.Fetch<[Player]>, [String]>> = players
            .map { players in players.map(\.name) }
        let distinctNames: ValueObservation<ValueReducers.RemoveDuplicates<ValueReducers.Map<ValueReducers.Fetch<[Player]>, [String]>>> = names
            .removeDuplicates()
        let tracedNames: ValueObservation<ValueReducers.Trace<ValueReducers.RemoveDuplicates<ValueReducers.Map<ValueReducers.Fetch<[Player]>, [String]>>>> = distinctNames
            .handleEvents()
        let count: ValueObservation<ValueReducers.Fetch<Int>> = ValueObservation.trackingConstantRegion(Player.fetchCount)
        let printedCount: ValueObservation<ValueReducers.Trace<ValueReducers.Fetch<Int>>> = count
            .print("count", to: NullStream())
        let player: ValueObservation<ValueReducers.Fetch<Player?>> = ValueObservation.tracking(
            region: Player.all(), Table("team"),
            fetch: { db in try Player.fetchOne(db, id: 1) })
        let scores: ValueObservation<ValueReducers.Fetch<[Int]>> = ValueObservation.tracking(regions: [Player.all()]) { db in
            try Int.fetchAll(db, sql: "SELECT score FROM player")
        }

        #expect(try await firstValue(of: players, in: dbQueue)?.map(\.name) == ["Arthur"])
        #expect(try await firstValue(of: names, in: dbQueue) == ["Arthur"])
        #expect(try await firstValue(of: distinctNames, in: dbQueue) == ["Arthur"])
        #expect(try await firstValue(of: tracedNames, in: dbQueue) == ["Arthur"])
        #expect(try await firstValue(of: count, in: dbQueue) == 1)
        #expect(try await firstValue(of: printedCount, in: dbQueue) == 1)
        #expect(try await firstValue(of: player, in: dbQueue)??.score == 10)
        #expect(try await firstValue(of: scores, in: dbQueue) == [10])
    }

    @Test func eachRunHasItsOwnReducerState() async throws {
        let dbQueue = try makeDatabase()
        // Without its own state, the second run would take its first value
        // for a duplicate of the last value of the first run.
        let observation = ValueObservation.tracking(Player.fetchCount).removeDuplicates()
        #expect(try await firstValue(of: observation, in: dbQueue) == 1)
        #expect(try await firstValue(of: observation, in: dbQueue) == 1)

        let first = ObservationInbox<Int>()
        let second = ObservationInbox<Int>()
        let firstCancellable = observation.start(in: dbQueue, scheduling: .task) { first.receive(.failure($0)) } onChange: { first.receive($0) }
        let secondCancellable = observation.start(in: dbQueue, scheduling: .task) { second.receive(.failure($0)) } onChange: { second.receive($0) }
        #expect(try await first.nextValue() == 1)
        #expect(try await second.nextValue() == 1)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(try await first.nextValue() == 2)
        #expect(try await second.nextValue() == 2)
        firstCancellable.cancel()
        secondCancellable.cancel()
    }

    @Test func anOtherRegionOfTheVariadicListTriggersAFetch() async throws {
        let dbQueue = try makeDatabase()
        let observation = ValueObservation.tracking(
            region: Player.all(), Table("team"),
            fetch: { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM team") ?? 0 })
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 0)
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO team DEFAULT VALUES") }
        #expect(try await iterator.next() == 1)
    }

    @Test func aThrowingMapEndsTheObservation() async throws {
        struct Rejected: Error {}
        let dbQueue = try makeDatabase()
        let observation = ValueObservation
            .tracking(Player.fetchCount)
            .map { count -> Int in
                if count > 1 { throw Rejected() }
                return count
            }
        var values: [Int] = []
        do {
            for try await count in observation.values(in: dbQueue) {
                values.append(count)
                try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
            }
            Issue.record("expected an error")
        } catch is Rejected {}
        #expect(values == [1])
    }

    @Test func didReceiveValueSeesTheValuesOfItsPlaceInTheChain() async throws {
        let dbQueue = try makeDatabase()
        let counts = ObservationLog<Int>()
        let maxima = ObservationLog<Int>()
        let observation = ValueObservation
            .tracking { db in try Int.fetchAll(db, sql: "SELECT score FROM player") }
            .handleEvents(didReceiveValue: { counts.append($0.count) })
            .map { $0.max() ?? 0 }
            .removeDuplicates()
            .handleEvents(didReceiveValue: { maxima.append($0) })
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 10)
        // The maximum does not change: the first events see the new
        // scores, the last ones nothing.
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Barbara', 5)") }
        try await dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name, score) VALUES ('Craig', 20)") }
        #expect(try await iterator.next() == 20)
        #expect(counts.all == [1, 2, 3])
        #expect(maxima.all == [10, 20])
    }

    @Test func printTellsTheRegionBeforeTheMappedValue() async throws {
        let dbQueue = try makeDatabase()
        let output = LinesStream()
        let observation = ValueObservation
            .tracking(Player.fetchCount)
            .map { $0 * 10 }
            .print("tens", to: output)
        #expect(try await firstValue(of: observation, in: dbQueue) == 10)
        #expect(output.lines.prefix(4) == ["tens: start", "tens: fetch", "tens: tracked region: player(*)", "tens: value: 10"])
    }
}

/// A stream that drops what it is given.
private struct NullStream: TextOutputStream {
    mutating func write(_ string: String) {}
}

/// A stream that keeps the lines it is given.
private final class LinesStream: TextOutputStream, @unchecked Sendable {
    private let lock = NSLock()
    private var text = ""
    var lines: [String] { lock.withLock { text.split(separator: "\n").map(String.init) } }
    func write(_ string: String) { lock.withLock { text += string } }
}

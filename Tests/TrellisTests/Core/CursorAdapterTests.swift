import Testing
import Trellis

/// Counts how its elements are read, to check that adapters forward
/// `forEach` to their base instead of calling `next()`.
private final class CountingCursor: Cursor {
    private var elements: [Int]
    private(set) var nextCalls = 0
    private(set) var forEachCalls = 0

    init(_ elements: [Int]) { self.elements = elements }

    func next() throws -> Int? {
        nextCalls += 1
        return elements.isEmpty ? nil : elements.removeFirst()
    }

    func forEach(_ body: (Int) throws -> Void) throws {
        forEachCalls += 1
        while !elements.isEmpty { try body(elements.removeFirst()) }
    }
}

/// The named cursor types of GRDB that `map`, `filter` and friends return.
@Suite struct CursorAdapterTests {
    @Test func adaptersHaveTheirNamedTypes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let sql = "SELECT 1 UNION ALL SELECT 2 UNION ALL SELECT 3 UNION ALL SELECT 4"
            let doubled: MapCursor<FastDatabaseValueCursor<Int>, Int> = try Int.fetchCursor(db, sql: sql).map { $0 * 2 }
            #expect(try Array(doubled) == [2, 4, 6, 8])
            let evens: FilterCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).filter { $0 % 2 == 0 }
            #expect(try Array(evens) == [2, 4])
            let enumerated: EnumeratedCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).enumerated()
            #expect(try Array(enumerated).map { [$0.offset, $0.element] } == [[0, 1], [1, 2], [2, 3], [3, 4]])
            let prefix: PrefixCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).prefix(2)
            #expect(try Array(prefix) == [1, 2])
            let dropped: DropFirstCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).dropFirst(3)
            #expect(try Array(dropped) == [4])
            let dropWhile: DropWhileCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).drop { $0 < 3 }
            #expect(try Array(dropWhile) == [3, 4])
            let prefixWhile: PrefixWhileCursor<FastDatabaseValueCursor<Int>> = try Int.fetchCursor(db, sql: sql).prefix { $0 < 3 }
            #expect(try Array(prefixWhile) == [1, 2])
            let rows = try Row.fetchCursor(db, sql: "SELECT 'a' AS name UNION ALL SELECT 'b'")
            let names: MapCursor<RowCursor, String> = rows.map { $0["name"] }
            #expect(try Array(names) == ["a", "b"])
        }
    }

    @Test func flattenCursorsJoinCursorsInOrder() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let flat = try Int.fetchCursor(db, sql: "SELECT 1 UNION ALL SELECT 3").flatMap { start in
                AnyCursor([start, start + 1])
            }
            let typed: FlattenCursor<MapCursor<FastDatabaseValueCursor<Int>, AnyCursor<Int>>> = flat
            #expect(try Array(typed) == [1, 2, 3, 4])
            let joined: FlattenCursor<AnyCursor<AnyCursor<Int>>> = AnyCursor([AnyCursor([1]), AnyCursor([]), AnyCursor([2, 3])]).joined()
            #expect(try Array(joined) == [1, 2, 3])
            let fromSequence = [1, 2].flatMap { _ in try Int.fetchCursor(db, sql: "SELECT 9") }
            #expect(try Array(fromSequence) == [9, 9])
        }
    }

    @Test func mapFilterAndEnumeratedForwardForEach() throws {
        let base = CountingCursor([1, 2, 3, 4])
        var seen: [String] = []
        try base.filter { $0 != 2 }.map { $0 * 10 }.enumerated().forEach { seen.append("\($0.offset):\($0.element)") }
        #expect(seen == ["0:10", "1:30", "2:40"])
        #expect(base.forEachCalls == 1)
        #expect(base.nextCalls == 0)
    }

    @Test func errorsOfTransformsStopTheIteration() throws {
        struct Failure: Error {}
        let cursor = CountingCursor([1, 2, 3]).map { value -> Int in
            if value == 2 { throw Failure() }
            return value
        }
        var seen: [Int] = []
        #expect(throws: Failure.self) { try cursor.forEach { seen.append($0) } }
        #expect(seen == [1])
    }
}

import Foundation
import Testing
import Trellis

/// Mistakes that a caller can make with the core API, each of which once
/// stopped or hung the process: they now throw, or read as documented.
@Suite struct MisuseTests {
    @Test func sqlWithANulCharacterRunsUpToItOrThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // SQLite stops at a NUL: a trailing one is harmless.
            #expect(try Int.fetchOne(db, sql: "SELECT 1\u{0}") == 1)
            try db.execute(sql: "CREATE TABLE t(a);\u{0}\u{0} \n")
            // Text after it would never run: an error, not an endless loop.
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO t VALUES (1);\u{0}DROP TABLE t")
            }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            #expect(error?.message?.contains("NUL") == true)
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "\u{0}SELECT 1") }
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") == 0)
        }
    }

    @Test func valuesOutOfTheRangeOfARowReadAsNull() throws {
        let stored: Row = ["a": 1, "b": nil]
        #expect(stored.hasNull(atIndex: 0) == false)
        #expect(stored.hasNull(atIndex: 1))
        #expect(stored.hasNull(atIndex: 5))
        #expect(stored.hasNull(atIndex: -1))
        #expect(stored.databaseValue(atIndex: 5) == .null)
        #expect(stored.databaseValue(atIndex: -1) == .null)

        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT 1 AS a")
            while let row = try rows.next() {
                #expect(row.databaseValue(atIndex: 0) == 1.databaseValue)
                #expect(row.hasNull(atIndex: 1 << 40))
                #expect(row.databaseValue(atIndex: 1 << 40) == .null)
                #expect(row.databaseValue(atIndex: -3) == .null)
            }
        }
    }

    @Test func adaptersOfHugeRangesAreRefusedWhenUsed() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT 1, 2", adapter: RangeRowAdapter(0...Int.max))
            }
            let adapters = splittingRowAdapters(columnCounts: [Int.max, 5])
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT 1, 2", adapter: ScopeAdapter(base: adapters[0], scopes: ["rest": adapters[1]]))
            }
            let fitting = splittingRowAdapters(columnCounts: [1])
            let row = try #require(try Row.fetchOne(
                db, sql: "SELECT 1, 2", adapter: ScopeAdapter(base: fitting[0], scopes: ["rest": fitting[1]])))
            #expect(row.count == 1)
            #expect(row.scopes["rest"]?.databaseValue(atIndex: 0) == 2.databaseValue)
        }
    }

    @Test func aBackupOfZeroPagesPerStepThrows() throws {
        let source = try DatabaseQueue()
        try source.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let destination = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) { try source.backup(to: destination, pagesPerStep: 0) }
        #expect(error?.resultCode == .SQLITE_MISUSE)
        try source.backup(to: destination, pagesPerStep: 1)
        #expect(try destination.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
    }

    @Test func aFunctionWithTooManyArgumentsIsNotRegistered() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            db.add(function: DatabaseFunction("f", argumentCount: 1 << 40) { _ in 1 })
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT f(1)") }
        }
    }

    @Test func aConcurrentReadFromAWriteNestedInAReadFails() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MisuseTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var configuration = Configuration()
        configuration.maximumReaderCount = 1
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path, configuration: configuration)
        // The failure is reported at once, on this thread.
        nonisolated(unsafe) var outcome: String?
        try dbPool.read { _ in
            try dbPool.writeWithoutTransaction { _ in
                dbPool.asyncConcurrentRead { result in
                    outcome = if case .failure(let error) = result { "\(error)" } else { "read" }
                }
            }
        }
        #expect(outcome?.contains("nested in a read") == true)
    }

    @Test func aLimitPerParentThatReachesPastIntMaxHasNoUpperBound() throws {
        struct Author: TableRecord, FetchableRecord, Decodable {
            static let books = hasMany(Book.self)
            var id: Int64
        }
        struct Book: TableRecord, FetchableRecord, Decodable {
            var id: Int64
            var authorId: Int64
        }
        struct AuthorInfo: FetchableRecord, Decodable {
            var author: Author
            var books: [Book]
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY);
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1), (2);
                INSERT INTO book VALUES (1, 1), (2, 1), (3, 1), (4, 2);
                """)
            let infos = try Author
                .including(all: Author.books.order(Column("id")).limit(Int.max, offset: 1))
                .order(Column("id"))
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.books.map(\.id) } == [[2, 3], []])
        }
    }


    @Test func aStatementKeptPastItsQueueReportsTheClosedConnection() throws {
        var statement: Statement?
        weak var connection: Database?
        do {
            let dbQueue = try DatabaseQueue()
            try dbQueue.read { db in
                connection = db
                statement = try db.makeStatement(sql: "SELECT 1")
                #expect(try Int.fetchOne(#require(statement)) == 1)
            }
        }
        let error = #expect(throws: DatabaseError.self) { try Row.fetchAll(#require(statement)) }
        #expect(error?.message?.contains("closed") == true)
        statement = nil
        // The statement kept its connection alive, and nothing else does.
        #expect(connection == nil)
    }

    @Test func aQueueReleasedWithCachedStatementsReleasesItsConnection() throws {
        weak var connection: Database?
        do {
            let dbQueue = try DatabaseQueue()
            try dbQueue.write { db in
                connection = db
                try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY)")
                _ = try Row.fetchAll(db.cachedStatement(sql: "SELECT * FROM t"))
                _ = try Row.fetchOne(db, sql: "SELECT * FROM t WHERE id = ?", arguments: [1])
            }
            #expect(connection != nil)
        }
        #expect(connection == nil)
    }

    @Test func aRowKeptWithoutCopyReadsNullOnceItsStatementIsGone() throws {
        struct Keeper: FetchableRecord {
            var row: Row
            init(row: Row) { self.row = row }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur')")
        }
        let keepers = try dbQueue.read { db in try Keeper.fetchAll(db, sql: "SELECT * FROM player") }
        try dbQueue.close()
        // The statement is finalized: the row keeps its columns, not the
        // values of a statement that no longer exists.
        #expect(keepers[0].row.columnNames == ["id", "name"])
        #expect(keepers[0].row["name"] as String? == nil)
        #expect(keepers[0].row.description == "[id:NULL name:NULL]")
    }


    @Test func datesFarFromTodayAreStoredAsNumbersAndReadBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE event(date)")
            // Milliseconds read as seconds: a date in the year 55 000.
            let far = try #require(try Date.fetchOne(db, sql: "SELECT 1709633730000"))
            try db.execute(sql: "INSERT INTO event VALUES (?)", arguments: [far])
            #expect(try Date.fetchOne(db, sql: "SELECT date FROM event") == far)
            let huge = try #require(try Date.fetchOne(db, sql: "SELECT 1e300"))
            #expect(huge.databaseValue == 1e300.databaseValue)
            // Not a number: SQLite stores NULL.
            #expect(try Bool.fetchOne(db, sql: "SELECT ? IS NULL", arguments: [Date(timeIntervalSince1970: .nan)]) == true)
            // Dates of the years 0000 to 9999 are text, as before.
            #expect(Date(timeIntervalSince1970: 0).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        }
    }

    @Test func cancellingATaskInterruptsItsRunningStatement() async throws {
        let dbQueue = try DatabaseQueue()
        let endless = "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT x FROM c ORDER BY x DESC LIMIT 1"
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let started = StartSignal()
        let task = Task {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                started.signal()
                return try Int.fetchOne(db, sql: endless)
            }
        }
        // Cancelled once the write runs, so that cancelling interrupts the
        // access instead of preventing it.
        #expect(await started.wait())
        task.cancel()
        await #expect(throws: CancellationError.self) { try await task.value }
        // The write rolled back, and the connection serves the next access.
        #expect(try await dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func aRegionObservationThatKeepsWritingInItsRegionEnds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT)") }
        nonisolated(unsafe) var changeCount = 0
        nonisolated(unsafe) var failure: (any Error)?
        let cancellable = DatabaseRegionObservation(tracking: Table("player")).start(in: dbQueue) { error in
            failure = error
        } onChange: { db in
            changeCount += 1
            try? db.execute(sql: "INSERT INTO player (name) VALUES ('echo')")
        }
        defer { cancellable.cancel() }
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')") }
        #expect(changeCount == 100)
        #expect("\(failure.map { "\($0)" } ?? "")".contains("100 times in a row"))
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO player (name) VALUES ('Barbara')") }
        #expect(changeCount == 100)
    }

    @Test func expressionsTooDeepForSQLiteThrowBeforeTheirSQLIsGenerated() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY)") }
        try dbQueue.read { (db: Database) throws in
            var request = Table("player").select(Column("id"))
            for _ in 0..<2000 {
                request = Table("player").select(Column("id")).filter(request.contains(Column("id")))
            }
            let error = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, request) }
            #expect(error?.message?.contains("Expression tree is too large") == true)
            var literal: SQL = "1"
            for _ in 0..<5000 { literal = "(\(literal) + \(1))" }
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, SQLRequest<Int>("SELECT \(literal)")) }
            var shallow: SQL = "1"
            for _ in 0..<50 { shallow = "(\(shallow) + \(1))" }
            #expect(try Int.fetchOne(db, SQLRequest<Int>("SELECT \(shallow)")) == 51)
        }
    }


    @Test func nestedContainersOfPrefetchedRowsOutliveTheirCreation() throws {
        struct Author: TableRecord, Decodable {
            static let books = hasMany(Book.self)
            var id: Int64
        }
        struct Book: TableRecord, Decodable {
            var id: Int64
            var authorId: Int64
            var title: String
        }
        // Decodes the books by hand, keeping every container before reading.
        struct AuthorTitles: FetchableRecord, Decodable {
            var titles: [String]
            enum CodingKeys: String, CodingKey { case books }
            enum BookKeys: String, CodingKey { case title }
            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                var books = try container.nestedUnkeyedContainer(forKey: .books)
                var bookContainers: [KeyedDecodingContainer<BookKeys>] = []
                while !books.isAtEnd { bookContainers.append(try books.nestedContainer(keyedBy: BookKeys.self)) }
                titles = try bookContainers.map { try $0.decode(String.self, forKey: .title) }
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author(id INTEGER PRIMARY KEY);
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                INSERT INTO author VALUES (1), (2);
                INSERT INTO book VALUES (1, 1, 'Les Misérables'), (2, 1, 'Notre-Dame'), (3, 2, 'Germinal');
                """)
            let infos = try Author.including(all: Author.books.order(Column("id")))
                .order(Column("id"))
                .asRequest(of: AuthorTitles.self)
                .fetchAll(db)
            #expect(infos.map(\.titles) == [["Les Misérables", "Notre-Dame"], ["Germinal"]])
        }
    }

    @Test func aBarrierFromAReadOfTheSamePoolThrows() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("MisuseTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let dbPool = try DatabasePool(path: directory.appendingPathComponent("db.sqlite").path)
        // Several reads first: the nested read is then not the first reader.
        for _ in 0..<3 { _ = try dbPool.read { _ in 1 } }
        for _ in 0..<3 {
            #expect(throws: DatabaseError.self) {
                try dbPool.read { _ in try dbPool.barrierWriteWithoutTransaction { _ in } }
            }
        }
        try dbPool.barrierWriteWithoutTransaction { db in try db.execute(sql: "CREATE TABLE t(a)") }
    }

    @Test func connectionsOnASerialTargetQueueNestAndRunFromIt() throws {
        let target = DispatchQueue(label: "MisuseTests.target")
        var configuration = Configuration()
        configuration.targetQueue = target
        let first = try DatabaseQueue(configuration: configuration)
        let second = try DatabaseQueue(configuration: configuration)
        // From an access of another connection that shares the queue.
        #expect(try first.read { _ in try second.read { try Int.fetchOne($0, sql: "SELECT 8") } } == 8)
        // From work of the target queue itself.
        #expect(try target.sync { try first.read { try Int.fetchOne($0, sql: "SELECT 7") } } == 7)
    }


    @Test func pathsThatCanNotNameTheFileAreRefused() throws {
        #expect(throws: DatabaseError.self) { try DatabaseQueue(path: "a\u{0}b.sqlite") }
        for path in ["", ":memory:", "file::memory:?cache=shared", "file:shared?mode=memory&cache=shared"] {
            let error = #expect(throws: DatabaseError.self) { try DatabasePool(path: path) }
            #expect(error?.message?.contains("needs a database file") == true)
        }
    }

}

/// Tells a test that something started on another thread.
private final class StartSignal: @unchecked Sendable {
    // Guarded by `lock`.
    private let lock = NSLock()
    private var isSignaled = false

    func signal() {
        lock.withLock { isSignaled = true }
    }

    /// Waits, without blocking the thread, until signaled; false after a
    /// timeout. The timeout is long: the whole suite runs in parallel, and
    /// on a machine of two cores the signaling task may wait many seconds
    /// for a thread (10 seconds were seen to fail).
    func wait(seconds: Double = 120) async -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !lock.withLock({ isSignaled }) {
            if Date() > deadline { return false }
            try? await Task.sleep(nanoseconds: 1_000_000)
        }
        return true
    }
}

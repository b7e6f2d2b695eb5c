import Foundation
import Testing
import Trellis

@Suite struct CoreDatabaseQueueTests {
    @Test func aThrownErrorInWriteRollsBack() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a INTEGER)") }
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                throw Failure()
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func readForbidsWrites() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a INTEGER)") }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        try dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test func reentrantAccessThrowsInsteadOfDeadlocking() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { _ in try dbQueue.read { _ in 1 } }
        }
        #expect(error?.message?.contains("not reentrant") == true)
    }

    @Test func reentrantAccessFromAnAsynchronousAccessThrows() async throws {
        let dbQueue = try DatabaseQueue()
        let message: String? = await withCheckedContinuation { continuation in
            dbQueue.asyncWriteWithoutTransaction { _ in
                do {
                    _ = try dbQueue.read { _ in 1 }
                    continuation.resume(returning: nil)
                } catch {
                    continuation.resume(returning: (error as? DatabaseError)?.message)
                }
            }
        }
        #expect(message?.contains("not reentrant") == true)
    }

    @Test func anAccessOfAnotherConnectionInsideAnAccessIsAllowed() throws {
        let first = try DatabaseQueue()
        let second = try DatabaseQueue()
        let value = try first.write { _ in try second.read { try Int.fetchOne($0, sql: "SELECT 42") } }
        #expect(value == 42)
    }

    @Test func aSynchronousAccessWaitsForTheAsynchronousOnesAskedBefore() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a INTEGER)") }
        for i in 1...50 {
            dbQueue.asyncWriteWithoutTransaction { db in
                Thread.sleep(forTimeInterval: 0.0001)
                try? db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [i])
            }
            // Each read comes after the write asked for just before it.
            #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT MAX(a) FROM t") } == i)
        }
    }

    @Test func synchronousAccessesOfManyThreadsNeverOverlap() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE counter(value INTEGER); INSERT INTO counter VALUES (0)")
        }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<50 {
                // A read then a write of the same value, in one access: a
                // lost update would show if two accesses overlapped.
                try? dbQueue.writeWithoutTransaction { db in
                    let value = try Int.fetchOne(db, sql: "SELECT value FROM counter") ?? 0
                    try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                }
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT value FROM counter") } == 400)
    }

    @Test func closingFromAnAccessThrowsInsteadOfDeadlocking() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("close-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue()
        let queueError = #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { _ in try dbQueue.close() }
        }
        #expect(queueError?.message == "close() can not be called from an access of the connection it waits for")
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        let dbPool = try DatabasePool(path: path)
        #expect(throws: DatabaseError.self) {
            try dbPool.read { _ in try dbPool.close() }
        }
        // Nothing was closed.
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        try dbPool.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try dbPool.close()
    }

    @Test func aClosedQueueThrows() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        let error = #expect(throws: DatabaseError.self) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } }
        #expect(error?.message?.contains("closed") == true)
    }

    @Test func namedInMemoryDatabasesAreShared() throws {
        let name = "shared-\(UUID().uuidString)"
        let first = try DatabaseQueue(named: name)
        let second = try DatabaseQueue(named: name)
        try first.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (42)") }
        #expect(try second.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 42)
        #expect(try DatabaseQueue().read { try $0.tableExists("t") } == false)
    }

    @Test func asyncAccessesWork() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        let count = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0 }
        #expect(count == 1)
        let value = try await dbQueue.writeWithoutTransaction { db in try Int.fetchOne(db, sql: "SELECT a FROM t") ?? 0 }
        #expect(value == 1)
    }

    @Test func aCancelledTaskRollsBackItsWrite() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("cancel-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        for writer in [try DatabaseQueue() as any DatabaseWriter, try DatabasePool(path: path)] {
            try await writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
            let (started, startedContinuation) = AsyncStream.makeStream(of: Void.self)
            let proceed = DispatchSemaphore(value: 0)
            let task = Task {
                try await writer.write { db in
                    try db.execute(sql: "INSERT INTO t VALUES (1)")
                    startedContinuation.yield()
                    // Waits on the connection's queue, not on the task pool.
                    proceed.wait()
                    try db.execute(sql: "INSERT INTO t VALUES (2)")
                }
            }
            for await _ in started { break }
            task.cancel()
            proceed.signal()
            await #expect(throws: CancellationError.self) { try await task.value }
            #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
            // A cancelled task does not start an access.
            let cancelledRead = Task {
                withUnsafeCurrentTask { $0?.cancel() }
                return try await writer.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
            }
            await #expect(throws: CancellationError.self) { try await cancelledRead.value }
            // The connection is still usable.
            try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (3)") }
            #expect(try await writer.read { db in try Int.fetchAll(db, sql: "SELECT a FROM t") } == [3])
        }
    }

    @Test func concurrentWritesNeverInterleave() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE counter(value INTEGER); INSERT INTO counter VALUES (0)") }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<50 {
                group.addTask {
                    try await dbQueue.write { db in
                        let value = try Int.fetchOne(db, sql: "SELECT value FROM counter") ?? 0
                        Thread.sleep(forTimeInterval: 0.0005)
                        try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                    }
                }
                group.addTask {
                    // A synchronous access from another thread.
                    try await Task.detached {
                        try dbQueue.write { db in
                            let value = try Int.fetchOne(db, sql: "SELECT value FROM counter") ?? 0
                            try db.execute(sql: "UPDATE counter SET value = ?", arguments: [value + 1])
                        }
                    }.value
                }
            }
            try await group.waitForAll()
        }
        let value = try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT value FROM counter") }
        #expect(value == 100)
    }

    @Test func writeWithoutTransactionRefusesAnOpenTransaction() throws {
        let dbQueue = try DatabaseQueue()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.writeWithoutTransaction { db in try db.execute(sql: "BEGIN") }
        }
        #expect(error?.message?.contains("left opened") == true)
        #expect(dbQueue.inDatabase { $0.isInsideTransaction } == false)
    }
}

@Suite struct CoreErrorTests {
    @Test func errorsAreClearAndTheConnectionStaysUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(id INTEGER PRIMARY KEY, name TEXT NOT NULL)")
            let syntax = #expect(throws: DatabaseError.self) { try db.execute(sql: "SELEKT 1") }
            #expect(syntax?.resultCode == .SQLITE_ERROR)
            #expect(syntax?.description.contains("syntax error") == true)
            let notNull = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (name) VALUES (NULL)") }
            #expect(notNull?.extendedResultCode == .SQLITE_CONSTRAINT_NOTNULL)
            let count = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["a", "b"]) }
            #expect(count?.message?.contains("wrong number of statement arguments") == true)
            let missing = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO t (name) VALUES (:name)", arguments: ["other": 1]) }
            #expect(missing?.message?.contains("name") == true)
            try db.execute(sql: "INSERT INTO t (name) VALUES (?)", arguments: ["ok"])
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t") == ["ok"])
        }
    }

    @Test func constraintErrorsMatchTheirCodes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE p(id INTEGER PRIMARY KEY); CREATE TABLE c(pid INTEGER REFERENCES p(id))")
            do {
                try db.execute(sql: "INSERT INTO c VALUES (1)")
                Issue.record("expected an error")
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                // expected
            }
        }
    }

    @Test func argumentsAppearInDescriptionsOnlyWhenPublic() throws {
        var configuration = Configuration()
        configuration.publicStatementArguments = true
        let verbose = try DatabaseQueue(configuration: configuration)
        let error = #expect(throws: DatabaseError.self) {
            try verbose.write { db in try db.execute(sql: "SELECT * FROM missing WHERE a = ?", arguments: ["secret"]) }
        }
        #expect(error?.description.contains("no such table: missing") == true)
        let quiet = try DatabaseQueue()
        try quiet.write { db in try db.execute(sql: "CREATE TABLE t(a TEXT UNIQUE); INSERT INTO t VALUES ('secret')") }
        let quietError = #expect(throws: DatabaseError.self) {
            try quiet.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"]) }
        }
        #expect(quietError?.description.contains("secret") == false)
        #expect(quietError?.arguments == ["secret"])
        #expect(quietError?.expandedDescription.hasSuffix(#"with arguments ["secret"]"#) == true)
        try verbose.write { db in try db.execute(sql: "CREATE TABLE t(a TEXT UNIQUE); INSERT INTO t VALUES ('secret')") }
        let verboseError = #expect(throws: DatabaseError.self) {
            try verbose.write { db in try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"]) }
        }
        #expect(verboseError?.description.contains(#"with arguments ["secret"]"#) == true)
        #expect(verboseError?.arguments == ["secret"])
    }

    @Test func aReadOnlyDatabaseRefusesWrites() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("ro-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try DatabaseQueue(path: path).write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        var configuration = Configuration()
        configuration.readonly = true
        let readonly = try DatabaseQueue(path: path, configuration: configuration)
        let error = #expect(throws: DatabaseError.self) {
            try readonly.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
        #expect(try readonly.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func aFileThatIsNotADatabaseIsRefused() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("text-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try Data(String(repeating: "not a database ", count: 200).utf8).write(to: URL(fileURLWithPath: path))
        let error = #expect(throws: DatabaseError.self) { try DatabaseQueue(path: path) }
        #expect(error?.resultCode == .SQLITE_NOTADB)
    }
}

@Suite struct CoreValueTests {
    @Test func integersOutOfRangeThrowWhenFetched() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try UInt8.fetchOne(db, sql: "SELECT 255") == 255)
            let error = #expect(throws: RowDecodingError.self) { try UInt8.fetchOne(db, sql: "SELECT 256") }
            #expect(error?.description.contains("UInt8") == true)
            #expect(throws: RowDecodingError.self) { try Int8.fetchAll(db, sql: "SELECT -129") }
            #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "SELECT NULL") }
            #expect(try Int?.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 1") == [nil, 1])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 300 AS big, NULL AS absent"))
            #expect(throws: RowDecodingError.self) { try row.decode(UInt8.self, forColumn: "big") }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "absent") }
            #expect(throws: RowDecodingError.self) { try row.decode(Int.self, forColumn: "missing") }
        }
    }

    @Test func standardAndFoundationValuesRoundTrip() throws {
        let dbQueue = try DatabaseQueue()
        let date = Date(timeIntervalSince1970: 1_700_000_000.123)
        let uuid = UUID()
        let url = URL(string: "https://example.com/a?b=c")!
        let decimal = Decimal(string: "12345.6789")!
        enum Color: String, DatabaseValueConvertible { case red, green }
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE v(b, i, d, f, s, data, date, uuid, url, decimal, color, comps)")
            var components = DateComponents()
            components.year = 2026; components.month = 11; components.day = 22
            try db.execute(sql: "INSERT INTO v VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", arguments: [
                true, Int64.max, 1.5, Float(2.5), "héllo", Data([0, 1, 2]), date, uuid, url, decimal, Color.green,
                DatabaseDateComponents(components, format: .YMD)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM v"))
            #expect(row["b"] as Bool == true)
            #expect(row["i"] as Int64 == .max)
            #expect(row["d"] as Double == 1.5)
            #expect(row["f"] as Float == 2.5)
            #expect(row["s"] as String == "héllo")
            #expect(row["data"] as Data == Data([0, 1, 2]))
            #expect(abs((row["date"] as Date).timeIntervalSince(date)) < 0.001)
            #expect(row["uuid"] as UUID == uuid)
            #expect(row["url"] as URL == url)
            #expect(row["decimal"] as Decimal == decimal)
            #expect(row["color"] as Color == .green)
            #expect((row["comps"] as DatabaseDateComponents).dateComponents.day == 22)
            #expect(try String.fetchOne(db, sql: "SELECT date FROM v") == "2023-11-14 22:13:20.123")
        }
    }

    @Test func numbersAndDecimalsFollowGRDBsTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            // All three read integers, doubles and decimal strings.
            #expect(try NSNumber.fetchOne(db, sql: "SELECT 10")?.intValue == 10)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT 1.23")?.doubleValue == 1.23)
            #expect(try Decimal.fetchOne(db, sql: "SELECT -100") == Decimal(-100))
            let fromText = try #require(try NSNumber.fetchOne(db, sql: "SELECT '10'"))
            #expect(fromText is NSDecimalNumber)
            #expect(fromText.intValue == 10)
            #expect(try NSDecimalNumber.fetchOne(db, sql: "SELECT '1.23'") == NSDecimalNumber(string: "1.23"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '-100'") == Decimal(-100))
            #expect(throws: RowDecodingError.self) { try NSNumber.fetchOne(db, sql: "SELECT 'ten'") }
            #expect(try NSNumber.fetchOne(db, sql: "SELECT NULL") == nil)

            // Numbers write integers and doubles; decimals write text.
            try db.execute(sql: "CREATE TABLE transfer (amount)")
            let amounts: [any DatabaseValueConvertible] = [
                NSNumber(value: 10), NSNumber(value: 10.0), NSNumber(value: true), NSNumber(value: UInt64.max),
                NSDecimalNumber(string: "10.0"), NSDecimalNumber(string: "10.5"), NSDecimalNumber(string: "-9223372036854775808"),
                Decimal(10), Decimal(string: "10.5")!,
            ]
            for amount in amounts {
                try db.execute(sql: "INSERT INTO transfer VALUES (?)", arguments: [amount])
            }
            let stored = try Row.fetchAll(db, sql: "SELECT typeof(amount) AS type, CAST(amount AS TEXT) AS text FROM transfer ORDER BY rowid")
                .map { "\($0["type"] as String) \($0["text"] as String)" }
            #expect(stored == [
                "integer 10", "real 10.0", "integer 1", "real 1.84467440737096e+19",
                "integer 10", "real 10.5", "integer -9223372036854775808",
                "text 10", "text 10.5",
            ])
        }
    }

    @Test func optionalValuesOfEveryTypeReadFromRows() throws {
        enum Color: String, DatabaseValueConvertible { case red, green }
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT '2024-05-06' AS date, 'https://example.com' AS url, NULL AS none,
                       '61626364-6566-6768-696A-6B6C6D6E6F70' AS uuid, 'green' AS color, 3 AS score
                """))
            let date: Date? = row[0]
            #expect(date == Date(timeIntervalSince1970: 1_714_953_600))
            #expect(row["url"] as URL? == URL(string: "https://example.com"))
            #expect(row["uuid"] as UUID? == UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70"))
            #expect(row["color"] as Color? == .green)
            #expect(row[5] as Int? == 3)
            #expect(row["none"] as Date? == nil)
            #expect(row[2] as Color? == nil)
            #expect(row["missing"] as UUID? == nil)
            #expect(row["none"] as Int? == nil)
        }
        // A value that does not convert fails the fetch that reads it.
        struct Event: FetchableRecord {
            var date: Date?
            init(row: Row) { date = row["date"] }
        }
        #expect(throws: RowDecodingError.self) {
            try dbQueue.read { db in try Event.fetchAll(db, sql: "SELECT 'not a date' AS date") }
        }
        #expect(try dbQueue.read { db in try Event.fetchOne(db, sql: "SELECT NULL AS date") }?.date == nil)
    }

    @Test func fetchOneTellsANullFromNoRowForTypesThatHoldNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1 WHERE 0") == .none)
            #expect(try Optional<Date>.fetchOne(db, sql: "SELECT NULL") == .some(nil))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .null)
            #expect(try Int.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(try Optional<String>.fetchAll(db, sql: "SELECT NULL UNION ALL SELECT 'a'") == [nil, "a"])
        }
    }

    @Test func valuesAndArgumentsPrintAsInGRDB() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'ten' AS a, 1 AS b, 1.5 AS c, NULL AS d, x'0102' AS e"))
            #expect(row.description == #"[a:"ten" b:1 c:1.5 d:NULL e:Data(2 bytes)]"#)
            let positional: StatementArguments = ["a", 1, nil, 2.5]
            #expect(positional.description == #"["a", 1, NULL, 2.5]"#)
            let named: StatementArguments = ["name": "a", "id": 1]
            #expect(named.description == #"["id": 1, "name": "a"]"#)
            // Inlined SQL still writes SQL literals.
            try db.create(table: "t") { t in
                t.column("id", .integer).primaryKey()
                t.column("name", .text).defaults(to: "it's")
                t.column("bytes", .blob).defaults(to: Data([1, 2]))
            }
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            #expect(try Row.fetchOne(db, sql: "SELECT name, bytes FROM t") == ["name": "it's", "bytes": Data([1, 2])])
        }
    }

    @Test func foundationValuesOfGRDBsList() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [NSString(string: "ns")]) == "ns")
            #expect(try NSString.fetchOne(db, sql: "SELECT 'ns'") == "ns")
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT ?", arguments: [NSNull()]) == .null)
            #expect(try CGFloat.fetchOne(db, sql: "SELECT 2.5") == 2.5)
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [CGFloat(1.5)]) == 1.5)
            let julian = try #require(Date(julianDay: 2457277.2598957))
            #expect(julian.timeIntervalSince1970.rounded() == 1441995255)
            let sqliteJulian = try #require(try Double.fetchOne(db, sql: "SELECT julianday('2015-09-11 18:14:15')"))
            #expect(abs(try #require(Date(julianDay: sqliteJulian)).timeIntervalSince1970 - 1441995255) < 0.001)
            #expect(Date(julianDay: .infinity) == nil)
        }
    }

    @Test func dateComponentsKeepTheirFormat() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            var components = DateComponents()
            components.year = 1973
            components.month = 9
            components.day = 18
            components.hour = 7
            components.minute = 5
            components.second = 3
            components.nanosecond = 120_000_000
            try db.execute(sql: "CREATE TABLE t (value)")
            for format in DatabaseDateComponents.Format.allCases {
                try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: [DatabaseDateComponents(components, format: format)])
            }
            #expect(try String.fetchAll(db, sql: "SELECT value FROM t") == [
                "1973-09-18", "1973-09-18 07:05", "1973-09-18 07:05:03", "1973-09-18 07:05:03.120",
                "07:05", "07:05:03", "07:05:03.120",
            ])
            let read = try DatabaseDateComponents.fetchAll(db, sql: "SELECT value FROM t")
            #expect(read.map(\.format) == DatabaseDateComponents.Format.allCases)
            #expect(read[0].dateComponents.year == 1973 && read[0].dateComponents.hour == nil)
            #expect(read[3].dateComponents.nanosecond == 120_000_000)
            #expect(read[4].dateComponents.year == nil && read[4].dateComponents.minute == 5)
            let zoned = try #require(try DatabaseDateComponents.fetchOne(db, sql: "SELECT '2024-01-02T03:04:05+01:00'"))
            #expect(zoned.format == .YMD_HMS)
            #expect(zoned.dateComponents.timeZone?.secondsFromGMT() == 3600)
            #expect(throws: RowDecodingError.self) { try DatabaseDateComponents.fetchOne(db, sql: "SELECT 'soon'") }
        }
    }

    @Test func blobsAreReadWithoutCopy() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT x'010203' AS data, NULL AS none, 'ab' AS text")
            while let row = try rows.next() {
                try row.withUnsafeData(name: "data") { (data: Data?) in #expect(data == Data([1, 2, 3])) }
                try row.withUnsafeData(atIndex: 1) { (data: Data?) in #expect(data == nil) }
                try row.withUnsafeData(name: "text") { (data: Data?) in #expect(data == Data("ab".utf8)) }
                #expect(throws: RowDecodingError.self) { try row.withUnsafeData(name: "missing") { _ in } }
                #expect(throws: RowDecodingError.self) { try row.withUnsafeData(atIndex: 3) { _ in } }
                try row.copy().withUnsafeData(name: "data") { (data: Data?) in #expect(data == Data([1, 2, 3])) }
            }
        }
    }

    @Test func valuesOfUnknownTypesAreCheckedBeforeUse() throws {
        let positional: [Any] = ["Arthur", 1000, NSNull()]
        #expect(StatementArguments(positional) == ["Arthur", 1000, nil])
        let named: [String: Any] = ["name": "Arthur", "score": 1000]
        #expect(StatementArguments(named) == ["name": "Arthur", "score": 1000])
        #expect(StatementArguments(["date": NSObject()] as [String: Any]) == nil)
        #expect(StatementArguments([NSObject()] as [Any]) == nil)
        let payload: [AnyHashable: Any] = ["name": "Arthur", "score": 1000]
        let row = try #require(Row(payload))
        #expect(row["score"] as Int == 1000)
        #expect(Row(["name": NSObject()] as [AnyHashable: Any]) == nil)
        #expect(Row([1: "one"] as [AnyHashable: Any]) == nil)
        // Literals still make arguments directly.
        let literal: StatementArguments = StatementArguments(["name": "Arthur"])
        #expect(literal == ["name": "Arthur"])
    }

    @Test func tracingReportsStatementsTriggersAndDurations() throws {
        final class Log: @unchecked Sendable { var events: [String] = []; var durations: [TimeInterval] = [] }
        let log = Log()
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace(options: [.statement, .profile]) { event in
                switch event {
                case .statement(let statement):
                    log.events.append("start " + statement.description)
                case .profile(let statement, let duration):
                    log.events.append("end " + statement.sql)
                    log.durations.append(duration)
                    #expect(event.description.hasSuffix("s " + statement.sql))
                }
            }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE t(a);
                CREATE TABLE log(a);
                CREATE TRIGGER copy AFTER INSERT ON t BEGIN INSERT INTO log VALUES (new.a); END
                """)
            log.events = []
            try db.execute(sql: "INSERT INTO t VALUES (?)", arguments: ["secret"])
            db.trace(nil)
            try db.execute(sql: "INSERT INTO t VALUES (2)")
        }
        // Arguments are private by default; the trigger and its statements
        // are traced as SQLite comments.
        #expect(log.events == [
            "start INSERT INTO t VALUES (?)", "start -- TRIGGER copy", "start -- INSERT INTO log VALUES (new.a)",
            "end INSERT INTO t VALUES (?)",
        ])
        #expect(log.durations.allSatisfy { $0 >= 0 && $0 < 10 })

        var publicConfig = Configuration()
        publicConfig.publicStatementArguments = true
        let verbose = try DatabaseQueue(configuration: publicConfig)
        let lines = Log()
        try verbose.write { db in
            db.trace { lines.events.append($0.description) }
            try db.execute(sql: "SELECT ?", arguments: ["visible"])
        }
        #expect(lines.events.contains("SELECT 'visible'"))
    }

    @Test func theErrorLogFunctionIsKeptUntilRemoved() throws {
        // SQLite takes the log function only before the first connection of
        // the process opens, which other tests did: this checks the setting
        // itself, and that a late setting is harmless.
        final class Log: @unchecked Sendable {
            let lock = NSLock()
            var lines: [String] = []
        }
        let log = Log()
        Database.logError = { resultCode, message in
            log.lock.withLock { log.lines.append("\(resultCode.primaryResultCode.rawValue) \(message)") }
        }
        #expect(Database.logError != nil)
        let dbQueue = try DatabaseQueue()
        #expect(throws: DatabaseError.self) { try dbQueue.read { db in try db.execute(sql: "SELECT * FROM missing_logged") } }
        Database.logError = nil
        #expect(Database.logError == nil)
        // When this test opened the first connection, SQLite logged the error.
        let logged = log.lock.withLock { log.lines.filter { $0.contains("missing_logged") } }
        #expect(logged.allSatisfy { $0.hasPrefix("1 no such table: missing_logged") })
    }

    @Test func datesParseTheFormatsOfSQLite() throws {
        let formats = ["2023-11-14", "2023-11-14 22:13", "2023-11-14 22:13:20", "2023-11-14T22:13:20.123", "2023-11-14 22:13:20Z", "2023-11-14 23:13:20+01:00"]
        let dates = formats.map { Date.fromDatabaseValue($0.databaseValue) }
        #expect(dates.allSatisfy { $0 != nil })
        #expect(dates[2] == dates[4])
        #expect(dates[4] == dates[5])
        #expect(Date.fromDatabaseValue("not a date".databaseValue) == nil)
        #expect(Date.fromDatabaseValue(0.databaseValue) == Date(timeIntervalSince1970: 0))
    }

    @Test func rowsAreReadByIndexAndCaseInsensitiveName() throws {
        let row: Row = ["id": 1, "Name": "Arthur", "nickname": nil]
        #expect(row["id"] as Int == 1)
        #expect(row["name"] as String == "Arthur")
        #expect(row[1] as String == "Arthur")
        #expect(row["nickname"] as String? == nil)
        #expect(row["missing"] as String? == nil)
        #expect(row.hasColumn("NAME"))
        #expect(!row.hasColumn("missing"))
        #expect(row.coalesce(["nickname", "name"]) as String? == "Arthur")
        #expect(row.columnNames == ["id", "Name", "nickname"])
        #expect(row.description == #"[id:1 Name:"Arthur" nickname:NULL]"#)
        #expect(row.scopes.names.isEmpty)
    }
}

@Suite struct CoreStatementTests {
    @Test func statementsAreReusedWithArguments() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a, b)")
            let insert = try db.makeStatement(sql: "INSERT INTO t VALUES (:a, :b)")
            try insert.execute(arguments: ["a": 1, "b": "one"])
            try insert.execute(arguments: [2, "two"])
            #expect(throws: DatabaseError.self) { try insert.validateArguments([1]) }
            #expect(try db.cachedStatement(sql: "SELECT * FROM t") === db.cachedStatement(sql: "SELECT * FROM t"))
            #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            let name = "O'Brien"
            try db.execute(literal: "INSERT INTO t VALUES (\(3), \(name))")
            #expect(try String.fetchAll(db, sql: "SELECT b FROM t ORDER BY a") == ["one", "two", "O'Brien"])
            #expect(db.lastInsertedRowID == 3)
            #expect(db.changesCount == 1)
            #expect(db.totalChangesCount >= 3)
        }
    }

    @Test func cursorsIterateMapFilterAndReduce() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let sql = "WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < 10) SELECT x FROM n"
            #expect(try Array(Int.fetchCursor(db, sql: sql)) == Array(1...10))
            #expect(try Int.fetchCursor(db, sql: sql).filter { $0 % 2 == 0 }.map { $0 * 10 }.reduce(0, +) == 300)
            #expect(try Int.fetchCursor(db, sql: sql).compactMap { $0 > 8 ? $0 : nil }.toArray() == [9, 10])
            var seen = 0
            try Row.fetchCursor(db, sql: sql).forEach { row in seen += row[0] as Int }
            #expect(seen == 55)
            #expect(try Int.fetchSet(db, sql: sql).count == 10)
            #expect(try Row.fetchAll(db, sql: sql).map { $0[0] as Int } == Array(1...10))
            #expect(try SQLRequest<Int>(literal: "SELECT \(41) + 1").fetchOne(db) == 42)
        }
    }

    @Test func cursorsHaveTheMethodsOfSequences() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let sql = "SELECT 3 UNION ALL SELECT 1 UNION ALL SELECT 4 UNION ALL SELECT 1 UNION ALL SELECT 5"
            func numbers() throws -> DatabaseValueCursor<Int> { try Int.fetchCursor(db, sql: sql) }
            #expect(try numbers().dropLast() == [3, 1, 4, 1])
            #expect(try numbers().dropLast(10) == [])
            #expect(try numbers().suffix(2) == [1, 5])
            #expect(try Array(numbers().drop(while: { $0 != 4 })) == [4, 1, 5])
            #expect(try Array(numbers().prefix(while: { $0 != 4 })) == [3, 1])
            #expect(try Array(numbers().enumerated()).map { $0.offset * 10 + $0.element } == [3, 11, 24, 31, 45])
            #expect(try Array(numbers().flatMap { [$0, $0] }) == [3, 3, 1, 1, 4, 4, 1, 1, 5, 5])
            #expect(try Array(numbers().flatMap { try Int.fetchCursor(db, sql: "SELECT ? * 2", arguments: [$0]) }) == [6, 2, 8, 2, 10])
            #expect(try Array(numbers().map { Array(repeating: $0, count: $0 % 3) }.joined()) == [1, 4, 1, 5, 5])
            #expect(try numbers().max() == 5)
            #expect(try numbers().min() == 1)
            #expect(try numbers().max(by: { $0 % 4 < $1 % 4 }) == 3)
            #expect(try numbers().min(by: { $0 % 4 < $1 % 4 }) == 4)
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").max() == nil)
            #expect(try String.fetchCursor(db, sql: "SELECT 'a' UNION ALL SELECT 'b'").joined(separator: ", ") == "a, b")
            #expect(try Set(numbers(), minimumCapacity: 10) == [1, 3, 4, 5])
            let squares = try Dictionary(uniqueKeysWithValues: Int.fetchCursor(db, sql: "SELECT 2 UNION ALL SELECT 3").map { ($0, $0 * $0) })
            #expect(squares == [2: 4, 3: 9])
            // A repeated key is an error, not a crash.
            #expect(throws: DatabaseError.self) {
                try Dictionary(uniqueKeysWithValues: numbers().map { ($0, $0) })
            }
            #expect(try Dictionary(numbers().map { ($0, 1) }, uniquingKeysWith: +) == [3: 1, 1: 2, 4: 1, 5: 1])
        }
    }

    @Test func savepointsNest() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            try db.inSavepoint {
                try db.execute(sql: "INSERT INTO t VALUES (2)")
                try db.inSavepoint {
                    try db.execute(sql: "INSERT INTO t VALUES (3)")
                    return .rollback
                }
                return .commit
            }
            #expect(try Int.fetchAll(db, sql: "SELECT a FROM t ORDER BY a") == [1, 2])
            #expect(db.isInsideTransaction)
        }
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction {
                try db.execute(sql: "INSERT INTO t VALUES (4)")
                return .rollback
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 2)
    }

    @Test func configurationAppliesToEachConnection() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("config-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var configuration = Configuration()
        configuration.journalMode = .wal
        configuration.busyMode = .timeout(1)
        configuration.label = "Test"
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA user_version = 7") }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.read { (db: Database) throws in
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 7)
            #expect(try Bool.fetchOne(db, sql: "PRAGMA foreign_keys") == true)
            #expect(db.description == "Test")
        }
        final class Log: @unchecked Sendable { var lines: [String] = [] }
        let log = Log()
        try dbQueue.write { db in
            db.trace { log.lines.append($0.description) }
            try db.execute(sql: "CREATE TABLE t(a)")
            db.trace(nil)
        }
        #expect(log.lines.contains("CREATE TABLE t(a)"))
    }
}

/// Row subscripts without a type, as GRDB's README shows them.
@Suite struct UntypedRowSubscriptTests {
    @Test func untypedSubscriptsGiveTheStoredValueOrNil() throws {
        let row = try #require(try DatabaseQueue().read { db in
            try Row.fetchOne(db, sql: "SELECT 'end' AS name, NULL AS z, x'00' AS b, 1 AS a, 2.5 AS d")
        })
        let name = row["name"]
        #expect(name as? String == "end")
        #expect(row["z"] == nil)
        #expect(row["missing"] == nil)
        #expect((row["b"] as? Data)?.count == 1)
        #expect(row["a"] as? Int64 == 1)
        #expect(row["d"] as? Double == 2.5)
        let first = row[0]
        #expect(first as? String == "end")
        #expect(row[1] == nil)
        // A type still converts.
        let text: String = row["name"]
        let dbValue: DatabaseValue = row[1]
        #expect(text == "end")
        #expect(dbValue == .null)
    }

    @Test func theLeftmostColumnMatchesWhateverItsCase() throws {
        let row = try #require(try DatabaseQueue().read { db in
            try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS a, 3 AS A, 4 AS b")
        })
        #expect(row["A"] as Int == 1)
        #expect(row["a"] as Int == 1)
        #expect(row["B"] as Int == 4)
    }
}

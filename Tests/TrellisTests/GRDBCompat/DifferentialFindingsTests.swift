import Foundation
import Testing
import Trellis

// Differences found by running the same program against Trellis and the real
// GRDB 7.10.0 and comparing their outputs. Each test states what GRDB does.

@Suite("Differential findings: values")
struct DifferentialValueFindingsTests {
    @Test("Optional<Int>.fetchOne converts text as Int.fetchOne does")
    func optionalFetchOneConvertsLikeTheWrappedType() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT '12'") == .some(.some(12)))
            // GRDB gives 20: Trellis refuses a conversion with a loss.
            #expect(throws: RowDecodingError.self) {
                try Optional<Int>.fetchOne(db, sql: "SELECT '20 small cigars'")
            }
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
            #expect(try Optional<Int>.fetchOne(db, sql: "SELECT 1 WHERE 0") == .none)
            #expect(try Optional<Double>.fetchAll(db, sql: "SELECT '1.5' UNION ALL SELECT NULL") == [1.5, nil])
            #expect(throws: RowDecodingError.self) {
                try Optional<Int8>.fetchOne(db, sql: "SELECT 256")
            }
        }
    }

    @Test("Optional<DatabaseValue>.fetchOne keeps a NULL as DatabaseValue.null")
    func optionalDatabaseValueKeepsNull() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            #expect(try Optional<DatabaseValue>.fetchOne(db, sql: "SELECT NULL") == .some(.some(.null)))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT NULL") == .some(.null))
            #expect(try DatabaseValue.fetchOne(db, sql: "SELECT 1 WHERE 0") == nil)
            #expect(try Optional<String>.fetchOne(db, sql: "SELECT NULL") == .some(.none))
        }
    }

    @Test("A failed conversion of fetchOne names Optional<T>, of fetchAll T")
    func fetchOneErrorsNameTheOptional() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let one = try #require(throws: RowDecodingError.self) { try Int8.fetchOne(db, sql: "SELECT 1000") }
            #expect("\(one)".hasPrefix("could not decode Optional<Int8> from database value 1000"))
            let date = try #require(throws: RowDecodingError.self) { try Date.fetchOne(db, sql: "SELECT 'nope'") }
            #expect("\(date)".hasPrefix("could not decode Optional<Date> from database value \"nope\""))
            let all = try #require(throws: RowDecodingError.self) { try UInt.fetchAll(db, sql: "SELECT -1") }
            #expect("\(all)".hasPrefix("could not decode UInt from database value -1"))
        }
    }

    @Test("Row subscripts of optionals read NULL and missing columns as nil")
    func optionalSubscripts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchCursor(db, sql: "SELECT NULL AS a, '7' AS b")
            let row = try #require(try rows.next())
            #expect(row["a"] as Int? == nil)
            #expect(row["b"] as Int? == 7)
            #expect(row["missing"] as Int? == nil)
            #expect(row[0] as String? == nil)
            #expect(row[1] as String? == "7")
        }
    }

    @Test("A blob of UTF-8 converts to String and URL; invalid UTF-8 does not")
    func blobToString() throws {
        #expect(String.fromDatabaseValue(Data("abc".utf8).databaseValue) == "abc")
        #expect(String.fromDatabaseValue(Data([0xFF, 0x41]).databaseValue) == nil)
        #expect(URL.fromDatabaseValue(Data("https://example.com".utf8).databaseValue)?.host == "example.com")
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT CAST('é' AS BLOB) AS a"))
            #expect(try row.decode(String.self, forColumn: "a") == "é")
        }
    }

    @Test("Dates keep milliseconds and drop further digits")
    func dateFractionIsTruncatedToMilliseconds() throws {
        let date = try #require(Date.fromDatabaseValue("2024-01-02 03:04:05.6789".databaseValue))
        #expect(date.timeIntervalSince1970 == 1_704_164_645.678)
        let components = try #require(DatabaseDateComponents.fromDatabaseValue("2024-01-02 03:04:05.999999".databaseValue))
        #expect(components.dateComponents.nanosecond == 999_000_000)
    }

    @Test("Dates are stored to the nearest millisecond")
    func dateIsStoredToTheNearestMillisecond() throws {
        #expect(Date(timeIntervalSince1970: 86_399.9999).databaseValue == "1970-01-02 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 0.9996).databaseValue == "1970-01-01 00:00:01.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 0.0004).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: -0.0004).databaseValue == "1970-01-01 00:00:00.000".databaseValue)
        #expect(Date(timeIntervalSince1970: 1.2344).databaseValue == "1970-01-01 00:00:01.234".databaseValue)
    }
}

@Suite("Differential findings: records")
struct DifferentialRecordFindingsTests {
    private struct Sample: Codable, FetchableRecord {
        var int8: Int8
        var double: Double
        var string: String
        var bool: Bool
        var float: Float
        var optionalInt: Int?
    }

    @Test("A fetched record converts values of another storage class without a loss")
    func recordDecodingUsesStatementConversions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let sample = try #require(try Sample.fetchOne(db, sql: """
                SELECT '7' AS int8, '0.25' AS double, 12 AS string, '0' AS bool, 300 AS float, '42' AS optionalInt
                """))
            #expect(sample.int8 == 7)
            #expect(sample.double == 0.25)
            #expect(sample.string == "12")
            #expect(sample.bool == false)
            // GRDB reads 'abc' as false: Trellis refuses a conversion with a loss.
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 1 AS int8, 1 AS double, 'x' AS string, 'abc' AS bool, 1 AS float, NULL AS optionalInt")
            }
            #expect(sample.float == 300)
            #expect(sample.optionalInt == 42)

            // Out of range, or NULL for a non-optional property: an error.
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 300 AS int8, 1 AS double, 'x' AS string, 1 AS bool, 1 AS float, NULL AS optionalInt")
            }
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 1 AS int8, 1 AS double, NULL AS string, 1 AS bool, 1 AS float, NULL AS optionalInt")
            }
        }
    }

    @Test("A record built from a copied row converts strictly")
    func copiedRowsConvertStrictly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT 1 AS int8, 1.0 AS double, X'FF' AS string, 1 AS bool, 1 AS float, NULL AS optionalInt
                """))
            #expect(throws: RowDecodingError.self) { try Sample(row: row) }
        }
    }
}

@Suite("Differential findings: errors")
struct DifferentialErrorFindingsTests {
    @Test("RowDecodingError describes the column, the row, the SQL and its arguments as GRDB does")
    func rowDecodingErrorDescriptions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            do {
                _ = try Int.fetchAll(db, sql: "SELECT ? UNION ALL SELECT NULL", arguments: [1])
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == """
                    could not decode Int from database value NULL - column: "?", column index: 0, \
                    row: [?:NULL], sql: `SELECT ? UNION ALL SELECT NULL`, arguments: [1]
                    """)
            }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'x' AS a"))
            do {
                _ = try row.decode(Int.self, forColumn: "b")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"column not found: "b" - row: [a:"x"]"#)
            }
        }
    }

    private struct Book: Codable, FetchableRecord {
        var id: Int64
        var title: String
    }

    @Test("A record's decoding error is GRDB's, followed by the type and the record that failed")
    func recordDecodingErrorDescription() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            do {
                _ = try Book.fetchOne(db, sql: "SELECT 1 AS id")
                Issue.record("expected an error")
            } catch let error as RowDecodingError {
                #expect(error.description == #"column not found: "title" - row: [id:1], sql: `SELECT 1 AS id`, arguments: [] (decoding String of Book)"#)
            }
        }
    }

    @Test("A DatabaseError without a message gets SQLite's text for its code")
    func defaultMessage() {
        #expect(DatabaseError().message == "SQL logic error")
        #expect(DatabaseError(resultCode: .SQLITE_BUSY).message == "database is locked")
        #expect(DatabaseError(resultCode: .SQLITE_CONSTRAINT_UNIQUE).description == "SQLite error 19: constraint failed")
        #expect(DatabaseError(resultCode: .SQLITE_ERROR, sql: "SELECT ?").description
            == "SQLite error 1: SQL logic error - while executing `SELECT ?`")
    }

    @Test("A DatabaseError is an NSError of the extended code, described by its description")
    func nsErrorBridging() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t (id INTEGER PRIMARY KEY)")
            try db.execute(sql: "INSERT INTO t VALUES (1)")
            do {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                Issue.record("expected an error")
            } catch {
                #expect(error.localizedDescription
                    == "SQLite error 19: UNIQUE constraint failed: t.id - while executing `INSERT INTO t VALUES (1)`")
                #expect((error as NSError).code == 1555)
                #expect((error as NSError).localizedFailureReason == "UNIQUE constraint failed: t.id")
            }
        }
    }

    @Test("A primary result code matches its extended codes in patterns")
    func resultCodePatterns() {
        let code = ResultCode.SQLITE_CONSTRAINT_UNIQUE
        var matched = false
        if case ResultCode.SQLITE_CONSTRAINT = code { matched = true }
        #expect(matched)
        switch code {
        case .SQLITE_CONSTRAINT_PRIMARYKEY: Issue.record("wrong extended code")
        case .SQLITE_CONSTRAINT_UNIQUE: break
        default: Issue.record("no match")
        }
        if case ResultCode.SQLITE_CONSTRAINT_PRIMARYKEY = code { Issue.record("wrong extended code") }
    }

    @Test("SQL without a statement is SQLite error 1, empty statement")
    func emptyStatement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let error = try #require(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "") }
            #expect(error.resultCode == .SQLITE_ERROR)
            #expect(error.message == "empty statement")
            let statementError = try #require(throws: DatabaseError.self) { try db.makeStatement(sql: " ") }
            #expect(statementError.message == "empty statement")
        }
    }

    private struct Missing: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "missing"
        var id: Int64
    }

    @Test("A missing table fails fetches and alterations with the SQL that failed, as in GRDB")
    func missingTableErrorsTellTheirSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            let fetch = #expect(throws: DatabaseError.self) { try Missing.fetchAll(db) }
            #expect(fetch?.description == #"SQLite error 1: no such table: missing - while executing `SELECT * FROM "missing"`"#)
            let alter = #expect(throws: DatabaseError.self) { try db.alter(table: "missing") { t in t.add(column: "x") } }
            #expect(alter?.description == #"SQLite error 1: no such table: missing - while executing `ALTER TABLE "missing" ADD COLUMN "x"`"#)
            // GRDB tells no SQL for an insert: neither does Trellis.
            let insert = #expect(throws: DatabaseError.self) { try Missing(id: 1).insert(db) }
            #expect(insert?.description == "SQLite error 1: no such table: missing")
            // The connection is still usable.
            try db.create(table: "missing") { t in t.primaryKey("id", .integer) }
            try Missing(id: 1).insert(db)
            #expect(try Missing.fetchAll(db).map(\.id) == [1])
        }
    }
}

@Suite("Differential findings: query interface")
struct DifferentialQueryFindingsTests {
    private struct Membership: Codable, FetchableRecord, PersistableRecord {
        var teamId: Int64
        var playerId: Int64
        var role: String
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "membership") { t in
                t.primaryKey {
                    t.column("teamId", .integer)
                    t.column("playerId", .integer)
                }
                t.column("role", .text).notNull()
            }
            try Membership(teamId: 1, playerId: 1, role: "captain").insert(db)
            try Membership(teamId: 1, playerId: 2, role: "member").insert(db)
            try Membership(teamId: 2, playerId: 3, role: "coach").insert(db)
        }
        return dbQueue
    }

    @Test("filter(keys:) takes the keys of a primary key of several columns")
    func filterByCompositeKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let keys: [[String: (any DatabaseValueConvertible)?]] = [["teamId": 1, "playerId": 2], ["teamId": 2, "playerId": 3]]
            #expect(try Membership.filter(keys: keys).order(Column("role")).fetchAll(db).map(\.role) == ["coach", "member"])
            #expect(try Membership.all().filter(keys: [["teamId": 1, "playerId": 1]]).fetchAll(db).map(\.role) == ["captain"])
            #expect(try Table("membership").filter(keys: [["teamId": 2, "playerId": 3]]).fetchCount(db) == 1)
            #expect(try Membership.filter(keys: []).fetchCount(db) == 0)
            #expect(throws: DatabaseError.self) { try Membership.filter(keys: [["role": "coach"]]).fetchAll(db) }
        }
    }

    @Test("Table selects SQL literals, as requests do")
    func tableSelectLiteral() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            #expect(try Table("membership").select(literal: "MAX(playerId)", as: Int.self).fetchOne(db) == 3)
            #expect(try Table("membership").select(literal: "COUNT(*)").asRequest(of: Int.self).fetchOne(db) == 3)
        }
    }

    @Test("Database values are arguments of SQL functions")
    func databaseValueInFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let request = SQLRequest<String>("SELECT \(dateTime("2024-01-31".databaseValue, .month(1), .day(-1)))")
            #expect(try request.fetchOne(db) == "2024-03-01 00:00:00")
            #expect(try Double.fetchOne(db, SQLRequest<Double>("SELECT \(julianDay("2024-01-02".databaseValue, .startOfYear))")) == 2_460_310.5)
        }
    }

    @Test("Row.unscoped is the row without its scopes")
    func unscoped() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let adapter = ScopeAdapter(["s": SuffixRowAdapter(fromIndex: 1)])
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, 2 AS b", adapter: adapter))
            #expect(row.scopes.names == ["s"])
            #expect(row.unscoped.scopes.names.isEmpty)
            #expect(row.unscoped == ["a": 1, "b": 2])
        }
    }
}

@Suite("Differential findings: persistence callbacks")
struct DifferentialCallbackFindingsTests {
    private final class Log: @unchecked Sendable { var columns: [[String]] = [] }

    private struct Item: Codable, FetchableRecord, MutablePersistableRecord {
        static let log = Log()
        var id: Int64?
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        func willUpdate(_ db: Database, columns: Set<String>) throws {
            Self.log.columns.append(columns.sorted())
        }
    }

    @Test("update(db) tells willUpdate all the columns of the table, as GRDB does")
    func willUpdateGetsTheTableColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL DEFAULT 0)")
            var item = Item(id: nil, name: "a")
            try item.insert(db)
            try item.update(db)
            try item.update(db, columns: ["name"])
            try item.updateChanges(db) { $0.name = "b" }
        }
        #expect(Item.log.columns == [["id", "name", "score"], ["name"], ["name"]])
    }
}

@Suite("Differential findings: joined rows")
struct DifferentialJoinedRowFindingsTests {
    private struct Author: Codable, FetchableRecord, TableRecord {
        static let country = belongsTo(Country.self)
        var id: Int64
        var name: String
        var countryCode: String
    }

    private struct Country: Codable, FetchableRecord, TableRecord {
        var code: String
        var name: String
    }

    private struct Book: Codable, FetchableRecord, TableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }

    /// GRDB's AssociationsBasics guide, "Debugging Request Decoding": the
    /// row of a book has the book's columns, and its scopes the others.
    @Test("A joined row has its table's columns; its scopes and its unadapted row have the others")
    func joinedRowsHaveTheirOwnColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT, countryCode TEXT REFERENCES country(code));
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                INSERT INTO country VALUES ('US', 'United States of America');
                INSERT INTO author VALUES (2, 'Herman Melville', 'US');
                INSERT INTO book VALUES (1, 2, 'Moby-Dick');
                """)
            let request = Book.including(required: Book.author.including(optional: Author.country))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.count == 3)
            #expect(row.description == #"[id:1 authorId:2 title:"Moby-Dick"]"#)
            #expect(row["name"] as String? == nil)
            let author = try #require(row.scopes["author"])
            #expect(author.description == #"[id:2 name:"Herman Melville" countryCode:"US"]"#)
            #expect(author.scopes["country"]?.description == #"[code:"US" name:"United States of America"]"#)
            #expect(row.unadapted.count == 8)
            // Copies keep the scopes.
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0] == row)
            #expect(rows[0].scopesTree["country"]?["name"] as String? == "United States of America")
            #expect(rows[0].unadapted.count == 8)
        }
    }
}

private struct InterpolatedPlayer: Codable, TableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var score: Int
    enum CodingKeys: String, CodingKey, ColumnExpression { case id, score }
}

@Suite("Differential findings: session 13 API forms")
struct DifferentialAPIFormsTests {
    @Test("SQL interpolation of Data, column coding keys, AllColumns, Bool in closures, and nil")
    func interpolations() throws {
        let blob = Data([1, 2])
        let data: SQL = "SELECT \(blob)"
        let key: SQL = "SELECT \(InterpolatedPlayer.CodingKeys.score) FROM \(InterpolatedPlayer.self)"
        let all: SQL = "SELECT \(AllColumns()) FROM player"
        let makeSQL: (Int) -> SQL = { _ in "SELECT \(true)" }
        let missing: Int? = nil
        let null: SQL = "SELECT \(missing) IS NULL"
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, score INTEGER); INSERT INTO player VALUES (1, 10)")
            #expect(try Data.fetchOne(db, SQLRequest(literal: data)) == blob)
            #expect(try key.build(db).sql == #"SELECT "score" FROM "player""#)
            #expect(try Int.fetchOne(db, SQLRequest(literal: key)) == 10)
            #expect(try all.build(db).sql == "SELECT * FROM player")
            #expect(try Bool.fetchOne(db, SQLRequest(literal: makeSQL(0))) == true)
            // NULL is written in the SQL, as GRDB does: no argument to bind.
            #expect(try null.build(db).sql == "SELECT NULL IS NULL")
            #expect(try null.build(db).arguments.isEmpty)
            let row = try #require(try Row.fetchOne(db, SQLRequest(literal: null)))
            #expect(row.columnNames == ["NULL IS NULL"])
        }
    }

    @Test("StatementArguments &+ and append(contentsOf:) returning the replaced values")
    func argumentsConcatenation() {
        var arguments: StatementArguments = ["name": "Arthur", "score": 1]
        let replaced = arguments.append(contentsOf: ["name": "Barbara"])
        #expect(replaced == ["name": "Arthur".databaseValue])
        let combined: StatementArguments = arguments &+ ["score": 2]
        #expect(combined == ["name": "Barbara", "score": 2])
        // A dictionary literal makes arguments, not an optional.
        #expect("\(StatementArguments(["b": "x", "a": 1]))" == #"["a": 1, "b": "x"]"#)
        #expect("\(StatementArguments([1]) + ["a": 2])" == #"["a": 2, 1]"#)
        let payload: [String: Any] = ["name": "Arthur"]
        #expect(StatementArguments(payload) == ["name": "Arthur"])
        let invalid: [String: Any] = ["date": NSObject()]
        #expect(StatementArguments(invalid) == nil)
    }

    @Test("DatabaseDateComponents writes missing date fields as 0000-01-01")
    func dateComponentsDefaults() {
        var components = DateComponents()
        components.hour = 5
        #expect(DatabaseDateComponents(components, format: .YMD_HMS).databaseValue == "0000-01-01 05:00:00".databaseValue)
        #expect(DatabaseDateComponents(components, format: .HMS).databaseValue == "05:00:00".databaseValue)
    }

    @Test("Cursor.isEmpty, Database.readOnly, Row.withUnsafeData(named:)")
    func smallAPIs() throws {
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a BLOB); INSERT INTO t VALUES (x'0102')")
            #expect(try Int.fetchCursor(db, sql: "SELECT 1 WHERE 0").isEmpty)
            #expect(try !Int.fetchCursor(db, sql: "SELECT 1").isEmpty)
            #expect(try db.readOnly { try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
            #expect(throws: DatabaseError.self) { try db.readOnly { try db.execute(sql: "DELETE FROM t") } }
            let row = try #require(try Row.fetchOne(db, sql: "SELECT a FROM t"))
            #expect(try row.withUnsafeData(named: "a") { $0?.count } == 2)
        }
    }
}

@Suite("Differential findings: session 13 transactions and observation")
struct DifferentialTransactionFindingsTests {
    @Test("A write whose closure commits by itself throws SQLITE_ABORT, as in GRDB")
    func commitInsideWrite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        #expect {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                try db.commit()
            }
        } throws: { error in
            (error as? DatabaseError)?.resultCode == .SQLITE_ABORT && (error as? DatabaseError)?.message == "Transaction was aborted"
        }
        // The insert was committed by the closure.
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    @Test("An observation whose first fetch fails tells no change, only the failure")
    func failedFirstFetchEvents() throws {
        final class Log: @unchecked Sendable {
            private let lock = NSLock()
            private var events: [String] = []
            func append(_ event: String) { lock.withLock { events.append(event) } }
            var all: [String] { lock.withLock { events } }
        }
        let log = Log()
        let failed = DispatchSemaphore(value: 0)
        let dbQueue = try DatabaseQueue()
        let observation = ValueObservation
            .tracking { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM missing") }
            .handleEvents(
                willStart: { log.append("willStart") },
                willFetch: { log.append("willFetch") },
                databaseDidChange: { log.append("databaseDidChange") },
                didFail: { _ in log.append("didFail") })
        let cancellable = observation.start(
            in: dbQueue, scheduling: .async(onQueue: DispatchQueue(label: "test")),
            onError: { _ in failed.signal() }, onChange: { _ in })
        #expect(failed.wait(timeout: .now() + 5) == .success)
        cancellable.cancel()
        #expect(log.all == ["willStart", "willFetch", "didFail"])
    }
}

import Foundation
import Testing
import Trellis

// Differences with GRDB 7.10.0 found by running the same programs against
// both libraries. Each test states what GRDB does.

@Suite("GRDB parity: values")
struct GRDBValueParityTests {
    @Test("UInt above Int64.max is stored as a REAL, as UInt64 is, instead of stopping the process")
    func largeUnsignedIntegersAreStoredAsReals() throws {
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Double.fetchOne(db, sql: "SELECT ?", arguments: [UInt.max]) == Double(UInt.max))
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UInt.max]) == "real")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [UInt(42)]) == "integer")
            #expect(try UInt.fetchOne(db, sql: "SELECT ?", arguments: [UInt(42)]) == 42)
        }
    }

    @Test("NSDate and NSData are stored as Date and Data are")
    func foundationReferenceTypes() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let date = NSDate(timeIntervalSince1970: 1_441_995_255)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "2015-09-11 18:14:15.000")
            #expect(try NSDate.fetchOne(db, sql: "SELECT '2015-09-11 18:14:15'")?.timeIntervalSince1970 == 1_441_995_255)
            let data = NSData(data: Data([1, 2, 3]))
            #expect(try Data.fetchOne(db, sql: "SELECT ?", arguments: [data]) == Data([1, 2, 3]))
            #expect(try NSData.fetchOne(db, sql: "SELECT x'0102'").map { Data(referencing: $0) } == Data([1, 2]))
        }
    }

    @Test("A date stored as a UTF-8 blob is read, as text is")
    func dateFromBlob() throws {
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Date.fetchOne(db, sql: "SELECT CAST('2015-09-11' AS BLOB)")?.timeIntervalSince1970 == 1_441_929_600)
            #expect(Date.fromDatabaseValue(Data([0xff]).databaseValue) == nil)
        }
    }

    @Test("DatabaseValue(sqliteStatement:index:) reads a column of a stepped statement")
    func databaseValueFromStatement() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let statement = try db.makeStatement(sql: "SELECT 1, 'a', NULL")
            let rows = try Row.fetchCursor(statement)
            var values: [[DatabaseValue]] = []
            while try rows.next() != nil {
                values.append((0..<3).map { DatabaseValue(sqliteStatement: statement.sqliteStatement, index: CInt($0)) })
            }
            #expect(values == [[1.databaseValue, "a".databaseValue, .null]])
        }
    }

    @Test("DateComponents is Codable only: a record stores it as JSON; DatabaseDateComponents is Codable, stored as text")
    func dateComponentsInRecords() throws {
        struct Event: Codable, FetchableRecord, PersistableRecord {
            var components: DateComponents?
            var day: DatabaseDateComponents?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE event(components, day)")
            var components = DateComponents()
            components.year = 2000; components.month = 1; components.day = 2
            try Event(components: components, day: DatabaseDateComponents(components, format: .YMD)).insert(db)
            let stored = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            let json = try #require(stored["components"] as String?)
            #expect(json.hasPrefix("{") && json.contains("\"year\":2000"))
            #expect(stored["day"] as String? == "2000-01-02")
            let event = try #require(try Event.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(event.components?.year == 2000)
            #expect(event.day?.format == .YMD)
            #expect(event.day?.dateComponents.day == 2)
            #expect(try Event.fetchOne(db, sql: "SELECT NULL AS components, '2000-01-02 10:11' AS day")?.day?.format == .YMD_HM)
        }
        let encoded = try JSONEncoder().encode([DatabaseDateComponents(DateComponents(year: 2000, month: 1, day: 2), format: .YMD)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"["2000-01-02"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([DatabaseDateComponents].self, from: Data(#"["soon"]"#.utf8)) }
    }
}

@Suite("GRDB parity: Codable records")
struct GRDBCodableParityTests {
    enum Level: Int, Codable { case low = 1, high = 2 }

    struct Wrapped: Codable, Equatable {
        var raw: Int
        init(raw: Int) { self.raw = raw }
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(Int.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    struct Name: Codable, Equatable {
        var raw: String
        init(from decoder: any Decoder) throws { raw = try decoder.singleValueContainer().decode(String.self) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(raw)
        }
    }

    struct Item: Decodable, FetchableRecord {
        var level: Level
        var id: Wrapped
        var name: Name
    }

    @Test("Values built on a single primitive convert with SQLite's rules, as a property of the primitive does")
    func singleValueWrappersConvertLikeTheirPrimitive() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let item = try #require(try Item.fetchOne(db, sql: "SELECT '2' AS level, '1' AS id, 5 AS name"))
            #expect(item.level == .high)
            #expect(item.id == Wrapped(raw: 1))
            #expect(item.name.raw == "5")
            // Not a raw value of the enum: an error names the column.
            let error = #expect(throws: (any Error).self) { try Item.fetchOne(db, sql: "SELECT 7 AS level, 1 AS id, 'a' AS name") }
            #expect("\(error.map { "\($0)" } ?? "")".contains("level"))
        }
    }

    @Test("Date strategies of numbers read numeric text")
    func dateStrategiesReadNumericText() throws {
        struct Stamp: Decodable, FetchableRecord {
            var d: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSince1970 }
        }
        struct Reference: Decodable, FetchableRecord {
            var d: Date
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .timeIntervalSinceReferenceDate }
        }
        try DatabaseQueue().read { (db: Database) throws in
            #expect(try Stamp.fetchOne(db, sql: "SELECT '1000' AS d")?.d == Date(timeIntervalSince1970: 1000))
            #expect(try Stamp.fetchOne(db, sql: "SELECT 1000 AS d")?.d == Date(timeIntervalSince1970: 1000))
            #expect(try Reference.fetchOne(db, sql: "SELECT '-978306199.75' AS d")?.d == Date(timeIntervalSinceReferenceDate: -978_306_199.75))
            #expect(throws: RowDecodingError.self) { try Stamp.fetchOne(db, sql: "SELECT 'soon' AS d") }
        }
    }
}

@Suite("GRDB parity: fetching with row adapters")
struct GRDBAdapterParityTests {
    struct Pair: FetchableRecord, Hashable {
        var b: Int
        var c: Int
        init(b: Int, c: Int) {
            self.b = b
            self.c = c
        }

        init(row: Row) throws {
            b = try row.decode(forColumn: "b")
            c = try row.decode(forColumn: "c")
        }
    }

    @Test("Values, rows and records fetch through an adapter, from SQL and from statements")
    func fetchMethodsTakeAnAdapter() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE t(a, b, c); INSERT INTO t VALUES (1, 2, 3), (4, 5, 6)")
            let sql = "SELECT a, b, c FROM t ORDER BY a"
            let suffix = SuffixRowAdapter(fromIndex: 1)
            #expect(try Int.fetchAll(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try Int.fetchOne(db, sql: sql, adapter: suffix) == 2)
            #expect(try Array(Int.fetchCursor(db, sql: sql, adapter: suffix)) == [2, 5])
            #expect(try Int.fetchSet(db, sql: sql, adapter: suffix) == [2, 5])
            #expect(try String.fetchAll(db, sql: "SELECT 1, 'x'", arguments: [], adapter: SuffixRowAdapter(fromIndex: 1)) == ["x"])
            #expect(try Row.fetchSet(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 2)) == [["c": 3], ["c": 6]])

            let statement = try db.makeStatement(sql: "SELECT a, b, c FROM t WHERE a >= ? ORDER BY a")
            #expect(try Int.fetchAll(statement, arguments: [4], adapter: suffix) == [5])
            #expect(try Int.fetchOne(statement, arguments: [1], adapter: suffix) == 2)
            #expect(try Int.fetchSet(statement, arguments: [1], adapter: suffix) == [2, 5])
            #expect(try Array(Row.fetchCursor(statement, arguments: [1], adapter: suffix)).map { $0["b"] as Int } == [2, 5])
            #expect(try Row.fetchOne(statement, arguments: [4], adapter: suffix) == ["b": 5, "c": 6])
            #expect(try Pair.fetchAll(statement, arguments: [1], adapter: suffix) == [Pair(b: 2, c: 3), Pair(b: 5, c: 6)])
            #expect(try Pair.fetchOne(statement, arguments: [4], adapter: suffix) == Pair(b: 5, c: 6))
            #expect(try Array(Pair.fetchCursor(statement, arguments: [4], adapter: suffix)) == [Pair(b: 5, c: 6)])
            #expect(try Pair.fetchSet(db, sql: sql, adapter: suffix) == [Pair(b: 2, c: 3), Pair(b: 5, c: 6)])
            #expect(try Pair.fetchSet(statement, arguments: [1], adapter: suffix).count == 2)
            // An adapter that reaches past the columns is an error, not a crash.
            #expect(throws: DatabaseError.self) { try Int.fetchAll(db, sql: sql, adapter: SuffixRowAdapter(fromIndex: 9)) }
        }
    }

    @Test("addingScopes adds scopes; a scope of the same name replaces the base's")
    func addingScopes() throws {
        try DatabaseQueue().read { (db: Database) throws in
            let sql = "SELECT 1 AS a, 'x' AS b, 3 AS c"
            let adapter = RangeRowAdapter(0..<2).addingScopes(["s": SuffixRowAdapter(fromIndex: 2)])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: adapter))
            #expect(row.columnNames == ["a", "b"])
            #expect(row.scopes["s"] == ["c": 3])

            let overriding = ScopeAdapter(base: ScopeAdapter(["s": RangeRowAdapter(0..<1)]), scopes: ["s": RangeRowAdapter(1..<2)])
            let overridden = try #require(try Row.fetchOne(db, sql: sql, adapter: overriding))
            #expect(overridden.scopes.names == ["s"])
            #expect(overridden.scopes["s"] == ["b": "x"])
        }
    }
}

@Suite("GRDB parity: table aliases and foreign keys")
struct GRDBAliasParityTests {
    struct Player: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] {
            [Column("id"), (Column("score") * 2).forKey("double"), SQL("upper(\(Column("name")))").sqlExpression.forKey("up")]
        }
        static let team = belongsTo(Team.self)
        var id: Int
    }

    struct Team: TableRecord {
        static let databaseTableName = "team"
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT, score INT);
                CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INT REFERENCES team(id), name TEXT, score INT);
                INSERT INTO team VALUES (1, 'red', 100);
                INSERT INTO player VALUES (1, 1, 'p', 10);
                """)
        }
        return dbQueue
    }

    @Test("A named TableAlias qualifies its columns in raw SQL with its name")
    func namedAliasInRawSQL() throws {
        try makeDatabase().read { (db: Database) throws in
            let alias = TableAlias(name: "pl")
            let sql: SQL = "SELECT \(alias[Column("name")]), \(alias.rowID) FROM player pl"
            #expect(try sql.build(db).sql == #"SELECT "pl"."name", "pl".rowid FROM player pl"#)
            let row = try #require(try SQLRequest<Row>(literal: sql).fetchOne(db))
            #expect(row[0] as String == "p")
            #expect(row[1] as Int == 1)
            // An anonymous alias that no request includes is still an error.
            let anonymous = TableAlias()
            let misuse: SQLRequest<Row> = "SELECT \(anonymous[Column("name")]) FROM player"
            #expect(throws: DatabaseError.self) { try misuse.fetchOne(db) }
        }
    }

    @Test("alias[AllColumns()] selects the columns of the aliased table")
    func aliasAllColumns() throws {
        try makeDatabase().read { (db: Database) throws in
            let teamAlias = TableAlias()
            let row = try Row.fetchOne(db, Player
                .joining(required: Player.team.aliased(teamAlias))
                .select(Column("name"), teamAlias[AllColumns()]))
            #expect(row == ["name": "p", "id": 1, "name": "red", "score": 100])
            let name = try String.fetchOne(db, Player
                .joining(required: Player.team.aliased(teamAlias))
                .select(teamAlias[Column("name")]))
            #expect(name == "red")
        }
    }

    @Test("columnsOf: qualifies the columns inside selected expressions")
    func columnsOfQualifiesExpressions() throws {
        try makeDatabase().read { (db: Database) throws in
            // team has score and name too: unqualified, they are ambiguous.
            let request: SQLRequest<Row> = "SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p JOIN team t ON t.id = p.teamId"
            #expect(try request.fetchOne(db) == ["id": 1, "double": 20, "up": "P"])
            let plain: SQLRequest<Row> = "SELECT \(columnsOf: Player.self) FROM player JOIN team ON team.id = player.teamId"
            #expect(try plain.fetchOne(db) == ["id": 1, "double": 20, "up": "P"])
        }
    }

    @Test("A foreign key that does not match the primary key of its table is a clear error")
    func foreignKeyMismatch() throws {
        struct User: TableRecord { static let databaseTableName = "user" }
        struct Mismatch: TableRecord {
            static let databaseTableName = "mismatch"
            static let user = belongsTo(User.self)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE user(id INTEGER PRIMARY KEY);
                CREATE TABLE mismatch(id INTEGER PRIMARY KEY, a INT, b INT, FOREIGN KEY(a, b) REFERENCES user);
                """)
            let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, Mismatch.including(required: Mismatch.user)) }
            #expect(error.message?.contains("foreign key mismatch") == true)
            #expect(error.message?.contains("(a, b)") == true)
            // The connection is still usable.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mismatch") == 0)
        }
    }
}

@Suite("GRDB parity: persistence and transactions")
struct GRDBPersistenceParityTests {
    struct Named: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "named"
        var id: Int64
        var name: String
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE named(id INTEGER PRIMARY KEY, name TEXT UNIQUE); INSERT INTO named VALUES (1, 'a')")
        }
        return dbQueue
    }

    @Test("After SQLite ends the transaction of a write, the statements that follow fail instead of committing one by one")
    func statementsAfterAnAbortedTransactionFail() throws {
        let dbQueue = try makeDatabase()
        var laterErrors: [DatabaseError] = []
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try Named(id: 2, name: "b").insert(db)
                // The UNIQUE conflict rolls the transaction back.
                do { try Named(id: 3, name: "a").insert(db, onConflict: .rollback) } catch {}
                do { try Named(id: 4, name: "c").insert(db) } catch let error as DatabaseError { laterErrors.append(error) }
                do { try db.execute(sql: "UPDATE named SET name = 'A' WHERE id = 1") } catch let error as DatabaseError { laterErrors.append(error) }
                do { _ = try Named.fetchAll(db) } catch let error as DatabaseError { laterErrors.append(error) }
            }
        }
        #expect(laterErrors.map(\.resultCode) == [.SQLITE_ABORT, .SQLITE_ABORT, .SQLITE_ABORT])
        #expect(error?.resultCode == .SQLITE_ABORT)
        #expect(error?.message == "Transaction was aborted")
        #expect(try dbQueue.read { try Row.fetchAll($0, sql: "SELECT id, name FROM named") } == [["id": 1, "name": "a"]])

        // A raw ROLLBACK inside a savepoint ends the transaction too.
        #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.inSavepoint {
                    try db.execute(sql: "ROLLBACK")
                    try db.execute(sql: "INSERT INTO named VALUES (5, 'e')")
                    return .commit
                }
            }
        }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM named") } == 1)
        // The connection is usable afterwards.
        try dbQueue.write { db in try Named(id: 6, name: "f").insert(db) }
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM named") } == 2)
    }

    @Test("A container column set twice, in two cases, is one column with the last value")
    func containerColumnsIgnoreCase() throws {
        struct Twice: PersistableRecord {
            static let databaseTableName = "named"
            var id: Int64
            func encode(to container: inout PersistenceContainer) {
                container["id"] = id
                container["name"] = "lower"
                container["NAME"] = "upper"
            }
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "DELETE FROM named")
            try Twice(id: 10).insert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            try db.execute(sql: "UPDATE named SET name = 'x'")
            try Twice(id: 10).update(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            try db.execute(sql: "DELETE FROM named")
            try Twice(id: 11).upsert(db)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM named ORDER BY id") == ["upper"])
            #expect(try Twice(id: 1).databaseDictionary.count == 2)
        }
    }

    @Test("An update writes only the encoded values that are columns of the table")
    func updateSkipsEncodedValuesThatAreNoColumns() throws {
        struct Extra: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "named"
            var id: Int64
            var name: String
            var nope: Int
        }
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try Extra(id: 1, name: "b", nope: 5).update(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM named") == "b")
            try Extra(id: 1, name: "c", nope: 5).save(db)
            let old = Extra(id: 1, name: "c", nope: 5)
            #expect(try Extra(id: 1, name: "d", nope: 6).updateChanges(db, from: old))
            #expect(try String.fetchOne(db, sql: "SELECT name FROM named") == "d")
            // An insert has no such leeway, as in GRDB.
            #expect(throws: DatabaseError.self) { try Extra(id: 2, name: "e", nope: 1).insert(db) }
        }
    }

    @Test("A change that a trigger ignores (RAISE(IGNORE)) after writing elsewhere changed no row")
    func ignoredChangesChangeNoRow() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE log(message TEXT);
                INSERT INTO named VALUES (2, 'keep');
                CREATE TRIGGER skipUpdate BEFORE UPDATE ON named WHEN NEW.name = 'skip'
                BEGIN INSERT INTO log VALUES ('skipped'); SELECT RAISE(IGNORE); END;
                CREATE TRIGGER keepRow BEFORE DELETE ON named WHEN OLD.name = 'keep'
                BEGIN INSERT INTO log VALUES ('kept'); SELECT RAISE(IGNORE); END;
                """)
            #expect(throws: RecordError.self) { try Named(id: 1, name: "skip").update(db) }
            #expect(try Named(id: 2, name: "keep").delete(db) == false)
            #expect(try Named.deleteOne(db, key: 2) == false)
            #expect(try Named.deleteOne(db, key: 1) == true)
            #expect(try String.fetchAll(db, sql: "SELECT message FROM log") == ["skipped", "kept", "kept"])
        }
    }

    @Test("Strategies are methods, as in GRDB 7: a static property of the former name is not read")
    func strategyPropertiesAreNotRead() throws {
        struct Stamped: Codable, PersistableRecord {
            static let databaseTableName = "stamped"
            static let databaseDateEncodingStrategy = DatabaseDateEncodingStrategy.timeIntervalSince1970
            static let databaseUUIDEncodingStrategy = DatabaseUUIDEncodingStrategy.uppercaseString
            var date: Date
            var uuid: UUID
        }
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE stamped(date, uuid)")
            try Stamped(date: Date(timeIntervalSince1970: 0), uuid: UUID()).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT date FROM stamped") == "1970-01-01 00:00:00.000")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(uuid) FROM stamped") == "blob")
        }
    }

    @Test("Coding strategies apply to single-value keys, not to key dictionaries")
    func strategiesDoNotApplyToKeyDictionaries() throws {
        struct Token: Codable, FetchableRecord, PersistableRecord, Identifiable {
            static let databaseTableName = "token"
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy { .uppercaseString }
            var id: UUID
        }
        try DatabaseQueue().write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE token(id TEXT PRIMARY KEY)")
            let id = UUID()
            try Token(id: id).insert(db)
            #expect(try Token.fetchOne(db, key: id) != nil)
            #expect(try Token.fetchOne(db, id: id) != nil)
            #expect(try Token.fetchOne(db, key: ["id": id]) == nil)
            #expect(try Token.fetchOne(db, key: ["id": id.uuidString]) != nil)
        }
    }
}

@Suite("GRDB parity: RETURNING and persistence API")
struct GRDBReturningParityTests {
    struct Partial: Codable, FetchableRecord, MutablePersistableRecord, Equatable {
        static let databaseTableName = "x"
        static let databaseSelection: [any SQLSelectable] = [Column("id"), Column("name")]
        var id: Int64?
        var name: String
        var score: Int?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Excluding: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
        static let databaseTableName = "x"
        static let databaseSelection: [any SQLSelectable] = [.allColumns(excluding: ["score"])]
        var id: Int64
        var name: String
        var score: Int?
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: "CREATE TABLE x(id INTEGER PRIMARY KEY, name TEXT, score INT)")
        }
        return dbQueue
    }

    @Test("The …AndFetch methods return the columns of the record's databaseSelection")
    func andFetchMethodsHonorTheSelection() throws {
        try makeDatabase().write { (db: Database) throws in
            let inserted = try Partial(id: nil, name: "a", score: 5).insertAndFetch(db)
            #expect(inserted == Partial(id: 1, name: "a", score: nil))
            var record = inserted
            record.name = "b"
            #expect(try record.updateAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            #expect(try record.saveAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            #expect(try record.upsertAndFetch(db) == Partial(id: 1, name: "b", score: nil))
            let changed = try record.updateChangesAndFetch(db) { $0.name = "c" }
            #expect(changed == Partial(id: 1, name: "c", score: nil))

            let excluding = try Excluding(id: 2, name: "e", score: 7).insertAndFetch(db)
            #expect(excluding == Excluding(id: 2, name: "e", score: nil))
            #expect(try Excluding.filter(id: 2).deleteAndFetchAll(db) == [Excluding(id: 2, name: "e", score: nil)])
        }
    }

    @Test("updateChanges and saveAndFetch take a conflict resolution and a selection, as in GRDB")
    func moreConflictAndSelectionVariants() throws {
        try makeDatabase().write { (db: Database) throws in
            try db.execute(sql: "CREATE UNIQUE INDEX xName ON x(name)")
            var a = Partial(id: nil, name: "a", score: 1)
            try a.insert(db)
            var b = Partial(id: nil, name: "b", score: 2)
            try b.insert(db)
            // The conflict with a's name replaces a's row.
            #expect(try b.updateChanges(db, onConflict: .replace) { $0.name = "a" })
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM x") == 1)
            let old = b
            b.score = 3
            #expect(try b.updateChanges(db, onConflict: .abort, from: old))
            let score = try b.saveAndFetch(db, selection: [Column("score")]) { try Int.fetchOne($0) }
            #expect(score == 3)
        }
    }

    @Test("deleteAndFetchIds returns the set of deleted ids; a nil key finds and deletes nothing")
    func deleteAndFetchIdsAndNilKeys() throws {
        try makeDatabase().write { (db: Database) throws in
            for id in 1...3 { try Excluding(id: Int64(id), name: "\(id)", score: id).insert(db) }
            #expect(try Excluding.filter(Column("score") >= 2).deleteAndFetchIds(db) == [2, 3])
            #expect(try Excluding.fetchOne(db, key: nil) == nil)
            #expect(try Excluding.deleteOne(db, key: nil) == false)
            let key: Int64? = 1
            #expect(try Excluding.fetchOne(db, key: key)?.name == "1")
            #expect(try Excluding.deleteOne(db, key: key))
        }
    }
}

import Foundation
import Testing
import Trellis

/// The corners of SQLite that real files use and that tools which create
/// tables through Trellis never write: STRICT and WITHOUT ROWID tables,
/// generated columns, `INTEGER PRIMARY KEY DESC`, tables without primary
/// key, odd identifiers, broken views, triggers, full-text tables and
/// SQLite's statistics.
@Suite struct SQLiteSpecialsTests {
    static let script = #"""
        CREATE TABLE measure (id INTEGER PRIMARY KEY, value REAL NOT NULL, label TEXT, extra ANY) STRICT;
        CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT) WITHOUT ROWID;
        CREATE TABLE pairing (a INTEGER NOT NULL, b TEXT NOT NULL, note TEXT, PRIMARY KEY (a, b)) WITHOUT ROWID, STRICT;
        CREATE TABLE line (
          id INTEGER PRIMARY KEY,
          price REAL NOT NULL,
          quantity INTEGER NOT NULL,
          total REAL GENERATED ALWAYS AS (price * quantity) VIRTUAL,
          label TEXT GENERATED ALWAYS AS ('line ' || id) STORED);
        CREATE TABLE ranked (id INTEGER PRIMARY KEY DESC, name TEXT);
        CREATE TABLE ascending (id integer primary key asc, name TEXT);
        CREATE TABLE log (message TEXT, level);
        CREATE TABLE membership (groupId INTEGER NOT NULL, userId INTEGER NOT NULL, role TEXT, PRIMARY KEY (groupId, userId));
        CREATE TABLE country (id INTEGER PRIMARY KEY, code TEXT NOT NULL UNIQUE, name TEXT);
        CREATE TABLE city (id INTEGER PRIMARY KEY, countryCode TEXT REFERENCES country(code), name TEXT);
        CREATE TABLE Parent (id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE child (id INTEGER PRIMARY KEY, parentId INTEGER REFERENCES PARENT(id), name TEXT);
        CREATE TABLE orphan (id INTEGER PRIMARY KEY, ghostId INTEGER REFERENCES ghost);
        CREATE TABLE stray (id INTEGER PRIMARY KEY, ghostId INTEGER REFERENCES ghost(id));
        CREATE TABLE "order" ("group" INTEGER, "select" TEXT, "where" TEXT);
        CREATE TABLE "my table" ("my column" TEXT, "it's" TEXT, "a.b" TEXT, "prénom" TEXT, "say ""hi""" TEXT);
        CREATE TABLE "Café" (id INTEGER PRIMARY KEY, "crème" TEXT);
        CREATE TABLE sqlitebrowser_rename_column_new_table (id INTEGER PRIMARY KEY);
        CREATE TABLE audit (id INTEGER PRIMARY KEY, tableName TEXT, rowID INTEGER);
        CREATE TRIGGER log_audit AFTER INSERT ON log BEGIN
          INSERT INTO audit (tableName, rowID) VALUES ('log', new.rowid);
        END;
        CREATE VIEW countryCity AS SELECT country.name AS country, city.name AS city FROM city JOIN country ON country.code = city.countryCode;
        CREATE TABLE doomed (id INTEGER PRIMARY KEY);
        CREATE VIEW brokenView AS SELECT id FROM doomed;
        DROP TABLE doomed;
        CREATE VIRTUAL TABLE note USING fts5(title, body);
        INSERT INTO measure VALUES (1, 1.5, 'one', x'00'), (2, 2, NULL, 'two');
        INSERT INTO setting VALUES ('theme', 'dark'), ('lang', 'fr');
        INSERT INTO pairing VALUES (1, 'x', NULL);
        INSERT INTO line (id, price, quantity) VALUES (1, 2.5, 4);
        INSERT INTO ranked (id, name) VALUES (10, 'ten'), (20, 'twenty');
        INSERT INTO log VALUES ('started', 1), ('stopped', 'info'), ('idle', NULL);
        INSERT INTO membership VALUES (1, 1, 'owner'), (1, 2, 'member'), (2, 1, 'member');
        INSERT INTO country VALUES (1, 'FR', 'France'), (2, 'JP', 'Japan');
        INSERT INTO city VALUES (1, 'FR', 'Paris'), (2, 'FR', 'Lyon'), (3, 'JP', 'Kyoto'), (4, NULL, 'Atlantis');
        INSERT INTO Parent VALUES (1, 'Ann');
        INSERT INTO child VALUES (1, 1, 'Bob'), (2, NULL, 'Cid');
        INSERT INTO "order" VALUES (1, 'a', 'here'), (2, 'b', NULL);
        INSERT INTO "my table" VALUES ('c', 'it is', 'dot', 'Zoé', 'hello');
        INSERT INTO "Café" VALUES (1, 'fraîche');
        INSERT INTO note (title, body) VALUES ('SQLite', 'Full-text search in SQLite'), ('Swift', 'Typed records');
        CREATE INDEX log_level ON log(level);
        CREATE INDEX city_lower_name ON city(lower(name));
        ANALYZE;
        """#

    @Test func everyTableAndViewIsIntrospectedAndFetched() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            for (type, name) in try file.schemaObjects(db) where name != "brokenView" {
                let columns = try db.columns(in: name)
                #expect(!columns.isEmpty, "\(name)")
                let rows = try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)")
                #expect(rows.count == (try Table(name).fetchCount(db)), "\(name)")
                #expect(try Table(name).fetchAll(db).count == rows.count, "\(name)")
                if type == "table" {
                    #expect(try db.tableExists(name))
                    #expect(try !db.primaryKey(name).columns.isEmpty, "\(name)")
                    if name != "orphan" { _ = try db.foreignKeys(on: name) }
                    _ = try db.indexes(on: name)
                }
            }
            #expect(try Row.fetchAll(db, sql: "SELECT * FROM sqlite_stat1").count > 0)
            #expect(try db.tableExists("sqlite_stat1"))
            #expect(Database.isSQLiteInternalTable("sqlite_stat1"))
            #expect(!Database.isSQLiteInternalTable("sqlitebrowser_rename_column_new_table"))
        }
    }

    @Test func integerPrimaryKeyDescIsNoAliasOfTheRowID() throws {
        struct Ranked: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "ranked"
            var id: Int64?
            var name: String
            var insertedRowIDColumn: String?? = .none
            enum CodingKeys: String, CodingKey { case id, name }
            mutating func didInsert(_ inserted: InsertionSuccess) { insertedRowIDColumn = .some(inserted.rowIDColumn) }
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let primaryKey = try db.primaryKey("ranked")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(primaryKey.isRowID == false)
            // `integer primary key asc` is one, whatever the case.
            #expect(try db.primaryKey("ascending").rowIDColumn == "id")
            #expect(try db.primaryKey("ascending").isRowID)

            // The id is not the rowid: a record inserted without id keeps
            // none, and nothing pretends the rowid is its id.
            var record = Ranked(id: nil, name: "none")
            try record.insert(db)
            #expect(record.insertedRowIDColumn == .some(nil))
            #expect(try Row.fetchOne(db, sql: "SELECT rowid, id FROM ranked WHERE name = 'none'") == ["rowid": 3, "id": nil])
            var twenty = try #require(try Ranked.fetchOne(db, key: 20))
            twenty.name = "XX"
            try twenty.update(db)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM ranked WHERE id = 20") == "XX")
            var thirty = Ranked(id: 30, name: "thirty")
            try thirty.upsert(db)
            #expect(try Ranked.deleteOne(db, key: 10))
            #expect(try Ranked.order(Column("id")).fetchAll(db).map(\.id) == [nil, 20, 30])
        }
    }

    @Test func theRowIDIsThePrimaryKeyAsGRDBSaysIt() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            // A hidden rowid: the key, without a column that aliases it.
            let log = try db.primaryKey("log")
            #expect(log.columns == ["rowid"])
            #expect(log.isRowID)
            #expect(log.rowIDColumn == nil)
            // An INTEGER PRIMARY KEY: the rowid, under its own name.
            let country = try db.primaryKey("country")
            #expect(country.isRowID)
            #expect(country.rowIDColumn == "id")
            // Other keys are not the rowid.
            #expect(try db.primaryKey("membership").isRowID == false)
            #expect(try db.primaryKey("setting").isRowID == false)
            #expect(try db.primaryKey("setting").rowIDColumn == nil)
            // The hidden rowid of a full-text table.
            #expect(try db.primaryKey("note").columns == ["rowid"])
            #expect(try db.primaryKey("note").isRowID)

            #expect(try db.table("log", hasUniqueKey: ["rowid"]))
            #expect(try db.table("country", hasUniqueKey: ["rowid"]))
            // A WITHOUT ROWID table has no rowid.
            #expect(try db.table("setting", hasUniqueKey: ["rowid"]) == false)
            #expect(try db.table("setting", hasUniqueKey: ["key"]))
            #expect(try db.table("membership", hasUniqueKey: ["userId", "groupId"]))
            #expect(try db.table("membership", hasUniqueKey: ["groupId"]) == false)
            #expect(try db.table("country", hasUniqueKey: ["code"]))
        }
    }

    @Test func aTableWithoutPrimaryKeyIsKeyedByItsRowID() throws {
        struct LogEntry: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseTableName = "log"
            var message: String
        }
        struct RowIDLogEntry: Codable, FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "log"
            static let databaseSelection: [any SQLSelectable] = [AllColumns(), Column.rowID]
            var rowid: Int64?
            var message: String
            mutating func didInsert(_ inserted: InsertionSuccess) { rowid = inserted.rowID }
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try LogEntry.fetchOne(db, key: 2) == LogEntry(message: "stopped"))
            // A record that does not encode the rowid matches no row, as
            // in GRDB: nothing to update, delete, nor find.
            let entry = LogEntry(message: "started")
            #expect(try entry.exists(db) == false)
            #expect(try entry.delete(db) == false)
            let error = #expect(throws: RecordError.self) { try entry.update(db) }
            #expect(error?.description == "Key not found in table log: [rowid:NULL]")
            try entry.save(db)  // inserts
            #expect(try LogEntry.fetchCount(db) == 4)
            #expect(try LogEntry.deleteOne(db, key: 1))
            #expect(try LogEntry.deleteOne(db, key: 1) == false)

            // A record that selects and encodes the rowid uses it.
            var keyed = RowIDLogEntry(rowid: nil, message: "keyed")
            try keyed.insert(db)
            let rowID = try #require(keyed.rowid)
            keyed.message = "rekeyed"
            try keyed.update(db)
            #expect(try RowIDLogEntry.fetchOne(db, key: rowID)?.message == "rekeyed")
            #expect(try keyed.exists(db))
            #expect(try keyed.delete(db))
            // The trigger of the table ran for each insert.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM audit WHERE tableName = 'log'") == 5)
            #expect(try db.triggerExists("log_audit"))
        }
    }

    @Test func withoutRowIDTablesPersistByTheirPrimaryKey() throws {
        struct Setting: Codable, FetchableRecord, PersistableRecord, Equatable {
            var key: String
            var value: String?
        }
        struct Pairing: Codable, FetchableRecord, PersistableRecord, Equatable {
            var a: Int
            var b: String
            var note: String?
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            try Setting(key: "volume", value: "11").insert(db)
            try Setting(key: "theme", value: "light").update(db)
            try Setting(key: "font", value: "mono").save(db)
            try Setting(key: "lang", value: "en").upsert(db)
            #expect(try Setting.fetchOne(db, key: "theme")?.value == "light")
            #expect(try Setting.fetchOne(db, key: "lang")?.value == "en")
            #expect(try Setting.deleteOne(db, key: "font"))
            #expect(try Setting.order(Column("key")).fetchAll(db).map(\.key) == ["lang", "theme", "volume"])
            let missing = #expect(throws: RecordError.self) { try Setting(key: "nope", value: nil).update(db) }
            #expect(missing?.description == #"Key not found in table setting: [key:"nope"]"#)

            // A composite key of a STRICT table.
            try Pairing(a: 1, b: "y", note: "new").insert(db)
            try Pairing(a: 1, b: "x", note: "updated").update(db)
            try Pairing(a: 2, b: "x", note: nil).upsert(db)
            #expect(try Pairing.fetchOne(db, key: ["a": 1, "b": "x"])?.note == "updated")
            #expect(try Pairing(a: 2, b: "x", note: nil).exists(db))
            #expect(try Pairing.deleteOne(db, key: ["a": 2, "b": "x"]))
            let single = #expect(throws: DatabaseError.self) { try Pairing.fetchOne(db, key: 1) }
            #expect(single?.message?.contains("primary key of 2 columns") == true)
            let partial = #expect(throws: DatabaseError.self) { try Pairing.fetchOne(db, key: ["a": 1]) }
            #expect(partial?.message == "table pairing has no unique key on column(s) a")
            // STRICT refuses what its column types do not allow.
            let strict = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO pairing VALUES ('three', 'z', NULL)") }
            #expect(strict?.resultCode == .SQLITE_CONSTRAINT)
        }
    }

    @Test func generatedColumnsAreReadButNotWritten() throws {
        struct Line: Codable, FetchableRecord, MutablePersistableRecord {
            var id: Int64?
            var price: Double
            var quantity: Int
            mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
        }
        struct LineWithTotals: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "line"
            var id: Int64
            var price: Double
            var quantity: Int
            var total: Double
            var label: String
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try db.columns(in: "line").map(\.name) == ["id", "price", "quantity", "total", "label"])
            var line = Line(id: nil, price: 3, quantity: 2)
            try line.insert(db)
            let read = try #require(try LineWithTotals.fetchOne(db, key: line.id))
            #expect(read.total == 6)
            #expect(read.label == "line 2")
            // SQLite refuses writes to generated columns: a clear error.
            let error = #expect(throws: DatabaseError.self) { try read.update(db) }
            #expect(error?.message == #"cannot UPDATE generated column "total""#)
        }
    }

    @Test func oddIdentifiersAreQuoted() throws {
        struct Order: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseTableName = "order"
            var group: Int
            var select: String
            var `where`: String?
        }
        struct Odd: Codable, FetchableRecord, PersistableRecord, Equatable {
            static let databaseTableName = "my table"
            var myColumn: String
            var itIs: String?
            var aDotB: String?
            var prénom: String
            var sayHi: String?
            enum CodingKeys: String, CodingKey {
                case myColumn = "my column", itIs = "it's", aDotB = "a.b", prénom, sayHi = #"say "hi""#
            }
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try Order.filter(Column("group") == 1).fetchOne(db) == Order(group: 1, select: "a", where: "here"))
            try Order(group: 3, select: "c", where: nil).insert(db)
            #expect(try Order.filter(Column("where") == nil).order(Column("group")).fetchAll(db).map(\.group) == [2, 3])
            #expect(try Order.select(max(Column("group")), as: Int.self).fetchOne(db) == 3)
            let byGroup = try Row.fetchAll(db, Order.select(Column("select"), count(Column("group"))).group(Column("select")))
            #expect(byGroup.count == 3)

            let odd = try #require(try Odd.fetchOne(db))
            #expect(odd == Odd(myColumn: "c", itIs: "it is", aDotB: "dot", prénom: "Zoé", sayHi: "hello"))
            try Odd(myColumn: "d", itIs: nil, aDotB: nil, prénom: "Éloïse", sayHi: "yo").insert(db)
            #expect(try Odd.filter(Column("prénom") == "Éloïse").fetchOne(db)?.sayHi == "yo")
            #expect(try db.columns(in: "my table").map(\.name) == ["my column", "it's", "a.b", "prénom", #"say "hi""#])

            // SQLite ignores the case of ASCII letters only.
            #expect(try db.tableExists("café"))
            #expect(try db.tableExists("CAFÉ") == false)
            #expect(try Table("café").fetchOne(db) == ["id": 1, "crème": "fraîche"])
            let error = #expect(throws: DatabaseError.self) { try Table("CAFÉ").fetchCount(db) }
            #expect(error?.message == "no such table: CAFÉ")
        }
    }

    @Test func viewsAreReadAndABrokenViewFailsClearly() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            #expect(try db.viewExists("countryCity"))
            #expect(try db.tableExists("countryCity") == false)
            #expect(try db.columns(in: "countryCity").map(\.name) == ["country", "city"])
            let rows = try Row.fetchAll(db, Table("countryCity").order(Column("city")))
            #expect(rows.map { $0["city"] as String } == ["Kyoto", "Lyon", "Paris"])
            let noKey = #expect(throws: DatabaseError.self) { try db.primaryKey("countryCity") }
            #expect(noKey?.message == "database view countryCity has no primary key")

            #expect(try db.viewExists("brokenView"))
            let columns = #expect(throws: DatabaseError.self) { try db.columns(in: "brokenView") }
            #expect(columns?.message == "no such table: main.doomed")
            let fetch = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM brokenView") }
            #expect(fetch?.message == "no such table: main.doomed")
            let count = #expect(throws: DatabaseError.self) { try Table("brokenView").fetchCount(db) }
            #expect(count?.message == "no such table: main.doomed")
        }
    }

    @Test func foreignKeysToUniqueColumnsAndOtherCasesAreFollowed() throws {
        struct Country: Codable, FetchableRecord, TableRecord {
            static let cities = hasMany(City.self)
            var id: Int64
            var code: String
            var name: String
        }
        struct City: Codable, FetchableRecord, TableRecord {
            static let country = belongsTo(Country.self)
            var id: Int64
            var countryCode: String?
            var name: String
        }
        struct Parent: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "Parent"
            static let children = hasMany(Child.self)
            var id: Int64
            var name: String
        }
        struct Child: Codable, FetchableRecord, TableRecord {
            static let parent = belongsTo(Parent.self)
            var id: Int64
            var parentId: Int64?
            var name: String
        }
        struct CityInfo: Decodable, FetchableRecord {
            var city: City
            var country: Country
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            let cityKeys = try db.foreignKeys(on: "city")
            #expect(cityKeys.map(\.destinationTable) == ["country"])
            #expect(cityKeys.map(\.mapping.first?.destination) == ["code"])
            let infos = try City.including(required: City.country).order(Column("name")).asRequest(of: CityInfo.self).fetchAll(db)
            #expect(infos.map { "\($0.city.name)/\($0.country.name)" } == ["Kyoto/Japan", "Lyon/France", "Paris/France"])
            let counts = try Row.fetchAll(db, Country.annotated(with: Country.cities.count).order(Column("id")))
            #expect(counts.map { $0["cityCount"] as Int } == [2, 1])

            // `REFERENCES PARENT` finds the table `Parent`.
            #expect(try db.foreignKeys(on: "child").map(\.destinationTable) == ["PARENT"])
            let children = try Child.joining(required: Child.parent).fetchAll(db)
            #expect(children.map(\.name) == ["Bob"])
            #expect(try Parent.having(Parent.children.count == 1).fetchCount(db) == 1)

            // A foreign key to a missing table with explicit columns is
            // listed; joining it fails with a clear error.
            #expect(try db.foreignKeys(on: "stray").map(\.destinationColumns) == [["id"]])
            let stray = Table("stray")
            let join = #expect(throws: DatabaseError.self) {
                try stray.joining(required: stray.belongsTo(Table("ghost"))).fetchAll(db)
            }
            #expect(join?.message == "no such table: ghost")
            // Without destination columns, they are those of the primary
            // key of a table that is not there: an error, as in GRDB.
            let implicit = #expect(throws: DatabaseError.self) { try db.foreignKeys(on: "orphan") }
            #expect(implicit?.message == "no such table: ghost")
        }
    }

    @Test func fullTextTablesAndTheirShadowTablesAreReadable() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            #expect(try db.columns(in: "note").map(\.name) == ["title", "body"])
            let titles = try String.fetchAll(db, sql: "SELECT title FROM note WHERE note MATCH ? ORDER BY rank", arguments: ["sqlite"])
            #expect(titles == ["SQLite"])
            #expect(try Table("note").filter(key: 2).fetchOne(db)?["title"] == "Swift")
            for shadow in ["note_data", "note_idx", "note_content", "note_docsize", "note_config"] {
                #expect(try db.tableExists(shadow))
                #expect(try Table(shadow).fetchCount(db) > 0 || shadow == "note_idx")
            }
            #expect(try db.primaryKey("note_idx").columns == ["segid", "term"])
            let error = #expect(throws: DatabaseError.self) { try Table("note_idx").filter(key: 1).fetchOne(db) }
            #expect(error?.message?.contains("primary key of 2 columns") == true)
        }
    }
}

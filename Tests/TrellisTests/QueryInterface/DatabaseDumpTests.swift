import Testing
import Trellis

/// Captures what the dump methods print.
private final class Output: TextOutputStream, @unchecked Sendable {
    var text = ""
    func write(_ string: String) { text += string }
}

/// The dump methods print what GRDB 7.10.0 prints for the same database
/// (recorded from GRDB itself).
@Suite struct DatabaseDumpTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE team(id TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, teamId TEXT, score REAL, data BLOB);
                INSERT INTO team VALUES ('red', 'Red'), ('blue', 'Blue');
                INSERT INTO player VALUES (1, 'Arthur', 'red', 1.5, x'0102'), (2, NULL, 'blue', NULL, NULL);
                """)
        }
        return dbQueue
    }

    private func dump(_ body: (Database, Output) throws -> Void) throws -> String {
        let output = Output()
        try makeDatabase().read { db in try body(db, output) }
        return output.text
    }

    @Test func rowsPrintInTheFormatsOfTheSQLiteShell() throws {
        #expect(try dump { db, out in try db.dumpSQL("SELECT id, name, teamId, score FROM player ORDER BY id", to: out) }
            == "1|Arthur|red|1.5\n2||blue|\n")
        #expect(try dump { db, out in try db.dumpSQL("SELECT id, name FROM player", format: .debug(header: true), to: out) }
            == "id|name\n1|Arthur\n2|\n")
        #expect(try dump { db, out in try db.dumpSQL("SELECT * FROM player", format: .quote(), to: out) }
            == "1,'Arthur','red',1.5,X'0102'\n2,NULL,'blue',NULL,NULL\n")
        #expect(try dump { db, out in try db.dumpSQL("SELECT id, name, teamId FROM player WHERE id = 1", format: .line(), to: out) }
            == "    id = 1\n  name = Arthur\nteamId = red\n")
        #expect(try dump { db, out in try db.dumpSQL("SELECT * FROM player", format: .json(), to: out) }
            == #"[{"id":1,"name":"Arthur","teamId":"red","score":1.5,"data":"AQI="},"# + "\n"
                + #"{"id":2,"name":null,"teamId":"blue","score":null,"data":null}]"# + "\n")
        #expect(try dump { db, out in try db.dumpRequest(Table("team").order(Column("id")), to: out) } == "blue|Blue\nred|Red\n")
    }

    @Test func tablesAndContentPrintUnderTheirNames() throws {
        #expect(try dump { db, out in try db.dumpTables(["team", "player"], format: .debug(), to: out) }
            == "team\nblue|Blue\nred|Red\n\nplayer\n1|Arthur|red|1.5|\u{1}\u{2}\n2||blue||\n")
        #expect(try dump { db, out in try db.dumpTables(["team"], to: out) } == "blue|Blue\nred|Red\n")
        let content = try dump { db, out in try db.dumpContent(to: out) }
        #expect(content.hasPrefix("""
            sqlite_master
            CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, teamId TEXT, score REAL, data BLOB);
            CREATE TABLE team(id TEXT PRIMARY KEY, name TEXT);

            player
            1|Arthur|red|1.5|
            """))
        #expect(content.hasSuffix("team\nblue|Blue\nred|Red\n"))
        #expect(throws: DatabaseError.self) { try dump { db, out in try db.dumpTables(["missing"], to: out) } }
    }

    @Test func binaryBlobsPrintAsHexOrNotAtAll() throws {
        let sql: SQL = "SELECT x'414243' AS a, x'00ff' AS b"
        #expect(try dump { db, out in try db.dumpSQL(sql, to: out) } == "ABC|X'00FF'\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: .list(), to: out) } == "ABC|\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: .line(), to: out) } == "a = ABC\nb = \n")
    }

    @Test func contentOfRealDatabasesPrintsByKey() throws {
        let dbQueue = try DatabaseQueue()
        let content = try dbQueue.write { (db: Database) throws -> String in
            // A table whose name starts like SQLite's own, and a table
            // without primary key, whose rows print in rowid order.
            try db.execute(sql: """
                CREATE TABLE sqliteX(a);
                INSERT INTO sqliteX VALUES (1);
                CREATE TABLE nopk(a, b);
                INSERT INTO nopk VALUES (1, 2), (NULL, NULL);
                """)
            let output = Output()
            try db.dumpContent(to: output)
            return output.text
        }
        #expect(content == """
            sqlite_master
            CREATE TABLE nopk(a, b);
            CREATE TABLE sqliteX(a);

            nopk
            1|2
            |

            sqliteX
            1

            """)
    }
}

import Foundation
import Testing
import Trellis

/// Captures what the dump methods print.
private final class Output: TextOutputStream, @unchecked Sendable {
    var text = ""
    func write(_ string: String) { text += string }
}

/// Counts the rows of each statement, to check that a format of one's own
/// gets every row, then the end of each statement.
private struct CountDumpFormat: DumpFormat {
    var count = 0
    mutating func writeRow(_ db: Database, statement: Statement, to stream: inout DumpStream) throws {
        count += 1
    }
    mutating func finalize(_ db: Database, statement: Statement, to stream: inout DumpStream) {
        stream.write("\(count) rows\n")
        count = 0
    }
}

/// The named dump formats of GRDB, and `tableHeader:`.
@Suite struct DumpFormatTests {
    private func dump(_ body: (Database, Output) throws -> Void) throws -> String {
        let dbQueue = try DatabaseQueue()
        let output = Output()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT, url TEXT, data BLOB);
                INSERT INTO player VALUES (1, 'Arthur', 'a/b', x'0102'), (2, NULL, NULL, NULL);
                CREATE TABLE team(id INTEGER PRIMARY KEY);
                """)
            try body(db, output)
        }
        return output.text
    }

    @Test func namedFormatsPrintAsTheirStaticConstructors() throws {
        let sql: SQL = "SELECT id, name FROM player ORDER BY id"
        #expect(try dump { db, out in try db.dumpSQL(sql, format: DebugDumpFormat(header: true, nullValue: "-"), to: out) }
            == "id|name\n1|Arthur\n2|-\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: ListDumpFormat(separator: ","), to: out) }
            == "1,Arthur\n2,\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: QuoteDumpFormat(), to: out) }
            == "1,'Arthur'\n2,NULL\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: LineDumpFormat(nullValue: "NULL"), to: out) }
            == "  id = 1\nname = Arthur\n\n  id = 2\nname = NULL\n")
        #expect(try dump { db, out in try db.dumpSQL(sql, format: JSONDumpFormat(), to: out) }
            == "[{\"id\":1,\"name\":\"Arthur\"},\n{\"id\":2,\"name\":null}]\n")
    }

    @Test func jsonUsesItsEncoder() throws {
        let sql: SQL = "SELECT url, data FROM player WHERE id = 1"
        #expect(try dump { db, out in try db.dumpSQL(sql, format: .json(), to: out) }
            == "[{\"url\":\"a/b\",\"data\":\"AQI=\"}]\n")
        let encoder = JSONDumpFormat.defaultEncoder
        encoder.dataEncodingStrategy = .custom { data, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(data.map { String($0) }.joined(separator: "-"))
        }
        #expect(try dump { db, out in try db.dumpSQL(sql, format: .json(encoder), to: out) }
            == "[{\"url\":\"a/b\",\"data\":\"1-2\"}]\n")
        #expect(try dump { db, out in try db.dumpSQL("SELECT * FROM team", format: .json(), to: out) } == "[]\n")
    }

    @Test func headersStartAgainForEachTable() throws {
        #expect(try dump { db, out in
            try db.dumpTables(["player", "player"], format: .quote(header: true), to: out)
        } == """
            player
            'id','name','url','data'
            1,'Arthur','a/b',X'0102'
            2,NULL,NULL,NULL

            player
            'id','name','url','data'
            1,'Arthur','a/b',X'0102'
            2,NULL,NULL,NULL

            """)
    }

    @Test func tableNamesPrintAlwaysWhenAsked() throws {
        #expect(try dump { db, out in try db.dumpTables(["team"], to: out) } == "")
        #expect(try dump { db, out in try db.dumpTables(["team"], tableHeader: .always, to: out) } == "team\n")
        #expect(try dump { db, out in try db.dumpTables(["player"], format: .list(), tableHeader: .always, to: out) }
            == "player\n1|Arthur|a/b|\u{1}\u{2}\n2|||\n")
    }

    @Test func formatsOfOnesOwnSeeEveryRowThenTheEnd() throws {
        #expect(try dump { db, out in try db.dumpTables(["player", "team"], format: CountDumpFormat(), to: out) }
            == "player\n2 rows\n\nteam\n0 rows\n")
        let dbQueue = try DatabaseQueue()
        let output = Output()
        try dbQueue.dumpSQL("SELECT 1 UNION ALL SELECT 2", format: CountDumpFormat(), to: output)
        #expect(output.text == "2 rows\n")
    }

    @Test func sqlOfSeveralStatementsPrintsTheRowsOfEach() throws {
        #expect(try dump { db, out in
            try db.dumpSQL("""
                INSERT INTO team VALUES (\(7));
                SELECT id FROM team;
                SELECT name FROM player WHERE id = 1
                """, format: .json(), to: out)
        } == "[{\"id\":7}]\n[{\"name\":\"Arthur\"}]\n")
        #expect(throws: DatabaseError.self) { try dump { db, out in try db.dumpSQL("SELECT 1; SELECT * FROM missing", to: out) } }
    }

    @Test func streamsSeparateWithMargins() {
        let output = Output()
        var stream = DumpStream(output)
        stream.margin()
        stream.write("a\n")
        stream.margin()
        stream.margin()
        stream.write("b\n")
        stream.margin()
        #expect(output.text == "a\n\nb\n")
    }
}

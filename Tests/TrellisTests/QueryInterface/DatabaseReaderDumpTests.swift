import Testing
import Trellis

@Suite struct DatabaseReaderDumpTests {
    final class Output: TextOutputStream, @unchecked Sendable {
        var text = ""
        func write(_ string: String) { text += string }
    }

    @Test func readersDumpAsTheirConnectionDoes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO player VALUES (1, 'Arthur')")
        }
        for kind in ["sql", "request", "tables", "content", "schema"] {
            let fromReader = Output(), fromDatabase = Output()
            func dump(_ output: Output, _ reader: (any DatabaseReader)?, _ db: Database?) throws {
                switch kind {
                case "sql":
                    if let reader { try reader.dumpSQL("SELECT * FROM player", format: .json(), to: output) }
                    if let db { try db.dumpSQL("SELECT * FROM player", format: .json(), to: output) }
                case "request":
                    if let reader { try reader.dumpRequest(Table("player").all(), to: output) }
                    if let db { try db.dumpRequest(Table("player").all(), to: output) }
                case "tables":
                    if let reader { try reader.dumpTables(["player"], format: .line(), to: output) }
                    if let db { try db.dumpTables(["player"], format: .line(), to: output) }
                case "content":
                    if let reader { try reader.dumpContent(to: output) }
                    if let db { try db.dumpContent(to: output) }
                default:
                    if let reader { try reader.dumpSchema(to: output) }
                    if let db { try db.dumpSchema(to: output) }
                }
            }
            try dump(fromReader, dbQueue, nil)
            try dbQueue.read { db in try dump(fromDatabase, nil, db) }
            #expect(!fromReader.text.isEmpty)
            #expect(fromReader.text == fromDatabase.text, "\(kind)")
        }
    }

    @Test func aReaderDumpsFromTheAccessThatRunsOnThisThread() throws {
        let dbQueue = try DatabaseQueue()
        let output = Output()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (42)")
            // Not reentrant otherwise: this would throw.
            try dbQueue.dumpSQL("SELECT a FROM t", to: output)
        }
        #expect(output.text == "42\n")
    }
}

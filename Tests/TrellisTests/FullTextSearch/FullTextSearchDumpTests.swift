import Testing
import Trellis

@Suite struct FullTextSearchDumpTests {
    @Test func dumpsLeaveOutTheShadowTablesAsGRDBDoes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE book(id INTEGER PRIMARY KEY, author TEXT, title TEXT);
                INSERT INTO book VALUES (1,'Melville','Moby Dick');
                CREATE VIRTUAL TABLE book_ft USING fts5(author, title, content='book', content_rowid='id');
                INSERT INTO book_ft(book_ft) VALUES('rebuild');
                CREATE VIRTUAL TABLE doc USING fts4(content);
                INSERT INTO doc VALUES ('hello');
                """)
        }
        final class Output: TextOutputStream, @unchecked Sendable {
            var text = ""
            func write(_ string: String) { text += string }
        }
        let output = Output()
        try dbQueue.read { (db: Database) throws in try db.dumpContent(to: output) }
        // The output of GRDB 7.10 for the same database.
        #expect(output.text == """
            sqlite_master
            CREATE TABLE book(id INTEGER PRIMARY KEY, author TEXT, title TEXT);
            CREATE VIRTUAL TABLE book_ft USING fts5(author, title, content='book', content_rowid='id');
            CREATE VIRTUAL TABLE doc USING fts4(content);

            book
            1|Melville|Moby Dick

            book_ft
            Melville|Moby Dick

            doc
            hello

            """)
    }
}

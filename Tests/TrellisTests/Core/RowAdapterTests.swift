import Testing
import Trellis

private struct Book: Decodable, FetchableRecord {
    var id: Int64
    var title: String
}

private struct Author: Decodable, FetchableRecord {
    var id: Int64
    var name: String
}

private struct BookInfo: Decodable, FetchableRecord {
    var book: Book
    var author: Author
}

/// Row adapters, as GRDB documents them for joined rows of raw SQL.
@Suite struct RowAdapterTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, authorId INTEGER REFERENCES author(id));
                INSERT INTO author VALUES (1, 'Hugo'), (2, 'Verne');
                INSERT INTO book VALUES (10, 'Les Misérables', 1), (11, 'Nautilus', 2);
                """)
        }
        return dbQueue
    }

    private let sql = "SELECT book.id, book.title, author.id, author.name FROM book JOIN author ON author.id = book.authorId ORDER BY book.id"

    @Test func columnMappingsRenameColumns() throws {
        try makeDatabase().read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'Hello' AS produced", adapter: ColumnMapping(["consumed": "produced"])))
            #expect(row["consumed"] == "Hello")
            #expect(row["produced"] as String? == nil)
            #expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, sql: "SELECT 1 AS a", adapter: ColumnMapping(["b": "missing"]))
            }
            let renamed = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS player_id", adapter: RenameColumnAdapter { String($0.dropFirst(7)) }))
            #expect(renamed == ["id": 1])
        }
    }

    @Test func scopesSplitJoinedRows() throws {
        try makeDatabase().read { (db: Database) throws in
            let adapters = splittingRowAdapters(columnCounts: [2])
            let adapter = ScopeAdapter(base: adapters[0], scopes: ["author": adapters[1]])
            let rows = try Row.fetchAll(db, sql: sql, adapter: adapter)
            #expect(rows.map { $0["title"] as String } == ["Les Misérables", "Nautilus"])
            #expect(rows.map { $0.scopes["author"]?["name"] as String? } == ["Hugo", "Verne"])
            #expect(rows[0].count == 2)

            let infos = try BookInfo.fetchAll(db, sql: sql, adapter: ScopeAdapter([
                "book": RangeRowAdapter(0..<2), "author": RangeRowAdapter(2...3)]))
            #expect(infos.map(\.author.name) == ["Hugo", "Verne"])
            #expect(infos.map(\.book.id) == [10, 11])

            // Scopes nest.
            let nested = ScopeAdapter(["pair": ScopeAdapter(base: EmptyRowAdapter(), scopes: ["author": SuffixRowAdapter(fromIndex: 2)])])
            let row = try #require(try Row.fetchOne(db, sql: sql, adapter: nested))
            #expect(row.scopes["pair"]?.scopes["author"]?["id"] == 1)
            #expect(try Row.fetchCursor(db, sql: sql, adapter: EmptyRowAdapter()).next()?.count == 0)
            #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: sql, adapter: RangeRowAdapter(3..<9)) }
        }
    }

    @Test func requestsTakeAdapters() throws {
        try makeDatabase().read { (db: Database) throws in
            let adapter = ScopeAdapter(["book": RangeRowAdapter(0..<2), "author": SuffixRowAdapter(fromIndex: 2)])
            let request = SQLRequest<BookInfo>(sql: sql, adapter: adapter)
            #expect(try request.fetchAll(db).map(\.book.title) == ["Les Misérables", "Nautilus"])
            let adapted = SQLRequest<BookInfo>(sql: sql).adapted { db in
                let adapters = try splittingRowAdapters(columnCounts: [db.columns(in: "book").count - 1])
                return ScopeAdapter(["book": adapters[0], "author": adapters[1]])
            }
            #expect(try adapted.fetchOne(db)?.author.name == "Hugo")
            #expect(try adapted.fetchCount(db) == 2)
        }
    }

    // MARK: - Requests adapted twice

    private func columns(_ rows: [Row]) -> [String] {
        rows.map { row in
            var text = row.map { name, value in "\(name)=\(value)" }.joined(separator: " ")
            for name in row.scopes.names.sorted() {
                text += " \(name):" + (row.scopes[name]?.map { "\($0)=\($1)" }.joined(separator: " ") ?? "")
            }
            return text
        }
    }

    @Test func aSecondAdapterAppliesToTheRowOfTheFirst() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let sql = "SELECT 1 AS a, 2 AS b, 3 AS c, 4 AS d"
            let twice = SQLRequest<Row>(sql: sql)
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try columns(twice.fetchAll(db)) == ["c=3 d=4"])
            let scoped = SQLRequest<Row>(sql: sql, adapter: SuffixRowAdapter(fromIndex: 2))
                .adapted { _ in ScopeAdapter(["x": RangeRowAdapter(0..<1)]) }
            #expect(try columns(scoped.fetchAll(db)) == ["c=3 d=4 x:c=3"])
            let values = SQLRequest<Int>(sql: sql)
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
                .adapted { _ in SuffixRowAdapter(fromIndex: 2) }
            #expect(try values.fetchAll(db) == [4])
        }
    }

    @Test func anAdapterOfAJoinedRequestSeesTheColumnsOfItsRow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT);
                CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INTEGER REFERENCES team(id));
                INSERT INTO team VALUES (1, 'Reds');
                INSERT INTO player VALUES (1, 1);
                """)
            let request = Table("player")
                .including(required: Table("player").belongsTo(Table("team")))
                .adapted { _ in SuffixRowAdapter(fromIndex: 1) }
            #expect(try columns(request.fetchAll(db)) == ["teamId=1"])
        }
    }
}

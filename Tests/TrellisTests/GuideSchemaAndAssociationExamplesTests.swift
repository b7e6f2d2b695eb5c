import Foundation
import Testing
import Trellis

// The examples of the guides (Documentation.docc) that came from the first README, compiled and run.

@Suite struct GuideSchemaAndAssociationExamplesTests {
    private struct Player: Codable, FetchableRecord, MutablePersistableRecord {
        var id: Int64?
        var name: String
        var score: Int

        enum Columns: String, ColumnExpression { case id, name, score }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    private struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    private struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }

    private struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author
    }

    private struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
        var bookCount: Int
    }

    @Test func coreExample() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE IF NOT EXISTS player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT);
                INSERT INTO player (name, score) VALUES (?, ?);
                """, arguments: ["Arthur", 1000])
        }
        let names = try dbQueue.read { db in
            try String.fetchAll(db, sql: "SELECT name FROM player WHERE score > ?", arguments: [500])
        }
        #expect(names == ["Arthur"])

        try dbQueue.write { db in
            try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
        }
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in
                try db.execute(sql: "INSERT INTO player (id, name) VALUES (2, 'Barbara')")
            }
        }
        #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        #expect(error?.description.hasPrefix("SQLite error 19: UNIQUE constraint failed: player.id - while executing `INSERT") == true)
        #expect(try dbQueue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func schemaExample() throws {
        let dbQueue = try DatabaseQueue()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("createLibrary") { db in
            try db.create(table: "author") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("author", onDelete: .cascade).notNull() // authorId, its foreign key and index
                t.column("title", .text).notNull()
                t.column("year", .integer).check { $0 > 0 }
            }
        }
        migrator.registerMigration("addBookPages") { db in
            try db.alter(table: "book") { t in
                t.add(column: "pages", .integer).notNull().defaults(to: 0)
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try db.columns(in: "book").map(\.name) == ["id", "authorId", "title", "year", "pages"])
            #expect(try db.foreignKeys(on: "book").first?.destinationTable == "author")
        }
    }

    @Test func recordsExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INT NOT NULL)")
            var player = Player(id: nil, name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.id == 1)
            try player.updateChanges(db) { $0.score = 200 }
            try Player(id: nil, name: "Barbara", score: 50).inserted(db)
            let best = try Player
                .filter { $0.score > 150 }
                .order(Player.Columns.score.desc)
                .fetchAll(db)
            #expect(best.map(\.name) == ["Arthur"])
            #expect(try Player.fetchCount(db) == 2)

            let team = try [Player(id: nil, name: "Barbara", score: 10), Player(id: nil, name: "Craig", score: 20)]
                .insertAll(db)
            #expect(team.map(\.id) == [3, 4])
            let fetched = try [Player(id: nil, name: "David", score: 30)].insertAndFetchAll(db)
            #expect(fetched.map(\.id) == [5])
        }
    }

    @Test func associationsExample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL);
                INSERT INTO author VALUES (1, 'Herman Melville'), (2, 'Emily Dickinson');
                INSERT INTO book VALUES (1, 1, 'Moby-Dick'), (2, 1, 'Bartleby');
                """)
        }
        let bookInfos = try dbQueue.read { db in
            try Book.including(required: Book.author).asRequest(of: BookInfo.self).fetchAll(db)
        }
        #expect(bookInfos.map(\.author.name) == ["Herman Melville", "Herman Melville"])
        let authorInfos = try dbQueue.read { db in
            try Author
                .including(all: Author.books)
                .annotated(with: Author.books.count)
                .asRequest(of: AuthorInfo.self)
                .fetchAll(db)
        }
        #expect(authorInfos.map(\.bookCount) == [2, 0])
        #expect(authorInfos.map { $0.books.count } == [2, 0])
    }
}

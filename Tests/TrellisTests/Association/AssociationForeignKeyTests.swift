import Testing
import Trellis

// ForeignKey, when there are several foreign keys from a table to
// another (a book's author and translator), or none.

private struct Person: Codable, FetchableRecord, PersistableRecord {
    static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
    static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey)
    var id: Int64
    var name: String
}

private struct Book: Codable, FetchableRecord, TableRecord {
    // Define foreign keys
    static let authorForeignKey = ForeignKey(["authorId"])
    static let translatorForeignKey = ForeignKey(["translatorId"])

    // Use foreign keys to define associations:
    static let author = belongsTo(Person.self, using: authorForeignKey)
    static let translator = belongsTo(Person.self, using: translatorForeignKey)

    var id: Int64
    var authorId: Int64
    var translatorId: Int64?
    var title: String
}

/// Foreign keys from query interface columns.
private struct ColumnBook: TableRecord {
    static let databaseTableName = "book"
    enum Columns: String, ColumnExpression {
        case id, title, authorId, translatorId
    }
    static let authorForeignKey = ForeignKey([Columns.authorId])
    static let translatorForeignKey = ForeignKey([Columns.translatorId])
    static let author = belongsTo(Person.self, using: authorForeignKey)
}

/// The full definition, for a destination without primary key.
private struct Writer: TableRecord {}
private struct NovelBook: TableRecord {
    static let databaseTableName = "novel"
    static let authorForeignKey = ForeignKey(["authorId"], to: ["id"])
    static let author = belongsTo(Writer.self, using: authorForeignKey)
}

/// Without ForeignKey, the schema's two foreign keys are ambiguous.
private struct AmbiguousBook: TableRecord {
    static let databaseTableName = "book"
    static let person = belongsTo(Person.self)
}

/// Without ForeignKey and without schema foreign key, nothing is inferred.
private struct Novel: TableRecord {
    static let author = belongsTo(Writer.self)
}

private struct BookInfo: Decodable, FetchableRecord {
    var book: Book
    var author: Person
    var translator: Person?
}

@Suite struct AssociationForeignKeyTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE person (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY,
                  authorId INTEGER NOT NULL REFERENCES person(id),
                  translatorId INTEGER REFERENCES person(id),
                  title TEXT NOT NULL);
                CREATE TABLE writer (id INTEGER, name TEXT);
                CREATE TABLE novel (id INTEGER PRIMARY KEY, authorId INTEGER, title TEXT);
                INSERT INTO person VALUES (1, 'Victor Hugo'), (2, 'Isabel Hapgood'), (3, 'Leo Tolstoy');
                INSERT INTO book VALUES (1, 1, 2, 'Les Misérables'), (2, 3, NULL, 'War and Peace'), (3, 3, 2, 'Anna Karenina');
                INSERT INTO writer VALUES (7, 'Anonymous');
                INSERT INTO novel VALUES (1, 7, 'Beowulf');
                """)
        }
        return dbQueue
    }

    @Test func belongsToUsesEachForeignKey() throws {
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(required: Book.author.forKey("author"))
                .including(optional: Book.translator.forKey("translator"))
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Victor Hugo", "Leo Tolstoy", "Leo Tolstoy"])
        #expect(infos.map(\.translator?.name) == ["Isabel Hapgood", nil, "Isabel Hapgood"])
    }

    @Test func symmetricHasManyReuseTheForeignKeys() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db in
            let hapgood = try Person.find(db, key: 2)
            let translated = try hapgood.request(for: Person.translatedBooks).order(Column("id")).fetchAll(db)
            #expect(translated.map(\.title) == ["Les Misérables", "Anna Karenina"])
            let tolstoy = try Person.find(db, key: 3)
            #expect(try tolstoy.request(for: Person.writtenBooks).fetchCount(db) == 2)
        }
    }

    @Test func foreignKeysFromColumns() throws {
        let dbQueue = try makeDatabase()
        let count = try dbQueue.read { db in
            try ColumnBook.joining(required: ColumnBook.author.filter(Column("name") == "Leo Tolstoy")).fetchCount(db)
        }
        #expect(count == 2)
    }

    @Test func theFullDefinitionLinksATableWithoutPrimaryKey() throws {
        let dbQueue = try makeDatabase()
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, NovelBook.including(required: NovelBook.author))
        }
        #expect(rows.count == 1)
        #expect(rows[0].scopes["writer"]?["name"] == "Anonymous")
    }

    @Test func severalForeignKeysAreAmbiguous() throws {
        let dbQueue = try makeDatabase()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Row.fetchAll(db, AmbiguousBook.including(required: AmbiguousBook.person)) }
        }
        #expect(error?.message?.hasPrefix("Ambiguous foreign key from book to person") == true)
        // The connection is still usable.
        #expect(try dbQueue.read { try Book.fetchCount($0) } == 3)
    }

    @Test func noForeignKeyCanNotBeInferred() throws {
        let dbQueue = try makeDatabase()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Row.fetchAll(db, Novel.including(required: Novel.author)) }
        }
        #expect(error?.message?.hasPrefix("Could not infer foreign key from novel to writer") == true)
    }

    @Test func twoAssociationsUnderOneKeyAreAnError() throws {
        let dbQueue = try makeDatabase()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in
                try Row.fetchAll(db, Book.including(required: Book.author).including(optional: Book.translator))
            }
        }
        #expect(error?.message?.contains("forKey") == true)
    }
}

import Testing
import Trellis

/// Associations between tables that have no record type, as GRDB's `Table`.
@Suite struct TableAssociationTests {
    @Test func tablesWithoutRecordTypesHaveAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY);
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, countryCode TEXT REFERENCES country(code));
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, authorId INTEGER REFERENCES author(id));
                INSERT INTO country VALUES ('FR');
                INSERT INTO author VALUES (1, 'Hugo', 'FR'), (2, 'Verne', NULL);
                INSERT INTO book VALUES (1, 'Les Misérables', 1), (2, 'Notre-Dame', 1), (3, 'Nautilus', 2);
                """)
        }
        let country = Table("country"), author = Table("author"), book = Table("book")
        let books = author.hasMany(book)
        let bookAuthor = book.belongsTo(author)
        try dbQueue.read { db in
            let rows = try author.including(all: books.order(Column("id"))).order(Column("id")).fetchAll(db)
            #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } ?? [] }
                == [["Les Misérables", "Notre-Dame"], ["Nautilus"]])
            let withAuthors = try book.including(required: bookAuthor).order(Column("id")).fetchAll(db)
            #expect(withAuthors.map { $0.scopes["author"]?["name"] as String? } == ["Hugo", "Hugo", "Verne"])
            let bookCountry = book.hasOne(country, through: bookAuthor, using: author.belongsTo(country))
            #expect(try book.joining(required: bookCountry).fetchCount(db) == 2)
            let countryBooks = country.hasMany(book, through: country.hasMany(author), using: books)
            #expect(try country.including(all: countryBooks).fetchOne(db)?.prefetchedRows["books"]?.count == 2)
        }
    }

    @Test func recordsHaveAssociationsToTablesWithoutRecordTypes() throws {
        struct Author: Codable, FetchableRecord, PersistableRecord {
            static let books = hasMany(Table("book"))
            static let country = belongsTo(Table("country"))
            static let bio = hasOne(Table("bio"))
            var id: Int64
            var name: String
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, countryCode TEXT REFERENCES country(code));
                CREATE TABLE bio (id INTEGER PRIMARY KEY, authorId INTEGER UNIQUE REFERENCES author(id), text TEXT);
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT, authorId INTEGER REFERENCES author(id));
                INSERT INTO country VALUES ('FR', 'France');
                INSERT INTO author VALUES (1, 'Hugo', 'FR'), (2, 'Verne', NULL);
                INSERT INTO bio VALUES (1, 2, 'Sailor');
                INSERT INTO book VALUES (1, 'Les Misérables', 1), (2, 'Notre-Dame', 1), (3, 'Nautilus', 2);
                """)
        }
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, Author
                .including(all: Author.books.order(Column("id")))
                .including(optional: Author.country)
                .including(optional: Author.bio)
                .order(Column("id")))
            #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } ?? [] }
                == [["Les Misérables", "Notre-Dame"], ["Nautilus"]])
            #expect(rows.map { $0.scopes["country"]?["name"] as String? } == ["France", nil])
            #expect(rows.map { $0.scopes["bio"]?["text"] as String? } == [nil, "Sailor"])
            let counts = try Row.fetchAll(db, Author.annotated(with: Author.books.count).order(Column("id")))
            #expect(counts.map { $0["bookCount"] as Int } == [2, 1])
        }
    }
}

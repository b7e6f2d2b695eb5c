import Foundation
import Testing
import Trellis

/// Calibre's `metadata.db`: link tables without declared foreign keys,
/// foreign keys checked by triggers that `RAISE(ABORT)`, NOCASE text,
/// double-quoted defaults, Python's dates with a time zone, and triggers
/// and views that call functions only Calibre defines (`title_sort()`,
/// `uuid4()`, `sortconcat()`): reads work without them, writes that fire
/// them fail with SQLite's "no such function".
@Suite struct CalibreTests {
    static let script = #"""
        CREATE TABLE books ( id      INTEGER PRIMARY KEY AUTOINCREMENT,
                             title     TEXT NOT NULL DEFAULT 'Unknown' COLLATE NOCASE,
                             sort      TEXT COLLATE NOCASE,
                             timestamp TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
                             pubdate   TIMESTAMP DEFAULT CURRENT_TIMESTAMP,
                             series_index REAL NOT NULL DEFAULT 1.0,
                             author_sort TEXT COLLATE NOCASE,
                             isbn TEXT DEFAULT "" COLLATE NOCASE,
                             lccn TEXT DEFAULT "" COLLATE NOCASE,
                             path TEXT NOT NULL DEFAULT "",
                             flags INTEGER NOT NULL DEFAULT 1,
                             uuid TEXT,
                             has_cover BOOL DEFAULT 0,
                             last_modified TIMESTAMP NOT NULL DEFAULT "2000-01-01 00:00:00+00:00");
        CREATE TABLE authors ( id   INTEGER PRIMARY KEY,
                              name TEXT NOT NULL COLLATE NOCASE,
                              sort TEXT COLLATE NOCASE,
                              link TEXT NOT NULL DEFAULT "",
                              UNIQUE(name)
                             );
        CREATE TABLE books_authors_link ( id INTEGER PRIMARY KEY,
                                          book INTEGER NOT NULL,
                                          author INTEGER NOT NULL,
                                          UNIQUE(book, author)
                                        );
        CREATE TABLE tags ( id   INTEGER PRIMARY KEY,
                           name TEXT NOT NULL COLLATE NOCASE,
                           UNIQUE (name)
                             );
        CREATE TABLE books_tags_link ( id INTEGER PRIMARY KEY,
                                          book INTEGER NOT NULL,
                                          tag INTEGER NOT NULL,
                                          UNIQUE(book, tag)
                                        );
        CREATE TABLE data ( id     INTEGER PRIMARY KEY,
                            book   INTEGER NOT NULL,
                            format TEXT NOT NULL COLLATE NOCASE,
                            uncompressed_size INTEGER NOT NULL,
                            name TEXT NOT NULL,
                            UNIQUE(book, format)
        );
        CREATE TABLE comments ( id INTEGER PRIMARY KEY,
                              book INTEGER NOT NULL,
                              text TEXT NOT NULL COLLATE NOCASE,
                              UNIQUE(book)
                            );
        CREATE TABLE identifiers  ( id     INTEGER PRIMARY KEY,
                                    book   INTEGER NOT NULL,
                                    type   TEXT NOT NULL DEFAULT "isbn" COLLATE NOCASE,
                                    val    TEXT NOT NULL COLLATE NOCASE,
                                    UNIQUE(book, type)
                );
        CREATE TABLE preferences(id INTEGER PRIMARY KEY,
                                 key TEXT NOT NULL,
                                 val TEXT NOT NULL,
                                 UNIQUE(key));
        CREATE INDEX authors_idx ON books (author_sort COLLATE NOCASE);
        CREATE INDEX books_authors_link_aidx ON books_authors_link (author);
        CREATE INDEX books_authors_link_bidx ON books_authors_link (book);
        CREATE INDEX books_idx ON books (sort COLLATE NOCASE);
        CREATE INDEX comments_idx ON comments (book);
        CREATE INDEX data_idx ON data (book);
        CREATE INDEX formats_idx ON data (format);
        CREATE INDEX tags_idx ON tags (name COLLATE NOCASE);
        CREATE VIEW meta AS
                SELECT id, title,
                       (SELECT sortconcat(bal.id, name) FROM books_authors_link AS bal JOIN authors ON(author = authors.id) WHERE book = books.id) authors,
                       (SELECT text FROM comments WHERE book=books.id) comments,
                       timestamp,
                       pubdate,
                       series_index,
                       sort,
                       author_sort,
                       (SELECT concat(format) FROM data WHERE data.book=books.id) formats,
                       isbn,
                       path,
                       lccn,
                       flags,
                       uuid
                FROM books;
        CREATE VIEW tag_browser_tags AS SELECT
                    id,
                    name,
                    (SELECT COUNT(id) FROM books_tags_link WHERE tag=tags.id) count
                FROM tags;
        CREATE TRIGGER books_delete_trg
                    AFTER DELETE ON books
                    BEGIN
                        DELETE FROM books_authors_link WHERE book=OLD.id;
                        DELETE FROM books_tags_link WHERE book=OLD.id;
                        DELETE FROM data WHERE book=OLD.id;
                        DELETE FROM comments WHERE book=OLD.id;
                        DELETE FROM identifiers WHERE book=OLD.id;
                END;
        CREATE TRIGGER books_insert_trg AFTER INSERT ON books
                BEGIN
                    UPDATE books SET sort=title_sort(NEW.title),uuid=uuid4() WHERE id=NEW.id;
                END;
        CREATE TRIGGER books_update_trg
                    AFTER UPDATE ON books
                    BEGIN
                    UPDATE books SET sort=title_sort(NEW.title)
                                 WHERE id=NEW.id AND OLD.title <> NEW.title;
                    END;
        CREATE TRIGGER fkc_delete_on_authors
                BEFORE DELETE ON authors
                BEGIN
                    SELECT CASE
                        WHEN (SELECT COUNT(id) FROM books_authors_link WHERE author=OLD.id) > 0
                        THEN RAISE(ABORT, 'Foreign key violation: authors is still referenced')
                    END;
                END;
        CREATE TRIGGER fkc_insert_books_authors_link
                BEFORE INSERT ON books_authors_link
                BEGIN
                  SELECT CASE
                      WHEN (SELECT id from books WHERE id=NEW.book) IS NULL
                      THEN RAISE(ABORT, 'Foreign key violation: book not in books')
                      WHEN (SELECT id from authors WHERE id=NEW.author) IS NULL
                      THEN RAISE(ABORT, 'Foreign key violation: author not in authors')
                  END;
                END;
        INSERT INTO authors (id, name, sort, link) VALUES (1, 'Ursula K. Le Guin', 'Le Guin, Ursula K.', ''), (2, 'Terry Pratchett', 'Pratchett, Terry', ''), (3, 'Neil Gaiman', 'Gaiman, Neil', '');
        INSERT INTO books (id, title, timestamp, pubdate, author_sort, path, has_cover, last_modified)
          VALUES (1, 'The Left Hand of Darkness', '2023-05-01 12:34:56.123456+00:00', '1969-03-01 00:00:00+00:00', 'Le Guin, Ursula K.', 'Ursula K. Le Guin/The Left Hand of Darkness (1)', 1, '2023-05-02 08:00:00.500000+00:00'),
                 (2, 'Good Omens', '2023-06-01 10:00:00+00:00', '0101-01-01 00:00:00+00:00', 'Pratchett, Terry & Gaiman, Neil', 'Terry Pratchett/Good Omens (2)', 0, '2023-06-01 10:00:00+00:00');
        INSERT INTO books_authors_link (book, author) VALUES (1, 1), (2, 2), (2, 3);
        INSERT INTO tags (id, name) VALUES (1, 'Science Fiction'), (2, 'Fantasy'), (3, 'Humour');
        INSERT INTO books_tags_link (book, tag) VALUES (1, 1), (2, 2), (2, 3);
        INSERT INTO data (book, format, uncompressed_size, name) VALUES (1, 'EPUB', 312345, 'The Left Hand of Darkness - Ursula K. Le Guin'), (2, 'EPUB', 401234, 'Good Omens - Terry Pratchett'), (2, 'MOBI', 512000, 'Good Omens - Terry Pratchett');
        INSERT INTO comments (book, text) VALUES (1, '<p>Genly Ai is sent to Gethen.</p>');
        INSERT INTO identifiers (book, type, val) VALUES (1, 'isbn', '9780441478125'), (2, 'goodreads', '12067');
        INSERT INTO preferences (key, val) VALUES ('library_id', '"0b0e4c5e-0000-4000-8000-000000000001"'), ('user_categories', '{}');
        PRAGMA user_version = 26;
        """#

    /// Calibre's own functions, registered by the application that wrote
    /// the file.
    static let titleSort = DatabaseFunction("title_sort", argumentCount: 1, pure: true) { values in
        guard let title = String.fromDatabaseValue(values[0]) else { return nil }
        for article in ["The ", "A ", "An "] where title.hasPrefix(article) {
            return title.dropFirst(article.count) + ", " + article.dropLast()
        }
        return title
    }
    static let uuid4 = DatabaseFunction("uuid4", argumentCount: 0) { _ in UUID().uuidString.lowercased() }
    static var functions: [DatabaseFunction] { [titleSort, uuid4] }

    static func makeFile() throws -> RealDatabaseFile {
        try RealDatabaseFile(script, functions: functions, doubleQuotedStrings: true)
    }

    struct Book: Codable, FetchableRecord, MutablePersistableRecord, Identifiable {
        static let databaseTableName = "books"
        static let authorLinks = hasMany(AuthorLink.self, using: ForeignKey(["book"]))
        static let authors = hasMany(Author.self, through: authorLinks, using: AuthorLink.author)
        static let formats = hasMany(Format.self, using: ForeignKey(["book"]))
        static let comment = hasOne(Comment.self, using: ForeignKey(["book"]))
        var id: Int64?
        var title: String
        var sort: String?
        var timestamp: Date?
        var pubdate: Date?
        var seriesIndex: Double
        var authorSort: String?
        var path: String
        var uuid: String?
        var hasCover: Bool?
        var lastModified: Date
        enum CodingKeys: String, CodingKey {
            case id, title, sort, timestamp, pubdate, path, uuid
            case seriesIndex = "series_index", authorSort = "author_sort", hasCover = "has_cover", lastModified = "last_modified"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct AuthorLink: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "books_authors_link"
        static let author = belongsTo(Author.self, using: ForeignKey(["author"]))
        static let book = belongsTo(Book.self, using: ForeignKey(["book"]))
        var id: Int64?
        var book: Int64
        var author: Int64
    }

    struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let databaseTableName = "authors"
        var id: Int64
        var name: String
        var sort: String?
        var link: String
    }

    struct Format: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "data"
        var book: Int64
        var format: String
        var uncompressedSize: Int
        var name: String
        enum CodingKeys: String, CodingKey { case book, format, name, uncompressedSize = "uncompressed_size" }
    }

    struct Comment: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "comments"
        var book: Int64
        var text: String
    }

    struct Preference: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "preferences"
        var id: Int64?
        var key: String
        var val: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func booksDecodeWithPythonDatesAndCalibresUndefinedDate() throws {
        let file = try Self.makeFile()
        try file.open().read { (db) throws in
            let books = try Book.order(Column("id")).fetchAll(db)
            #expect(books.map(\.title) == ["The Left Hand of Darkness", "Good Omens"])
            // The insert trigger ran in Calibre: the sort title and uuid.
            #expect(books.map(\.sort) == ["Left Hand of Darkness, The", "Good Omens"])
            #expect(books.allSatisfy { $0.uuid?.count == 36 })
            // Microseconds are cut to milliseconds; the time zone is read.
            #expect(books[0].timestamp.map { ($0.timeIntervalSince1970 * 1000).rounded() } == 1_682_944_496_123)
            #expect(books[0].lastModified == Date(timeIntervalSince1970: 1_683_014_400.5))
            #expect(books[0].pubdate == Date(timeIntervalSince1970: -26_438_400))
            // Calibre's "undefined" publication date, year 101.
            let undefined = try #require(books[1].pubdate)
            #expect(Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: undefined).year == 101)
            #expect(books.map(\.hasCover) == [true, false])
            #expect(books.map(\.seriesIndex) == [1.0, 1.0])
            // Double-quoted defaults are strings.
            #expect(try String.fetchAll(db, sql: "SELECT isbn FROM books ORDER BY id") == ["", ""])
            #expect(try db.columns(in: "books").first { $0.name == "isbn" }?.defaultValueSQL == #""""#)
            #expect(try db.primaryKey("books").rowIDColumn == "id")
            #expect(try Book.fetchOne(db, key: 2)?.authorSort == "Pratchett, Terry & Gaiman, Neil")
            #expect(try Book.filter(Column("title") == "good omens").fetchCount(db) == 1)
        }
    }

    @Test func linkTablesGiveAuthorsFormatsAndCounts() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var authors: [Author]
            var formats: [Format]
            var comment: Comment?
        }
        struct BookCount: Decodable, FetchableRecord {
            var title: String
            var authorCount: Int
            var formatCount: Int
        }
        let file = try Self.makeFile()
        try file.open().read { (db) throws in
            #expect(try db.foreignKeys(on: "books_authors_link").isEmpty)
            let infos = try Book
                .including(all: Book.authors.order(Column("sort")))
                .including(all: Book.formats.order(Column("format")).forKey("formats"))
                .including(optional: Book.comment)
                .order(Column("id"))
                .asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map { $0.authors.map(\.name) } == [["Ursula K. Le Guin"], ["Neil Gaiman", "Terry Pratchett"]])
            #expect(infos.map { $0.formats.map(\.format) } == [["EPUB"], ["EPUB", "MOBI"]])
            #expect(infos.map { $0.comment?.text } == ["<p>Genly Ai is sent to Gethen.</p>", nil])
            let counts = try Book
                .annotated(with: Book.authors.count, Book.formats.count.forKey("formatCount"))
                .order(Column("id"))
                .asRequest(of: BookCount.self).fetchAll(db)
            #expect(counts.map(\.authorCount) == [1, 2])
            #expect(counts.map(\.formatCount) == [1, 2])
            let gaiman = try Book.joining(required: Book.authors.filter(Column("name") == "neil gaiman")).fetchAll(db)
            #expect(gaiman.map(\.id) == [2])
            // Authors are unique by name, without case.
            #expect(try db.table("authors", hasUniqueKey: ["name"]))
            #expect(try Author.fetchOne(db, key: ["name": "TERRY PRATCHETT"])?.id == 2)
            #expect(try AuthorLink.fetchOne(db, key: ["book": 2, "author": 3]) != nil)
            let indexes = try db.indexes(on: "books").map(\.name).sorted()
            #expect(indexes == ["authors_idx", "books_idx"])
        }
    }

    @Test func writesThatFireCalibresTriggersFailWithoutItsFunctions() throws {
        let file = try Self.makeFile()
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            var book = Book(id: nil, title: "Mort", seriesIndex: 4, path: "Terry Pratchett/Mort (3)", lastModified: Date(timeIntervalSince1970: 0))
            let insert = #expect(throws: DatabaseError.self) { try book.insert(db) }
            #expect(insert?.resultCode == .SQLITE_ERROR)
            #expect(insert?.message == "no such function: title_sort")
            #expect(book.id == nil)
            var existing = try #require(try Book.fetchOne(db, key: 2))
            existing.hasCover = true
            let update = #expect(throws: DatabaseError.self) { try existing.update(db) }
            #expect(update?.message == "no such function: title_sort")
            // Other tables take writes; the triggers that check links run.
            try db.execute(sql: "INSERT INTO tags (name) VALUES ('Classics')")
            let link = #expect(throws: DatabaseError.self) { try AuthorLink(id: nil, book: 99, author: 1).insert(db) }
            #expect(link?.resultCode == .SQLITE_CONSTRAINT)
            #expect(link?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
            #expect(link?.message == "Foreign key violation: book not in books")
            let author = #expect(throws: DatabaseError.self) { try Author.deleteOne(db, key: 1) }
            #expect(author?.message == "Foreign key violation: authors is still referenced")
            #expect(try Author.fetchCount(db) == 3)
            // Deleting a book runs the delete trigger, which needs no
            // function of Calibre's.
            #expect(try Book.deleteOne(db, key: 1))
            #expect(try AuthorLink.filter(Column("book") == 1).fetchCount(db) == 0)
            #expect(try Author.deleteOne(db, key: 1))
            #expect(try Format.fetchCount(db) == 2)
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in for function in Self.functions { db.add(function: function) } }
        try file.open(configuration).write { (db) throws in
            var book = Book(id: nil, title: "A Hat Full of Sky", seriesIndex: 32, path: "Terry Pratchett/A Hat Full of Sky (3)", lastModified: Date(timeIntervalSince1970: 0))
            try book.insert(db)
            #expect(book.id == 3)
            let stored = try #require(try Book.fetchOne(db, key: book.id))
            #expect(stored.sort == "Hat Full of Sky, A")
            #expect(stored.uuid?.count == 36)
        }
    }

    @Test func viewsThatCallCalibresAggregatesFailClearly() throws {
        let file = try Self.makeFile()
        try file.open().read { (db) throws in
            let tags = try Row.fetchAll(db, sql: "SELECT name, count FROM tag_browser_tags ORDER BY id")
            #expect(tags == [["name": "Science Fiction", "count": 1], ["name": "Fantasy", "count": 1], ["name": "Humour", "count": 1]])
            #expect(try db.viewExists("meta"))
            let fetch = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM meta") }
            #expect(fetch?.message == "no such function: sortconcat")
            let columns = #expect(throws: DatabaseError.self) { try db.columns(in: "meta") }
            #expect(columns?.message?.contains("sortconcat") == true)
            let table = #expect(throws: DatabaseError.self) { try Table("meta").fetchCount(db) }
            #expect(table?.message == "no such function: sortconcat")
        }
    }

    @Test func preferencesUpsertByTheirUniqueKey() throws {
        let file = try Self.makeFile()
        try file.open().write { (db) throws in
            #expect(try Preference.fetchOne(db, key: ["key": "user_categories"])?.val == "{}")
            var preference = Preference(id: nil, key: "user_categories", val: #"{"Favourites": []}"#)
            try preference.upsert(db)
            #expect(try Preference.fetchCount(db) == 2)
            #expect(try Preference.fetchOne(db, key: ["key": "user_categories"])?.val == #"{"Favourites": []}"#)
            #expect(try Preference.fetchOne(db, key: ["key": "user_categories"])?.id == 2)
            #expect(try Preference.deleteOne(db, key: ["key": "library_id"]))
            #expect(try Preference.exists(db, key: 1) == false)
        }
    }

    @Test func aMigratorAddsItsTablesBesideCalibres() throws {
        let file = try Self.makeFile()
        let dbQueue = try file.open()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("readingProgress") { db in
            try db.create(table: "reading_progress") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("book", inTable: "books", onDelete: .cascade).notNull()
                t.column("position", .double).notNull()
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db) throws in
            #expect(try db.foreignKeys(on: "reading_progress").map(\.destinationTable) == ["books"])
            #expect(try db.foreignKeys(on: "reading_progress").map(\.originColumns) == [["bookId"]])
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 26)
            #expect(try migrator.appliedMigrations(db) == ["readingProgress"])
        }
    }
}

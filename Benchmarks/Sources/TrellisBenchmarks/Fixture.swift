import BenchSQLite
import Foundation

/// Builds the database file that the workloads read, with raw SQLite: the
/// same file settings for all backends (WAL, synchronous NORMAL).
enum Fixture {
    /// The number of books: at least `authors * booksPerAuthor`, spread
    /// evenly over the authors.
    static func bookCount(_ sizes: Sizes) -> Int {
        max(sizes.books, sizes.authors * sizes.booksPerAuthor)
    }

    static func create(path: String, sizes: Sizes) throws {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        let db = try RawDatabase(path: path)
        try db.exec("""
            PRAGMA journal_mode = WAL;
            CREATE TABLE item (id INTEGER PRIMARY KEY, c1 INTEGER NOT NULL, c2 INTEGER NOT NULL, c3 INTEGER NOT NULL,
              c4 INTEGER NOT NULL, c5 INTEGER NOT NULL, c6 INTEGER NOT NULL, c7 INTEGER NOT NULL, c8 INTEGER NOT NULL, c9 INTEGER NOT NULL);
            CREATE TABLE insertedItem (id INTEGER PRIMARY KEY, c1 INTEGER NOT NULL, c2 INTEGER NOT NULL, c3 INTEGER NOT NULL,
              c4 INTEGER NOT NULL, c5 INTEGER NOT NULL, c6 INTEGER NOT NULL, c7 INTEGER NOT NULL, c8 INTEGER NOT NULL, c9 INTEGER NOT NULL);
            CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
            CREATE TABLE book (id INTEGER PRIMARY KEY, authorId INTEGER NOT NULL REFERENCES author(id), title TEXT NOT NULL, year INTEGER NOT NULL);
            CREATE INDEX book_authorId ON book(authorId);
            CREATE TABLE ObjAuthor ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT);
            CREATE TABLE ObjBook ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "title" TEXT, "authorId" INTEGER REFERENCES "ObjAuthor"("id") ON DELETE SET NULL);
            CREATE INDEX "index_ObjBook_on_authorId" ON "ObjBook"("authorId");
            INSERT INTO ObjAuthor (name) VALUES ('A1'), ('A2'), ('A3'), ('A4'), ('A5'), ('A6'), ('A7'), ('A8'), ('A9'), ('A10');
            CREATE TABLE appConfiguration (id INTEGER PRIMARY KEY ON CONFLICT REPLACE CHECK (id = 1), storedFlag BOOLEAN, counter INTEGER NOT NULL DEFAULT 0);
            BEGIN;
            """)
        let insertItem = try db.prepare("INSERT INTO item VALUES (?,?,?,?,?,?,?,?,?,?)")
        for i in 1...max(sizes.rows, sizes.lookups) {
            sqlite3_bind_int64(insertItem, 1, Int64(i))
            for c in 2...10 { sqlite3_bind_int64(insertItem, Int32(c), Int64(i &* c % 1000)) }
            sqlite3_step(insertItem)
            sqlite3_reset(insertItem)
        }
        sqlite3_finalize(insertItem)
        let insertAuthor = try db.prepare("INSERT INTO author VALUES (?, ?)")
        let authorCount = max(sizes.authors, 1)
        for a in 1...authorCount {
            sqlite3_bind_int64(insertAuthor, 1, Int64(a))
            sqlite3_bind_text(insertAuthor, 2, "Author \(a)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_step(insertAuthor)
            sqlite3_reset(insertAuthor)
        }
        sqlite3_finalize(insertAuthor)
        let insertBook = try db.prepare("INSERT INTO book VALUES (?, ?, ?, ?)")
        for b in 1...bookCount(sizes) {
            sqlite3_bind_int64(insertBook, 1, Int64(b))
            sqlite3_bind_int64(insertBook, 2, Int64((b - 1) % authorCount + 1))
            sqlite3_bind_text(insertBook, 3, "Book \(b)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_int64(insertBook, 4, Int64(1900 + b % 120))
            sqlite3_step(insertBook)
            sqlite3_reset(insertBook)
        }
        sqlite3_finalize(insertBook)
        // The objects that O1 puts, for O2 and O3 to read when they run alone.
        let insertObject = try db.prepare("INSERT INTO ObjBook (id, title, authorId) VALUES (?, ?, ?)")
        for i in 1...sizes.objects {
            sqlite3_bind_int64(insertObject, 1, Int64(i))
            sqlite3_bind_text(insertObject, 2, "Book \(i)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
            sqlite3_bind_int64(insertObject, 3, Int64(i % 10 + 1))
            sqlite3_step(insertObject)
            sqlite3_reset(insertObject)
        }
        sqlite3_finalize(insertObject)
        try db.exec("COMMIT")
    }
}

/// A raw SQLite connection, for the fixture and the raw backend.
final class RawDatabase {
    let handle: OpaquePointer

    init(path: String) throws {
        var handle: OpaquePointer?
        guard sqlite3_open_v2(path, &handle, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX, nil) == SQLITE_OK, let handle else {
            throw BenchmarkError("can not open \(path)")
        }
        self.handle = handle
        try exec("PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON")
    }

    deinit {
        sqlite3_close_v2(handle)
    }

    func exec(_ sql: String) throws {
        guard sqlite3_exec(handle, sql, nil, nil, nil) == SQLITE_OK else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(handle)) + " - " + sql)
        }
    }

    func prepare(_ sql: String) throws -> OpaquePointer {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil) == SQLITE_OK, let statement else {
            throw BenchmarkError(String(cString: sqlite3_errmsg(handle)) + " - " + sql)
        }
        return statement
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

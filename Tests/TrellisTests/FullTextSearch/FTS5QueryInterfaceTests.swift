import Testing
import Trellis

private struct Book: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let author = belongsTo(Author.self, using: ForeignKey(["authorId"]))
    var title: String
    var authorId: Int64
}

private struct Author: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let books = hasMany(Book.self, using: ForeignKey(["authorId"]))
    var id: Int64
    var name: String
}

// The SQL is compared with the one GRDB 7.10 generates for the same
// request, as recorded from a program built against GRDB.
@Suite struct FTS5QueryInterfaceTests {
    private func makeLibrary() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "author") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            try db.create(virtualTable: "book", using: FTS5()) { t in
                t.column("title")
                t.column("authorId").notIndexed()
                t.tokenizer = .porter(wrapping: .unicode61())
            }
            try Author(id: 1, name: "Herman Melville").insert(db)
            try Author(id: 2, name: "Jules Verne").insert(db)
            try Book(title: "Moby Dick", authorId: 1).insert(db)
            try Book(title: "Typee", authorId: 1).insert(db)
            try Book(title: "Databases explained", authorId: 2).insert(db)
            try Book(title: "A database of whales: Moby and others", authorId: 2).insert(db)
        }
        return dbQueue
    }

    private func sql(_ request: some FetchRequest, _ db: Database) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    @Test func matchingSearchesAllColumns() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "database moby")
            let request = Book.matching(pattern)
            #expect(try sql(request, db) == #"SELECT * FROM "book" WHERE "book" MATCH ?"#)
            #expect(try request.makePreparedRequest(db, forSingleResult: false).statement.arguments == ["database OR moby"])
            // The porter tokenizer matches "Databases" with "database".
            #expect(try Set(request.fetchAll(db).map(\.title))
                == ["Moby Dick", "Databases explained", "A database of whales: Moby and others"])
            #expect(try request.fetchCount(db) == 3)
            #expect(try Book.all().matching(pattern).fetchCount(db) == 3)
            #expect(try Book.matching(FTS5Pattern(matchingPhrase: "moby dick")).fetchAll(db)
                == [Book(title: "Moby Dick", authorId: 1)])
        }
    }

    @Test func aNilPatternMatchesNothing() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "")
            #expect(pattern == nil)
            let request = Book.matching(pattern)
            #expect(try sql(request, db) == #"SELECT * FROM "book" WHERE ?"#)
            #expect(try request.fetchAll(db).isEmpty)
            #expect(try request.fetchCount(db) == 0)
            #expect(try Table("book").matching(FTS5Pattern(matchingAllTokensIn: "*")).fetchCount(db) == 0)
        }
    }

    @Test func sortingByRelevance() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "moby")
            let request = Book.matching(pattern).order(Column.rank)
            #expect(try sql(request, db) == #"SELECT * FROM "book" WHERE "book" MATCH ? ORDER BY "rank""#)
            // The shorter title is the more relevant (bm25).
            #expect(try request.fetchAll(db).map(\.title) == ["Moby Dick", "A database of whales: Moby and others"])
            #expect(try request.reversed().fetchAll(db).map(\.title) == ["A database of whales: Moby and others", "Moby Dick"])
            #expect(try Book.matching(pattern).order(Column.rank.desc).fetchOne(db)?.title == "A database of whales: Moby and others")
            #expect(try Book.fetchAll(db, sql: "SELECT * FROM book WHERE book MATCH ? ORDER BY rank", arguments: [pattern])
                == request.fetchAll(db))
            let rows = try Row.fetchAll(db, Book.select(Column("title"), Column.rank).matching(pattern).order(Column.rank))
            #expect(rows.map { $0["title"] as String } == ["Moby Dick", "A database of whales: Moby and others"])
            #expect(rows.allSatisfy { ($0["rank"] as Double) < 0 })
            #expect(Column.rank.name == "rank")
        }
    }

    @Test func searchingOneColumn() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "moby"))
            let request = Book.filter(Column("title").match(pattern))
            #expect(try sql(request, db) == #"SELECT * FROM "book" WHERE "title" MATCH ?"#)
            #expect(try request.fetchCount(db) == 2)
            #expect(try Book.filter { _ in Column("title").match(pattern) }.fetchCount(db) == 2)
            // authorId is not indexed: a column filter on it finds nothing.
            #expect(try Book.filter(Column("authorId").match(FTS5Pattern(rawPattern: "1"))).fetchCount(db) == 0)
        }
    }

    @Test func tableRequests() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "typee")
            #expect(try sql(Table("book").all().matching(pattern), db) == #"SELECT * FROM "book" WHERE "book" MATCH ?"#)
            #expect(try Table("book").matching(pattern).fetchAll(db) == [["title": "Typee", "authorId": 1]])
            #expect(try Table<Book>("book").matching(pattern).fetchOne(db) == Book(title: "Typee", authorId: 1))
        }
    }

    @Test func matchingTwiceMatchesBothPatterns() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let request = Book
                .matching(FTS5Pattern(matchingAnyTokenIn: "moby"))
                .matching(FTS5Pattern(matchingAnyTokenIn: "whales"))
            #expect(try sql(request, db) == #"SELECT * FROM "book" WHERE ("book" MATCH ?) AND ("book" MATCH ?)"#)
            #expect(try request.fetchAll(db).map(\.title) == ["A database of whales: Moby and others"])
        }
    }

    @Test func aliasedRequestsMatchTheHiddenColumnOfTheirTable() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            // GRDB writes `"b" MATCH ?`, which SQLite rejects: no such column.
            let request = Book.aliased(TableAlias(name: "b")).matching(FTS5Pattern(matchingAnyTokenIn: "moby"))
            #expect(try sql(request, db) == #"SELECT "b".* FROM "book" "b" WHERE "b"."book" MATCH ?"#)
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func joinedRequests() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "moby")
            let request = Book.including(required: Book.author).matching(pattern).order(Column.rank)
            // GRDB writes `"book" MATCH ?`, unqualified.
            #expect(try sql(request, db) == #"SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" WHERE "book"."book" MATCH ? ORDER BY "book"."rank""#)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["title"] as String } == ["Moby Dick", "A database of whales: Moby and others"])
            #expect(rows.map { $0.scopes["author"]?["name"] as String? } == ["Herman Melville", "Jules Verne"])
            #expect(try Book.joining(required: Book.author.filter(Column("name") == "Jules Verne")).matching(pattern).fetchCount(db) == 1)
        }
    }

    @Test func associationsCanBeSearched() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let rows = try Row.fetchAll(db, Author
                .including(all: Author.books.matching(FTS5Pattern(matchingAnyTokenIn: "moby")))
                .orderByPrimaryKey())
            #expect(rows.map { $0.prefetchedRows["books"]?.map { $0["title"] as String } } == [
                ["Moby Dick"], ["A database of whales: Moby and others"],
            ])
            let none = try Row.fetchAll(db, Author
                .including(all: Author.books.matching(FTS5Pattern(matchingAnyTokenIn: "")))
                .orderByPrimaryKey())
            #expect(none.map { $0.prefetchedRows["books"]?.count } == [0, 0])
        }
    }

    @Test func joinedAssociationsCanBeSearched() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.read { (db: Database) throws in
            let pattern = FTS5Pattern(matchingAnyTokenIn: "typee")
            let required = Author.joining(required: Author.books.matching(pattern))
            // GRDB writes `("book"."authorId" = "author"."id") AND ("book" MATCH ?)`.
            #expect(try sql(required, db) == #"SELECT "author".* FROM "author" JOIN "book" ON ("book"."authorId" = "author"."id") AND ("book"."book" MATCH ?)"#)
            #expect(try required.fetchAll(db).map(\.name) == ["Herman Melville"])
            let optional = Author.including(optional: Author.hasOne(Book.self, using: ForeignKey(["authorId"])).matching(pattern))
                .orderByPrimaryKey()
            let rows = try Row.fetchAll(db, optional)
            #expect(rows.map { $0.scopes["book"]?["title"] as String? } == ["Typee", nil])
        }
    }

    @Test func batchDeleteOfMatchingRecords() throws {
        let dbQueue = try makeLibrary()
        try dbQueue.write { (db: Database) throws in
            let statements = try recordedStatements(db) { () throws in
                #expect(try Book.matching(FTS5Pattern(matchingAnyTokenIn: "typee")).deleteAll(db) == 1)
            }
            #expect(statements == [#"DELETE FROM "book" WHERE "book" MATCH 'typee'"#])
            #expect(try Book.fetchCount(db) == 3)
            #expect(try Book.matching(FTS5Pattern(matchingAnyTokenIn: "typee")).isEmpty(db))
        }
    }

    @Test func recordsOfFullTextTablesHaveTheRowidAsPrimaryKey() throws {
        // As GRDB's guide says, the rowid is exposed to the record type to
        // update records by primary key.
        struct Document: FetchableRecord, MutablePersistableRecord {
            static let databaseTableName = "book"
            static var databaseSelection: [any SQLSelectable] { [AllColumns(), Column.rowID] }
            var id: Int64?
            var title: String
            init(row: Row) throws {
                id = row["rowid"]
                title = row["title"]
            }
            init(id: Int64?, title: String) {
                self.id = id
                self.title = title
            }
            func encode(to container: inout PersistenceContainer) throws {
                container["rowid"] = id
                container["title"] = title
                container["authorId"] = 1
            }
            mutating func didInsert(_ inserted: InsertionSuccess) {
                id = inserted.rowID
            }
        }
        let dbQueue = try makeLibrary()
        try dbQueue.write { (db: Database) throws in
            #expect(try Book.fetchOne(db, key: 2) == Book(title: "Typee", authorId: 1))
            var document = try #require(try Document.fetchOne(db, key: 2))
            #expect(document.id == 2)
            document.title = "Typee, a Peep at Polynesian Life"
            try document.update(db)
            #expect(try Book.matching(FTS5Pattern(matchingAnyTokenIn: "polynesian")).fetchAll(db).map(\.title)
                == ["Typee, a Peep at Polynesian Life"])
            var inserted = Document(id: nil, title: "Omoo")
            try inserted.insert(db)
            #expect(inserted.id == 5)
            #expect(try Book.deleteOne(db, key: 1))
            #expect(try Book.fetchAll(db).map(\.title).sorted()
                == ["A database of whales: Moby and others", "Databases explained", "Omoo", "Typee, a Peep at Polynesian Life"])
        }
    }
}

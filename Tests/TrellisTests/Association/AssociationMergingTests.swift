import Testing
import Trellis

private typealias Country = LibraryFixture.Country
private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book
private typealias Tag = LibraryFixture.Tag
private typealias Address = LibraryFixture.Address

/// Two joins of one association under one key merge, as GRDB documents in
/// "Refining Association Requests": the pivot of a `through` association
/// is the same association as the pivot joined on its own.
@Suite struct AssociationMergingTests {
    private func sql(_ request: some FetchRequest, _ db: Database) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    /// The number of joins of `table` in `sql`.
    private func joinCount(_ sql: String, _ table: String) -> Int {
        sql.components(separatedBy: "JOIN \"\(table)\"").count - 1
    }

    @Test func aToOneThroughAssociationAndItsPivotJoinThePivotOnce() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book.including(required: Book.returnAddress).including(required: Book.library).order(Column("id"))
            #expect(try joinCount(sql(request, db), "library") == 1)
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["id"] as Int64 } == [1, 4])
            #expect(rows.map { $0.scopes["library"]?["name"] as String? } == ["Central", "Central"])
            #expect(rows.map { $0.scopes["library"]?.scopes["returnAddress"]?["city"] as String? } == ["Paris", "Paris"])

            // Required wins over optional, table by table.
            let mixed = Book.including(optional: Book.returnAddress).joining(required: Book.library).order(Column("id"))
            let mixedSQL = try sql(mixed, db)
            #expect(joinCount(mixedSQL, "library") == 1)
            #expect(!mixedSQL.contains(#"LEFT JOIN "library""#))
            #expect(mixedSQL.contains(#"LEFT JOIN "address""#))
            let mixedRows = try Row.fetchAll(db, mixed)
            #expect(mixedRows.map { $0["id"] as Int64 } == [1, 2, 4])
            #expect(mixedRows.map { $0.scopes["library"]?.scopes["returnAddress"]?["city"] as String? } == ["Paris", nil, "Paris"])

            let reversed = Book.joining(optional: Book.library).including(required: Book.returnAddress)
            #expect(try joinCount(sql(reversed, db), "library") == 1)
            #expect(try reversed.fetchCount(db) == 2)
        }
    }

    @Test func aToManyThroughAssociationAndItsPivotJoinThePivotOnce() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let pivotCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookTag")
            let included = Book.including(required: Book.tags).including(required: Book.bookTags)
            #expect(try joinCount(sql(included, db), "bookTag") == 1)
            #expect(try Row.fetchAll(db, included).count == pivotCount)
            let row = try #require(try Row.fetchOne(db, included.order(Column("id"))))
            #expect(row.scopes.names == ["bookTag"])
            #expect((row.scopes["bookTag"]?.scopes["tag"]?["label"] as String?) != nil)

            let joined = Book.joining(required: Book.tags).joining(optional: Book.bookTags)
            #expect(try joinCount(sql(joined, db), "bookTag") == 1)
            #expect(try joined.fetchCount(db) == pivotCount)

            // The pivot joined with the prefetch of the through association:
            // a row for each pivot row, with the books of its tag.
            let prefetched = Tag.including(all: Tag.books).including(required: Tag.bookTags)
            #expect(try joinCount(sql(prefetched, db), "bookTag") == 1)
            let tagRows = try Row.fetchAll(db, prefetched.order(Column("id")))
            #expect(tagRows.count == pivotCount)
            let novelBooks: [Book] = try tagRows[0]["books"]
            #expect(novelBooks.count == 4)
        }
    }

    @Test func joiningAndIncludingAToManyAssociationJoinItOnce() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Country.joining(required: Country.people).including(required: Country.people)
            #expect(try joinCount(sql(request, db), "person") == 1)
            let peopleWithCountry = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM person WHERE countryCode IS NOT NULL")
            #expect(try request.fetchCount(db) == peopleWithCountry)
        }
    }

    @Test func theRefinedSelectionOfAnAssociationWinsWhenItMerges() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let restricted = Book.author.select(Column("name"), Column("id"))
            let requests = [
                Book.including(required: restricted).including(required: Book.author),
                Book.including(required: Book.author).including(optional: restricted),
                Book.joining(optional: Book.author).including(required: restricted),
                Book.including(required: restricted).joining(required: Book.author),
                Book.including(required: restricted).including(optional: Book.author.filter(Column("birthYear") > 0)),
            ]
            for request in requests {
                #expect(try sql(request, db).hasPrefix(#"SELECT "book".*, "person"."name", "person"."id" FROM "book" JOIN "person""#))
                let row = try #require(try Row.fetchOne(db, request.order(Column("id"))))
                #expect(row.scopes["author"]?.columnNames == ["name", "id"])
                #expect(row.scopes["author"]?["name"] == "Victor Hugo")
            }
            // The last selection wins.
            let last = Book
                .including(required: Book.author.select(Column("name")))
                .including(required: Book.author.select(Column("birthYear")))
            #expect(try sql(last, db).hasPrefix(#"SELECT "book".*, "person"."birthYear" FROM"#))
        }
    }

    @Test func theLastOrderingOfAnAssociationWins() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book
                .including(required: Book.author.order(Column("name")))
                .including(required: Book.author.order(Column("birthYear").desc))
            #expect(try sql(request, db).hasSuffix(#"ORDER BY "person"."birthYear" DESC"#))
            let kept = Book
                .including(required: Book.author.order(Column("name")).reversed())
                .including(optional: Book.author)
            #expect(try sql(kept, db).hasSuffix(#"ORDER BY "person"."name" DESC"#))
        }
    }

    @Test func mergedAssociationsKeepTheFiltersOfTheirNestedAssociations() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book
                .including(required: Book.author.including(required: Person.country.filter(Column("code") != "FR")))
                .including(required: Book.author.including(required: Person.country.filter(Column("code") != "US")))
                .order(Column("id"))
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])
            #expect(try joinCount(sql(request, db), "country") == 1)
        }
    }

    @Test func twoIncludingAllOfOneAssociationApplyBothFilters() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Person
                .including(all: Person.writtenBooks.filter(Column("year") > 1850))
                .including(all: Person.writtenBooks.filter(Column("pages") > 900))
                .filter(Column("id") == 1)
            let row = try #require(try Row.fetchOne(db, request))
            let books: [Book] = try row["writtenBooks"]
            #expect(books.map(\.title) == ["Les Misérables"])
        }
    }

    @Test func twoTableAliasesOfOneAssociationNameOneTable() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let nameAlias = TableAlias<Person>()
            let yearAlias = TableAlias<Person>()
            let request = Book
                .joining(optional: Book.author.aliased(nameAlias))
                .including(required: Book.author.aliased(yearAlias))
                .filter(yearAlias[Column("birthYear")] < 1850)
                .order(nameAlias[Column("name")], Column("id"))
            #expect(try joinCount(sql(request, db), "person") == 1)
            #expect(try request.fetchAll(db).map(\.id) == [2, 3, 1, 4])

            // Two different names for one table can not be honored.
            let a = TableAlias<Person>(name: "a")
            let b = TableAlias<Person>(name: "b")
            let conflicting = Book.joining(required: Book.author.aliased(a)).joining(required: Book.author.aliased(b))
            #expect(throws: DatabaseError.self) { try conflicting.fetchAll(db) }
        }
    }

    /// The fluent composition of GRDB's documentation: each extension
    /// joins the author its own way, and the request joins it once.
    @Test func refiningRequestsComposeAsDocumented() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
        }
        try dbQueue.read { (db: Database) throws in
            let authorAlias = TableAlias<Person>()
            let request = Book.all()
                .joining(required: Book.author.filter(Column("countryCode") == "RU"))
                .joining(optional: Book.author.aliased(authorAlias))
                .order(authorAlias[Column("name")], Column("year").desc)
                .including(required: Book.author)
            #expect(try joinCount(sql(request, db), "person") == 1)
            let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.id) == [3, 2])
            #expect(infos.map(\.author.name) == ["Leo Tolstoy", "Leo Tolstoy"])
        }
    }
}

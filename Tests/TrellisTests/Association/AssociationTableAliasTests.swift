import Testing
import Trellis

private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book

/// The uses of `TableAlias` that GRDB documents in "Table Aliases".
@Suite struct AssociationTableAliasTests {
    private func sql(_ request: some FetchRequest, _ db: Database) throws -> String {
        try request.makePreparedRequest(db, forSingleResult: false).statement.sql
    }

    @Test func aUserAliasNamedAfterTheBaseTableRenamesTheBaseTable() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let alias = TableAlias(name: "book")
            let request = Book
                .joining(required: Book.author.aliased(alias))
                .filter(alias[Column("name")] == "Victor Hugo")
                .order(Column("id"))
            #expect(try sql(request, db).hasPrefix(
                #"SELECT "book1".* FROM "book" "book1" JOIN "person" "book" ON "book"."id" = "book1"."authorId""#))
            #expect(try request.fetchAll(db).map(\.id) == [1, 4])
            #expect(try request.fetchCount(db) == 2)
        }
    }

    @Test func anAliasedAssociationFiltersAndSortsTheRequest() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let alias = TableAlias()
            let request = Book
                .joining(required: Book.author.aliased(alias))
                .filter(alias[Column("name")] == "Leo Tolstoy")
                .order(Column("id"))
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])
            #expect(try request.fetchCount(db) == 2)
            #expect(try request.isEmpty(db) == false)

            // Posthumous-like books: published 40 years after the author's birth.
            let authorAlias = TableAlias<Person>()
            let late = Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(Column("year") >= authorAlias[Column("birthYear")] + 40)
                .order(authorAlias[Column("name")], Column("year"))
            #expect(try late.fetchAll(db).map(\.id) == [2, 3, 1])

            // Named aliases in raw SQL.
            let bookAlias = TableAlias<Book>(name: "b")
            let namedAuthor = TableAlias<Person>(name: "a")
            let raw = Book.aliased(bookAlias)
                .joining(required: Book.author.aliased(namedAuthor)
                    .filter(sql: "a.countryCode = ?", arguments: ["FR"]))
                .filter(sql: "b.year >= a.birthYear + 50")
            #expect(try raw.fetchAll(db).map(\.id) == [1])

            // Books without translator.
            let translatorAlias = TableAlias<Person>()
            let untranslated = Book
                .joining(optional: Book.translator.aliased(translatorAlias))
                .filter(!translatorAlias.exists)
                .order(Column("id"))
            #expect(try untranslated.fetchAll(db).map(\.id) == [2, 4, 5])
        }
    }

    @Test func anAliasedAssociationDeletesAndUpdatesTheRequest() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.write { (db: Database) throws in
            // Books only: nothing refers to them.
            try db.execute(sql: "DELETE FROM award; DELETE FROM bookTag; DELETE FROM cover")
            let alias = TableAlias()
            let request = Book
                .joining(required: Book.author.aliased(alias))
                .filter(alias[Column("name")] == "Leo Tolstoy")
            try request.updateAll(db, Column("pages").set(to: 1))
            #expect(try Book.filter(Column("pages") == 1).order(Column("id")).fetchAll(db).map(\.id) == [2, 3])
            #expect(try request.deleteAll(db) == 2)
            #expect(try Book.fetchCount(db) == 3)

            // The aliased request table.
            let bookAlias = TableAlias<Book>()
            let aliasedBooks = Book.aliased(bookAlias)
                .joining(required: Book.translator)
                .filter(bookAlias[Column("year")] > 1850)
            try aliasedBooks.updateAll(db, Column("pages").set(to: 2))
            #expect(try Book.filter(Column("pages") == 2).fetchAll(db).map(\.id) == [1])
            #expect(try aliasedBooks.deleteAll(db) == 1)
            #expect(try Book.order(Column("id")).fetchAll(db).map(\.id) == [4, 5])
        }
    }

    @Test func aRequestOrAnAssociationAliasedTwiceAnswersToBothAliases() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let first = TableAlias<Person>()
            let second = TableAlias<Person>()
            let request = Book
                .joining(required: Book.author.aliased(first).filter(first[Column("birthYear")] < 1850).aliased(second))
                .filter(second[Column("name")] != "Leo Tolstoy")
                .order(Column("id"))
            #expect(try request.fetchAll(db).map(\.id) == [1, 4])

            let bookAlias = TableAlias<Book>()
            let named = TableAlias<Book>(name: "b")
            let books = Book.aliased(bookAlias).filter(bookAlias[Column("year")] > 1850).aliased(named)
                .filter(sql: "b.pages > 1000")
            #expect(try books.fetchAll(db).map(\.id) == [1, 2])
        }
    }
}

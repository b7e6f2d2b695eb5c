import Testing
import Trellis

private typealias Country = LibraryFixture.Country
private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book
private typealias Cover = LibraryFixture.Cover
private typealias Tag = LibraryFixture.Tag
private typealias Address = LibraryFixture.Address

/// The scopes of joined rows follow the tree of association keys, as in
/// GRDB: a joined table that has included descendants has a scope without
/// columns, the associated record of a `through` association is in the
/// scope of its pivot, and records decode keys found anywhere in the tree.
@Suite struct AssociationScopesTests {
    @Test func aJoinedAssociationHasTheScopeOfItsIncludedAssociations() throws {
        struct BookCountry: Decodable, FetchableRecord {
            var book: Book
            var country: Country
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book.joining(required: Book.author.including(required: Person.country)).order(Column("id"))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes.names == ["author"])
            let authorScope = try #require(row.scopes["author"])
            #expect(authorScope.count == 0)
            #expect(authorScope.scopes["country"]?["code"] == "FR")
            let country: Country = try row["country"]
            #expect(country.code == "FR")
            let infos = try request.asRequest(of: BookCountry.self).fetchAll(db)
            #expect(infos.map(\.country.code) == ["FR", "RU", "RU", "FR"])

            // Nothing included below: no scope.
            let joined = try #require(try Row.fetchOne(db, Book.joining(required: Book.author.joining(optional: Person.country))))
            #expect(joined.scopes.names.isEmpty)
        }
    }

    @Test func aToManyAssociationPrefetchedBelowAJoinedOneIsDecoded() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            // The `through` pivot `library` is joined: the address is in its
            // scope, and the prefetched books of the author in the author's.
            let request = Book
                .including(required: Book.returnAddress)
                .including(required: Book.author.including(all: Person.writtenBooks.order(Column("id"))))
                .order(Column("id"))
            let rows = try Row.fetchAll(db, request)
            #expect(rows.map { $0["id"] as Int64 } == [1, 4])
            let books: [Book] = try #require(rows.first?.scopes["author"])["writtenBooks"]
            #expect(books.map(\.id) == [1, 4])
        }
    }

    @Test func aThroughAssociationIsNestedInTheScopeOfItsPivot() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var returnAddress: Address
        }
        struct ManualBookInfo: FetchableRecord {
            var book: Book
            var returnAddress: Address
            init(row: Row) throws {
                book = try Book(row: row)
                returnAddress = try row["returnAddress"]
            }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book.including(required: Book.returnAddress).order(Column("id"))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.scopes.names == ["library"])
            #expect(row.scopes["library"]?.count == 0)
            #expect(row.scopes["library"]?.scopes["returnAddress"]?["city"] == "Paris")
            #expect(row.scopes["returnAddress"] == nil)
            #expect(row.scopesTree["returnAddress"]?["city"] == "Paris")

            let infos = try request.asRequest(of: BookInfo.self).fetchAll(db)
            #expect(infos.map(\.book.id) == [1, 4])
            #expect(infos.map(\.returnAddress.city) == ["Paris", "Paris"])
            let manualInfos = try request.asRequest(of: ManualBookInfo.self).fetchAll(db)
            #expect(manualInfos.map(\.returnAddress.city) == ["Paris", "Paris"])

            // A to-many `through` association joined to one record: the
            // pivot is joined under its singular key.
            let tagRow = try #require(try Row.fetchOne(db, Tag.including(required: Tag.books).order(Column("id"))))
            #expect(tagRow.scopes.names == ["bookTag"])
            #expect((tagRow.scopes["bookTag"]?.scopes["book"]?["title"] as String?) != nil)
        }
    }

    @Test func theExplicitKeyOfAToManyAssociationIsSingularInToOneScopes() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let puppies = Person.writtenBooks.forKey("littlePuppies")
            let row = try #require(try Row.fetchOne(db, Person.including(required: puppies)))
            #expect(row.scopes.names == ["littlePuppy"])
            let defined = try #require(try Row.fetchOne(db, Person.including(optional: Person.writtenBooks)))
            #expect(defined.scopes.names == ["writtenBook"])
            let joined = try #require(try Row.fetchOne(db, Person.joining(required: puppies.including(required: Book.cover))))
            #expect(joined.scopes.names == ["littlePuppy"])

            // As given in to-many contexts.
            let prefetched = try #require(try Row.fetchOne(db, Person.including(all: puppies)))
            #expect(prefetched.prefetchedRows.keys == ["littlePuppies"])

            // The explicit key of a to-one association is kept as is.
            let coverRow = try #require(try Row.fetchOne(db, Book.including(optional: Book.cover.forKey("coverPictures"))))
            #expect(coverRow.scopes.names == ["coverPictures"])
        }
    }
}

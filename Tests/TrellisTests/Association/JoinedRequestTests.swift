import Testing
import Trellis

private typealias Country = LibraryFixture.Country
private typealias Person = LibraryFixture.Person
private typealias Book = LibraryFixture.Book
private typealias Cover = LibraryFixture.Cover
private typealias Award = LibraryFixture.Award
private typealias Tag = LibraryFixture.Tag
private typealias BookTag = LibraryFixture.BookTag
private typealias Library = LibraryFixture.Library
private typealias Address = LibraryFixture.Address

@Suite struct JoinedRequestTests {
    fileprivate struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Person
        var translator: Person?
    }

    @Test func includingRequiredFetchesOnlyRecordsThatHaveTheAssociatedRecord() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let titles = try dbQueue.read { db in
            try Book.including(required: Book.translator).order(Column("id")).fetchAll(db).map(\.title)
        }
        #expect(titles == ["Les Misérables", "Anna Karenina"])
    }

    @Test func includingAToManyAssociationGivesARowPerAssociatedRecordUnderTheSingularKey() throws {
        struct CountryPerson: Decodable, FetchableRecord {
            var country: Country
            var person: Person
        }
        struct TagBook: Decodable, FetchableRecord {
            var tag: Tag
            var book: Book?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let pairs = try Country.including(required: Country.people.order(Column("name")))
                .order(Column("code"))
                .asRequest(of: CountryPerson.self)
                .fetchAll(db)
            let expected = try Row.fetchAll(db, sql: """
                SELECT country.code, person.name FROM country JOIN person ON person.countryCode = country.code
                ORDER BY country.code, person.name
                """).map { "\($0["code"] as String):\($0["name"] as String)" }
            #expect(!expected.isEmpty)
            #expect(pairs.map { "\($0.country.code):\($0.person.name)" } == expected)

            // Through a pivot table; optional: tags without books too.
            let tagged = try Tag.including(optional: Tag.books).asRequest(of: TagBook.self).fetchAll(db)
            let pivotCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM bookTag") ?? 0
            let untagged = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM tag WHERE id NOT IN (SELECT tagId FROM bookTag)") ?? 0
            #expect(tagged.count == pivotCount + untagged)
            #expect(tagged.filter { $0.book == nil }.count == untagged)

            // The scope is named after the singular key, or the explicit one.
            let row = try #require(try Row.fetchOne(db, Country.including(required: Country.people.forKey("citizen"))))
            #expect(row.scopes.names == ["citizen"])
            let annotated = try #require(try Row.fetchOne(db, Country.annotated(withRequired: Country.people.select(Column("name").forKey("citizenName")))))
            #expect(annotated.columnNames.contains("citizenName"))
        }
    }

    @Test func rowScopesIterateAsNamesAndRows() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let row = try #require(try dbQueue.read { db in
            try Row.fetchOne(db, Book.including(required: Book.author.including(optional: Person.country)).including(optional: Book.translator).order(Column("id")))
        })
        #expect(row.scopes.map(\.name) == ["author", "translator"])
        #expect(row.scopes.map { $0.row["name"] as String? } == ["Victor Hugo", "Isabel Hapgood"])
        #expect(row.scopesTree.names == ["author", "translator", "country"])
        let prefetched = try #require(try dbQueue.read { db in
            try Row.fetchOne(db, Person.including(all: Person.writtenBooks).including(all: Person.mentees).order(Column("id")))
        })
        // Sets, as in GRDB.
        let keys: Set<String> = prefetched.prefetchedRows.keys
        #expect(keys == ["writtenBooks", "mentees"])
    }

    @Test func rowDebugDescriptionShowsTheTreeAsGRDBDocumentsIt() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, Book
                .select(Column("id"), Column("authorId"))
                .including(required: Book.author.select(Column("id"), Column("name")).including(optional: Person.country.select(Column("code"))))
                .including(all: Book.awards.forKey("prizes"))
                .filter(Column("id") == 1)))
            let awardCount = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM award WHERE bookId = 1") ?? 0
            #expect(row.debugDescription == """
                ▿ [id:1 authorId:1]
                  unadapted: [id:1 authorId:1 id:1 name:"Victor Hugo" code:"FR"]
                  - author: [id:1 name:"Victor Hugo"]
                    - country: [code:"FR"]
                  + prizes: \(awardCount) row\(awardCount > 1 ? "s" : "")
                """)
            let plain = try #require(try Row.fetchOne(db, sql: "SELECT 1 AS a, NULL AS b"))
            #expect(plain.debugDescription == "[a:1 b:NULL]")
        }
    }

    @Test func prefetchedRowsOfScopesArePrefetchedRowsOfTheRow() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var writtenBooks: [Book]
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Book.including(required: Book.author.including(all: Person.writtenBooks)).filter(Column("id") == 1)
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.prefetchedRows.keys == ["writtenBooks"])
            #expect(row.scopes["author"]?.prefetchedRows["writtenBooks"]?.count == row.prefetchedRows["writtenBooks"]?.count)
            let info = try #require(try request.asRequest(of: BookInfo.self).fetchOne(db))
            let expected = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM book WHERE authorId = ?", arguments: [info.author.id]) ?? 0
            #expect(info.writtenBooks.count == expected)
            #expect(expected > 0)
        }
    }

    @Test func theSameTableTwiceUnderTwoKeys() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(required: Book.author)
                .including(optional: Book.translator)
                .order(Column("id"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Victor Hugo", "Leo Tolstoy", "Leo Tolstoy", "Victor Hugo", "Anonymous"])
        #expect(infos.map(\.translator?.name) == ["Isabel Hapgood", nil, "Isabel Hapgood", nil, nil])
    }

    @Test func nestedChainsDecodeFlatRecords() throws {
        struct Info: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var country: Country?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(required: Book.author.including(optional: Person.country))
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.country?.name) == ["France", "Russia", "Russia", "France", nil])
    }

    @Test func scopesOfHandWrittenRecords() throws {
        struct Info: FetchableRecord {
            var title: String
            var authorName: String
            var countryName: String?
            init(row: Row) throws {
                title = row["title"]
                let author = try #require(row.scopes["author"])
                authorName = author["name"]
                countryName = author.scopes["country"]?["name"]
            }
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Info.fetchAll(db, Book.including(required: Book.author.including(optional: Person.country)).order(Column("id")))
        }
        #expect(infos.first?.authorName == "Victor Hugo")
        #expect(infos.last?.countryName == nil)
        #expect(infos[1].countryName == "Russia")
    }

    @Test func joiningFiltersWithoutSelecting() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { db in
            let russianBooks = try Book
                .joining(required: Book.author.joining(required: Person.country.filter(Column("code") == "RU")))
                .order(Column("id"))
                .fetchAll(db)
            #expect(russianBooks.map(\.id) == [2, 3])
            let row = try #require(try Row.fetchOne(db, Book.joining(required: Book.author)))
            #expect(row.scopes.names.isEmpty)
            #expect(row.count == 7)
        }
    }

    @Test func joiningOptionalKeepsRecordsWithoutAssociatedRecord() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let count = try dbQueue.read { db in
            try Book.joining(optional: Book.translator).fetchCount(db)
        }
        #expect(count == 5)
    }

    @Test func associationsAreFilteredSortedAndSelected() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, Book
                .including(required: Book.author.select(Column("name")).filter(Column("birthYear") < 1850))
                .order(Column("id")))
            #expect(rows.count == 4)
            #expect(rows[0].scopes["author"]?.columnNames == ["name"])
        }
    }

    @Test func tableAliasesFilterOnJoinedColumns() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let authorAlias = TableAlias<Person>()
        let titles = try dbQueue.read { db in
            try Book
                .joining(required: Book.author.aliased(authorAlias))
                .filter(authorAlias[Column("name")] == "Victor Hugo")
                .order(authorAlias[Column("name")], Column("year"))
                .fetchAll(db)
                .map(\.title)
        }
        #expect(titles == ["Notre-Dame de Paris", "Les Misérables"])
    }

    @Test func selfReferencesJoinTheSameTable() throws {
        struct PersonInfo: Decodable, FetchableRecord {
            var person: Person
            var mentor: Person?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person.including(optional: Person.mentor).order(Column("id")).asRequest(of: PersonInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.mentor?.name) == [nil, nil, "Victor Hugo", "Leo Tolstoy"])
    }

    @Test func hasOneThroughJoinsTheIntermediateTable() throws {
        struct Info: Decodable, FetchableRecord {
            var book: Book
            var returnAddress: Address?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book.including(optional: Book.returnAddress).order(Column("id")).asRequest(of: Info.self).fetchAll(db)
        }
        #expect(infos.map(\.returnAddress?.city) == ["Paris", nil, nil, "Paris", nil])
    }

    @Test func aRequiredAssociationBehindAnOptionalOneDoesNotDropRecords() throws {
        struct Info: Decodable, FetchableRecord {
            var book: Book
            var translator: Person?
            var country: Country?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Book
                .including(optional: Book.translator.including(required: Person.country))
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
        }
        #expect(infos.count == 5)
        #expect(infos[0].country?.code == "US")
    }

    @Test func requestForFetchesTheAssociatedRecordsOfOneRecord() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { db in
            let tolstoy = try Person.find(db, key: 3)
            #expect(try tolstoy.request(for: Person.writtenBooks).order(Column("id")).fetchAll(db).map(\.id) == [2, 3])
            #expect(try tolstoy.request(for: Person.mentor).fetchOne(db)?.name == "Victor Hugo")
            #expect(try tolstoy.request(for: Person.awards).fetchCount(db) == 2)
            let book = try Book.find(db, key: 1)
            #expect(try book.request(for: Book.tags).order(Column("label")).fetchAll(db).map(\.label) == ["history", "novel"])
            #expect(try book.request(for: Book.returnAddress).fetchOne(db)?.city == "Paris")
        }
    }

    @Test func aMissingTableIsAClearError() throws {
        struct Ghost: TableRecord {}
        struct Haunted: TableRecord {
            static let databaseTableName = "book"
            static let ghost = belongsTo(Ghost.self)
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.read { db in try Row.fetchAll(db, Haunted.including(required: Haunted.ghost)) }
        }
        #expect(error?.message == "no such table: ghost")
    }
}

extension DerivableRequest<LibraryFixture.Person> {
    fileprivate func filter(country: String) -> Self {
        filter { $0.countryCode == country }
    }

    fileprivate func orderedByName() -> Self {
        order { $0.name.collating(.localizedCaseInsensitiveCompare) }
    }
}

extension DerivableRequest<LibraryFixture.Book> {
    fileprivate func filter(authorCountry country: String) -> Self {
        joining(required: LibraryFixture.Book.author.filter(country: country))
    }
}

@Suite struct DerivableRequestTests {
    @Test func refinementsAreSharedByRequestsAndAssociations() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { db in
            let names = try Person.all().filter(country: "FR").orderedByName().fetchAll(db).map(\.name)
            #expect(names == ["Victor Hugo"])
            let titles = try Book.all().filter(authorCountry: "RU").order(Column("id")).fetchAll(db).map(\.title)
            #expect(titles == ["War and Peace", "Anna Karenina"])
        }
    }
}

@Suite struct CollationTests {
    @Test func swiftCollationsSortText() throws {
        let dbQueue = try DatabaseQueue()
        let names = try dbQueue.write { db -> [String] in
            try db.execute(sql: "CREATE TABLE t(name TEXT); INSERT INTO t VALUES ('b'), ('A'), ('c'), ('B')")
            let collation = DatabaseCollation("reversedText") { lhs, rhs in
                lhs == rhs ? .orderedSame : (lhs < rhs ? .orderedDescending : .orderedAscending)
            }
            db.add(collation: collation)
            let reversed = try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name COLLATE reversedText")
            #expect(reversed == ["c", "b", "B", "A"])
            return try String.fetchAll(db, SQLRequest<String>(literal: "SELECT name FROM t ORDER BY \(Column("name").collating(.caseInsensitiveCompare)), name"))
        }
        #expect(names == ["A", "B", "b", "c"])
    }
}

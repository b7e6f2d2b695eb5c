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

@Suite struct AggregateTests {
    @Test func annotatedWithCountAndMax() throws {
        struct Info: Decodable, FetchableRecord {
            var person: Person
            var writtenBookCount: Int
            var maxWrittenBookYear: Int?
        }
        let dbQueue = try LibraryFixture.makeDatabase()
        let infos = try dbQueue.read { db in
            try Person
                .annotated(with: Person.writtenBooks.count, Person.writtenBooks.max(Column("year")))
                .order(Column("id"))
                .asRequest(of: Info.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.writtenBookCount) == [2, 0, 2, 1])
        #expect(infos.map(\.maxWrittenBookYear) == [1862, nil, 1878, 1000])
    }

    @Test func otherAggregatesAndTheirDefaultNames() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let row = try dbQueue.read { db in
            try Row.fetchOne(db, Person
                .annotated(with:
                    Person.writtenBooks.min(Column("pages")),
                    Person.writtenBooks.sum(Column("pages")),
                    Person.writtenBooks.total(Column("pages")),
                    Person.writtenBooks.average(Column("pages")),
                    Person.writtenBooks.isEmpty)
                .filter(Column("id") == 3))
        }
        #expect(row?["minWrittenBookPages"] == 850)
        #expect(row?["writtenBookPagesSum"] == 2050)
        #expect(row?["averageWrittenBookPages"] == 1025.0)
        #expect(row?["hasNoWrittenBook"] == false)
    }

    @Test func batchUpdatesAndDeletesKeepTheRowsOfAnAggregateFilter() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.writeWithoutTransaction { (db: Database) throws in
            // Other tables refer to the people deleted below.
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            // Person 2 wrote no book.
            #expect(try Person.having(Person.writtenBooks.isEmpty).updateAll(db, Column("name").set(to: "Idle")) == 1)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM person WHERE name = 'Idle'").count == 1)
            #expect(try Person.having(Person.writtenBooks.isEmpty).fetchCount(db) == 1)
            let deleted = try Person.having(Person.writtenBooks.isEmpty).deleteAndFetchAll(db)
            #expect(deleted.map(\.id) == [2])
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM person ORDER BY id") == [1, 3, 4])
            #expect(try Person.filter(Column("id") != 1).having(Person.writtenBooks.count >= 2).deleteAll(db) == 1)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM person ORDER BY id") == [1, 4])
        }
    }

    @Test func havingWithoutGroupMakesAnAggregateQueryAsInSQL() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let request = Person.select(count(Column("id"))).having(count(Column("id")) > 3)
            #expect(try Int.fetchAll(db, request) == [4])
            #expect(try Int.fetchAll(db, Person.select(count(Column("id"))).having(count(Column("id")) > 4)) == [])
        }
    }

    @Test func havingFiltersOnAggregates() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        try dbQueue.read { db in
            let prolific = try Person.having(Person.writtenBooks.count >= 2).order(Column("id")).fetchAll(db)
            #expect(prolific.map(\.id) == [1, 3])
            let idle = try Person.having(Person.writtenBooks.isEmpty).fetchAll(db)
            #expect(idle.map(\.id) == [2])
        }
    }

    @Test func aggregatesThroughAJoinTableAndCustomKeys() throws {
        let dbQueue = try LibraryFixture.makeDatabase()
        let counts = try dbQueue.read { db in
            try Row.fetchAll(db, Tag.annotated(with: Tag.books.count.forKey("n")).order(Column("id")))
                .map { $0["n"] as Int }
        }
        #expect(counts == [4, 2, 1])
    }
}

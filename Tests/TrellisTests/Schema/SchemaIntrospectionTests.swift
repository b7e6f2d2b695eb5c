import Testing
import Trellis

/// What the introspection of a schema tells beyond GRDB's: generated
/// columns, foreign key actions, foreign keys as declared, partial and
/// expression indexes.
@Suite struct SchemaIntrospectionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE author (id INTEGER PRIMARY KEY, name TEXT, upper TEXT AS (upper(name)),
                  initial TEXT GENERATED ALWAYS AS (substr(name, 1, 1)) STORED);
                CREATE TABLE book (id INTEGER PRIMARY KEY, title TEXT,
                  authorId INTEGER REFERENCES author ON DELETE CASCADE,
                  editorId INTEGER REFERENCES author(id) ON UPDATE SET NULL,
                  publisherCode TEXT REFERENCES publisher(code));
                CREATE INDEX book_title ON book(title) WHERE title IS NOT NULL;
                CREATE INDEX book_lower_title ON book(lower(title));
                CREATE UNIQUE INDEX book_author_title ON book(authorId, title);
                """)
        }
        return dbQueue
    }

    @Test func columnsTellGeneratedColumns() throws {
        let columns = try makeDatabase().read { db in try db.columns(in: "author") }
        #expect(columns.map(\.name) == ["id", "name", "upper", "initial"])
        #expect(columns.map(\.generated) == [nil, nil, .virtual, .stored])
    }

    @Test func declaredForeignKeysKeepTheirDeclarationAndActions() throws {
        let foreignKeys = try makeDatabase().read { db in try db.declaredForeignKeys(on: "book") }
        #expect(foreignKeys.map(\.destinationTable) == ["author", "author", "publisher"])
        #expect(foreignKeys.map(\.originColumns) == [["authorId"], ["editorId"], ["publisherCode"]])
        #expect(foreignKeys.map(\.destinationColumns) == [nil, ["id"], ["code"]])
        #expect(foreignKeys.map(\.onDelete) == [.cascade, nil, nil])
        #expect(foreignKeys.map(\.onUpdate) == [nil, .setNull, nil])
    }

    @Test func foreignKeysResolveImplicitDestinationsAndTellActions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE publisher (code TEXT PRIMARY KEY)") }
        let foreignKeys = try dbQueue.read { db in try db.foreignKeys(on: "book") }
        let byColumn = Dictionary(uniqueKeysWithValues: foreignKeys.map { ($0.originColumns[0], $0) })
        #expect(byColumn["authorId"]?.destinationColumns == ["id"])
        #expect(byColumn["authorId"]?.onDelete == .cascade)
        #expect(byColumn["editorId"]?.onUpdate == .setNull)
        #expect(byColumn["publisherCode"]?.destinationColumns == ["code"])
    }

    @Test func aMissingImplicitDestinationThrowsOnlyWhenResolved() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE book (id INTEGER PRIMARY KEY, shelfId INTEGER REFERENCES shelf)")
            #expect(try db.declaredForeignKeys(on: "book").map(\.destinationTable) == ["shelf"])
            #expect(throws: DatabaseError.self) { _ = try db.foreignKeys(on: "book") }
        }
    }

    @Test func indexesTellPartialAndExpressionIndexes() throws {
        let (columnIndexes, allIndexes) = try makeDatabase().read { db in
            (try db.indexes(on: "book"), try db.indexes(on: "book", includingExpressions: true))
        }
        #expect(Set(columnIndexes.map(\.name)) == ["book_title", "book_author_title"])
        #expect(Set(allIndexes.map(\.name)) == ["book_title", "book_lower_title", "book_author_title"])
        let byName = Dictionary(uniqueKeysWithValues: allIndexes.map { ($0.name, $0) })
        #expect(byName["book_title"]?.isPartial == true)
        #expect(byName["book_author_title"]?.isPartial == false)
        #expect(byName["book_lower_title"]?.isOnExpressions == true)
        #expect(byName["book_lower_title"]?.columns == [])
        #expect(byName["book_author_title"]?.columns == ["authorId", "title"])
    }

    @Test func associationKeyInflectionsArePublic() {
        #expect(AssociationKeyInflections.plural("person") == "people")
        #expect(AssociationKeyInflections.singular("books") == "book")
    }
}

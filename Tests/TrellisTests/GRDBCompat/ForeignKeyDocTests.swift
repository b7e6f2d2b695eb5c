import Testing
import Trellis

// "Foreign Keys" in GRDB's AssociationsBasics.md: inferred foreign keys,
// ambiguous or missing ones (a thrown error with GRDB's message instead of
// GRDB's fatal error), explicit ForeignKey values.

private struct Person: Codable, FetchableRecord, PersistableRecord {
    static let writtenBooks = hasMany(Book.self, using: Book.authorForeignKey)
    static let translatedBooks = hasMany(Book.self, using: Book.translatorForeignKey)
    static let ambiguousBooks = hasMany(Book.self)
    var id: Int64
    var name: String
}

private struct Book: Codable, FetchableRecord, PersistableRecord {
    enum Columns: String, ColumnExpression {
        case id, title, authorId, translatorId
    }
    static let authorForeignKey = ForeignKey([Columns.authorId])
    static let translatorForeignKey = ForeignKey([Columns.translatorId])
    static let author = belongsTo(Person.self, using: authorForeignKey)
    static let translator = belongsTo(Person.self, using: translatorForeignKey)
    static let ambiguousPerson = belongsTo(Person.self)
    var id: Int64
    var title: String
    var authorId: Int64
    var translatorId: Int64?
}

private struct Note: Codable, FetchableRecord, PersistableRecord {
    static let person = belongsTo(Person.self)
    static let explicitPerson = belongsTo(Person.self, using: ForeignKey(["personId"], to: ["id"]))
    var id: Int64
    var personId: Int64
}

@Suite struct GRDBCompatForeignKeyTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text).notNull()
                t.column("authorId", .integer).notNull().references("person")
                t.column("translatorId", .integer).references("person")
            }
            // No foreign key in the schema.
            try db.create(table: "note") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("personId", .integer).notNull()
            }
            try Person(id: 1, name: "Tolstoy").insert(db)
            try Person(id: 2, name: "Hapgood").insert(db)
            try Book(id: 1, title: "Anna Karenina", authorId: 1, translatorId: 2).insert(db)
            try Note(id: 1, personId: 2).insert(db)
        }
        return dbQueue
    }

    @Test func explicitForeignKeysDisambiguate() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Person
            var translator: Person?
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let info = try Book
                .including(required: Book.author.forKey("author"))
                .including(optional: Book.translator.forKey("translator"))
                .asRequest(of: BookInfo.self)
                .fetchOne(db)
            #expect(info?.author.name == "Tolstoy")
            #expect(info?.translator?.name == "Hapgood")
            #expect(try Person.having(Person.writtenBooks.isEmpty == false).fetchAll(db).map(\.id) == [1])
            #expect(try Person.having(Person.translatedBooks.isEmpty == false).fetchAll(db).map(\.id) == [2])
            #expect(try Note.including(required: Note.explicitPerson).asRequest(of: Row.self).fetchOne(db)?.scopes["person"]?["name"] == "Hapgood")
        }
    }

    @Test func ambiguousForeignKeysAreAnError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            do {
                _ = try Book.including(required: Book.ambiguousPerson).fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("Ambiguous foreign key from book to person") == true)
            }
            do {
                _ = try Person.annotated(with: Person.ambiguousBooks.count).fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("Ambiguous foreign key from book to person") == true)
            }
            // The connection stays usable.
            #expect(try Book.fetchCount(db) == 1)
        }
    }

    @Test func missingForeignKeysAreAnError() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            do {
                _ = try Note.including(required: Note.person).fetchAll(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message?.contains("Could not infer foreign key from note to person") == true)
            }
            #expect(try Note.fetchCount(db) == 1)
        }
    }
}

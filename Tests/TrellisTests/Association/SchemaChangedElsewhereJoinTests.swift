import Foundation
import Testing
import Trellis

private struct ReshapedAuthor: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let books = hasMany(ReshapedBook.self)
    var id: Int64
    var name: String
}

private struct ReshapedBook: Codable, FetchableRecord, PersistableRecord, Equatable {
    static let author = belongsTo(ReshapedAuthor.self)
    var id: Int64
    var reshapedAuthorId: Int64
    var title: String
}

private struct ReshapedBookInfo: Decodable, FetchableRecord, Equatable {
    var reshapedBook: ReshapedBook
    var reshapedAuthor: ReshapedAuthor
}

private struct ReshapedAuthorInfo: Decodable, FetchableRecord, Equatable {
    var reshapedAuthor: ReshapedAuthor
    var reshapedBooks: [ReshapedBook]
}

/// Another connection adds a column to the first table of a join between
/// two fetches: the columns of the second table move to the right, and
/// the scopes of the joined rows must follow them.
@Suite struct SchemaChangedElsewhereJoinTests {
    /// A file with an author and a book, and a function that adds a column
    /// to a table from another connection.
    private static func makeLibrary() throws -> (path: String, dbQueue: DatabaseQueue, addColumn: (String) throws -> Void) {
        let path = NSTemporaryDirectory() + "trellis-reshaped-join-" + UUID().uuidString + ".sqlite"
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.create(table: "reshapedAuthor") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
            }
            try db.create(table: "reshapedBook") { t in
                t.primaryKey("id", .integer)
                t.belongsTo("reshapedAuthor").notNull()
                t.column("title", .text).notNull()
            }
            try ReshapedAuthor(id: 7, name: "Ann").insert(db)
            try ReshapedBook(id: 1, reshapedAuthorId: 7, title: "First").insert(db)
        }
        let addColumn = { (table: String) in
            let other = try DatabaseQueue(path: path)
            try other.write { db in try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN note TEXT DEFAULT 'n'") }
            try other.close()
        }
        return (path, dbQueue, addColumn)
    }

    private static let book = ReshapedBook(id: 1, reshapedAuthorId: 7, title: "First")
    private static let author = ReshapedAuthor(id: 7, name: "Ann")

    @Test func joinedRecordsReadTheirColumnsAfterAnotherConnectionAddsOne() throws {
        let (path, dbQueue, addColumn) = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = ReshapedBook.including(required: ReshapedBook.author).asRequest(of: ReshapedBookInfo.self)
        let expected = ReshapedBookInfo(reshapedBook: Self.book, reshapedAuthor: Self.author)
        #expect(try dbQueue.read { db in try request.fetchAll(db) } == [expected])

        try addColumn("reshapedBook")

        #expect(try dbQueue.read { db in try request.fetchAll(db) } == [expected])
        let rows = try dbQueue.read { db in
            try Row.fetchAll(db, ReshapedBook.including(required: ReshapedBook.author))
        }
        #expect(rows.first?["note"] == "n")
        #expect(rows.first?.scopes["reshapedAuthor"]?["name"] == "Ann")
    }

    @Test func aJoinedFetchOneReadsItsColumnsAfterAnotherConnectionAddsOne() throws {
        let (path, dbQueue, addColumn) = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = ReshapedBook.including(required: ReshapedBook.author).asRequest(of: ReshapedBookInfo.self)
        let expected = ReshapedBookInfo(reshapedBook: Self.book, reshapedAuthor: Self.author)
        #expect(try dbQueue.read { db in try request.fetchOne(db) } == expected)

        try addColumn("reshapedBook")

        #expect(try dbQueue.read { db in try request.fetchOne(db) } == expected)
    }

    @Test func prefetchedRecordsReadTheirColumnsAfterAnotherConnectionAddsOne() throws {
        let (path, dbQueue, addColumn) = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = ReshapedAuthor.including(all: ReshapedAuthor.books).asRequest(of: ReshapedAuthorInfo.self)
        let expected = ReshapedAuthorInfo(reshapedAuthor: Self.author, reshapedBooks: [Self.book])
        #expect(try dbQueue.read { db in try request.fetchAll(db) } == [expected])

        try addColumn("reshapedBook")
        #expect(try dbQueue.read { db in try request.fetchAll(db) } == [expected])
        try addColumn("reshapedAuthor")
        #expect(try dbQueue.read { db in try request.fetchAll(db) } == [expected])
    }

    @Test func aJoinedCursorThrowsRatherThanReadMovedColumns() throws {
        let (path, dbQueue, addColumn) = try Self.makeLibrary()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let request = ReshapedBook.including(required: ReshapedBook.author).asRequest(of: ReshapedBookInfo.self)
        let expected = ReshapedBookInfo(reshapedBook: Self.book, reshapedAuthor: Self.author)
        #expect(try dbQueue.read { db in try Array(request.fetchCursor(db)) } == [expected])

        try addColumn("reshapedBook")

        // A cursor learns that the schema changed at its first step, once
        // it was given: it can not be compiled again, and throws.
        #expect {
            try dbQueue.read { db in try Array(request.fetchCursor(db)) }
        } throws: { error in
            (error as? DatabaseError)?.message == "the database schema changed since the request was compiled: run the request again"
        }
        #expect(try dbQueue.read { db in try Array(request.fetchCursor(db)) } == [expected])
    }
}

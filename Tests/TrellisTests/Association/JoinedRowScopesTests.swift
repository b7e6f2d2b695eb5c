import Foundation
import Testing
import Trellis

// The columns and scopes of the rows of joined requests.

@Suite("Scopes of joined rows")
struct JoinedRowScopesTests {
    private struct Author: Codable, FetchableRecord, TableRecord {
        static let country = belongsTo(Country.self)
        var id: Int64
        var name: String
        var countryCode: String
    }

    private struct Country: Codable, FetchableRecord, TableRecord {
        var code: String
        var name: String
    }

    private struct Book: Codable, FetchableRecord, TableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
    }

    /// GRDB's AssociationsBasics guide, "Debugging Request Decoding": the
    /// row of a book has the book's columns, and its scopes the others.
    @Test("A joined row has its table's columns; its scopes and its unadapted row have the others")
    func joinedRowsHaveTheirOwnColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE country(code TEXT PRIMARY KEY, name TEXT);
                CREATE TABLE author(id INTEGER PRIMARY KEY, name TEXT, countryCode TEXT REFERENCES country(code));
                CREATE TABLE book(id INTEGER PRIMARY KEY, authorId INTEGER REFERENCES author(id), title TEXT);
                INSERT INTO country VALUES ('US', 'United States of America');
                INSERT INTO author VALUES (2, 'Herman Melville', 'US');
                INSERT INTO book VALUES (1, 2, 'Moby-Dick');
                """)
            let request = Book.including(required: Book.author.including(optional: Author.country))
            let row = try #require(try Row.fetchOne(db, request))
            #expect(row.count == 3)
            #expect(row.description == #"[id:1 authorId:2 title:"Moby-Dick"]"#)
            #expect(row["name"] as String? == nil)
            let author = try #require(row.scopes["author"])
            #expect(author.description == #"[id:2 name:"Herman Melville" countryCode:"US"]"#)
            #expect(author.scopes["country"]?.description == #"[code:"US" name:"United States of America"]"#)
            #expect(row.unadapted.count == 8)
            // Copies keep the scopes.
            let rows = try Row.fetchAll(db, request)
            #expect(rows[0] == row)
            #expect(rows[0].scopesTree["country"]?["name"] as String? == "United States of America")
            #expect(rows[0].unadapted.count == 8)
        }
    }
}

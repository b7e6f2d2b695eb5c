import Foundation
import Testing
import Trellis

/// SQLite compares SQL text by its bytes, where Swift's `==` compares
/// Unicode canonical equivalence: "café" with a precomposed "é" (NFC) and
/// "café" with "e" and a combining accent (NFD) are two statements.
@Suite struct UnicodeSQLTextTests {
    private let nfc = "caf\u{E9}"
    private let nfd = "cafe\u{301}"

    @Test func statementsThatDifferInNormalizationAreNotShared() throws {
        #expect(nfc == nfd)  // what makes the test meaningful
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE people(name TEXT)")
            try db.execute(sql: "INSERT INTO people VALUES (?), (?), (?)", arguments: [nfd, nfd, nfc])
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM people WHERE name = '\(nfc)'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM people WHERE name = '\(nfd)'") == 2)
            #expect(try Table("people").filter(sql: "name = '\(nfd)'").fetchCount(db) == 2)
            #expect(try String.fetchOne(db, sql: "SELECT '\(nfd)'")?.unicodeScalars.count == 5)
            #expect(try String.fetchOne(db, sql: "SELECT '\(nfc)'")?.unicodeScalars.count == 4)
        }
    }

    @Test func tablesWhoseNamesDifferInNormalizationAreNotConfused() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE "\(nfc)"(a INTEGER PRIMARY KEY, v TEXT);
                CREATE TABLE "\(nfd)"(b TEXT PRIMARY KEY, v TEXT);
                INSERT INTO "\(nfc)" VALUES (1, 'composed');
                INSERT INTO "\(nfd)" VALUES ('x', 'decomposed');
                """)
            #expect(try String.fetchAll(db, sql: "SELECT v FROM \"\(nfc)\"") == ["composed"])
            #expect(try String.fetchAll(db, sql: "SELECT v FROM \"\(nfd)\"") == ["decomposed"])
        }
    }

    @Test func columnLookupsIgnoreUnicodeCase() throws {
        let dbQueue = try DatabaseQueue()
        let row = try dbQueue.read { db in try Row.fetchOne(db, sql: "SELECT 1990 AS Année, 2 AS a") }
        let year: Int? = row?["ANNÉE"]
        #expect(year == 1990)
        #expect(row?.hasColumn("année") == true)
        #expect(row?.hasColumn("ANNEE") == false)
    }
}

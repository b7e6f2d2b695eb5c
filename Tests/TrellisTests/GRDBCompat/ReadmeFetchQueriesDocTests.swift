import Foundation
import Testing
import Trellis

// GRDB's README, "Fetch Queries" (fetching methods, cursors, row queries):
// each sample run as written, with the values the README shows.

private enum Color: String, DatabaseValueConvertible {
    case red, white, rose
}

private struct Wine: FetchableRecord, Hashable {
    var name: String
    var color: Color
    var teamID: Int64

    init(row: Row) {
        name = row["name"]
        color = row["color"]
        teamID = row["teamID"]
    }
}

@Suite struct ReadmeFetchQueriesDocTests {
    private func makeWineQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE wine(id INTEGER PRIMARY KEY, name TEXT, color TEXT, teamID INT, url TEXT);
                INSERT INTO wine VALUES (1, 'Margaux', 'red', 1, 'https://github.com/a');
                INSERT INTO wine VALUES (2, 'Chablis', 'white', 1, 'https://example.com/b');
                INSERT INTO wine VALUES (3, 'Tavel', 'rose', 2, 'https://github.com/c');
                """)
        }
        return dbQueue
    }

    @Test func fetchingRowsValuesAndRecords() throws {
        let dbQueue = try makeWineQueue()
        try dbQueue.read { db in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM wine WHERE id = ?", arguments: [1]))
            let name: String = row["name"]
            let color: Color = row["color"]
            #expect(name == "Margaux" && color == .red)

            let urls = try URL.fetchCursor(db, sql: "SELECT url FROM wine")
            var hosts: [String?] = []
            while let url = try urls.next() {
                hosts.append(url.host)
            }
            #expect(hosts == ["github.com", "example.com", "github.com"])

            let githubLinks = try URL
                .fetchCursor(db, sql: "SELECT url FROM wine")
                .filter { url in url.host == "github.com" }
            var printed: [String] = []
            try githubLinks.forEach { url in printed.append(url.absoluteString) }
            #expect(printed == ["https://github.com/a", "https://github.com/c"])

            #expect(try Row.fetchAll(db, sql: "SELECT name FROM wine WHERE name = ?", arguments: ["Tavel"]) == [["name": "Tavel"]])
            #expect(try Row.fetchAll(db, sql: "SELECT name FROM wine WHERE name = :name", arguments: ["name": "Tavel"]) == [["name": "Tavel"]])
            #expect(try Row.fetchSet(db, sql: "SELECT teamID FROM wine") == [["teamID": 1], ["teamID": 2]])
            #expect(try String.fetchSet(db, sql: "SELECT color FROM wine WHERE teamID = 1") == ["red", "white"])
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM wine") == 3)
        }
        let wines = try dbQueue.read { db in
            try Wine.fetchAll(db, sql: "SELECT * FROM wine")
        }
        #expect(wines.map(\.name) == ["Margaux", "Chablis", "Tavel"])
    }

    // The fetching methods take one statement: the rows of a second one
    // would be lost.
    @Test func fetchingFromSeveralStatementsThrows() throws {
        let dbQueue = try makeWineQueue()
        _ = try dbQueue.read { db in
            #expect(throws: (any Error).self) {
                try Row.fetchAll(db, sql: "SELECT 1; SELECT 2")
            }
        }
    }

    @Test func cursorsFeedCollections() throws {
        let dbQueue = try makeWineQueue()
        try dbQueue.read { db in
            let array = try Array(String.fetchCursor(db, sql: "SELECT name FROM wine ORDER BY id"), minimumCapacity: 3)
            #expect(array == ["Margaux", "Chablis", "Tavel"])
            let set = try Set(Int.fetchCursor(db, sql: "SELECT teamID FROM wine"))
            #expect(set == [1, 2])

            let byTeam = try Dictionary(grouping: Wine.fetchCursor(db, sql: "SELECT * FROM wine"), by: { $0.teamID })
            #expect(byTeam.mapValues { $0.map(\.name) } == [1: ["Margaux", "Chablis"], 2: ["Tavel"]])
            let byName = try Dictionary(uniqueKeysWithValues: Wine.fetchCursor(db, sql: "SELECT * FROM wine").map { ($0.name, $0) })
            #expect(byName["Tavel"]?.color == .rose)
        }
    }

    // A row from a cursor is a view on the statement: copy() keeps its values.
    @Test func rowsFromCursorsAreCopied() throws {
        let dbQueue = try makeWineQueue()
        try dbQueue.read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT name FROM wine ORDER BY id")
            var copies: [Row] = []
            while let row = try rows.next() {
                copies.append(row.copy())
            }
            #expect(copies.map { $0["name"] as String? } == ["Margaux", "Chablis", "Tavel"])
        }
    }
}

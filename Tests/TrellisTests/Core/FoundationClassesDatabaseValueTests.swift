import Foundation
import Testing
import Trellis

/// NSURL and NSUUID are stored and fetched as URL and UUID are.
@Suite struct FoundationClassesDatabaseValueTests {
    @Test func nsurlRoundTripsAsText() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE link(url)")
            let url = try #require(NSURL(string: "https://example.com/a?b=c"))
            try db.execute(sql: "INSERT INTO link VALUES (?)", arguments: [url])
            #expect(try String.fetchOne(db, sql: "SELECT url FROM link") == "https://example.com/a?b=c")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(url) FROM link") == "text")
            let fetched = try #require(try NSURL.fetchOne(db, sql: "SELECT url FROM link"))
            #expect(fetched.absoluteString == "https://example.com/a?b=c")
            #expect(try URL.fetchOne(db, sql: "SELECT url FROM link") == URL(string: "https://example.com/a?b=c"))
            #expect(NSURL.fromDatabaseValue(Data([0xFF]).databaseValue) == nil)
        }
    }

    @Test func nsuuidRoundTripsAsSixteenBytes() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE item(uuid)")
            let uuid = try #require(NSUUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            try db.execute(sql: "INSERT INTO item VALUES (?)", arguments: [uuid])
            #expect(try String.fetchOne(db, sql: "SELECT hex(uuid) FROM item") == "E621E1F8C36C495A93FC0C247A3E6E5F")
            let fetched = try #require(try NSUUID.fetchOne(db, sql: "SELECT uuid FROM item"))
            #expect(fetched.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            // The same bytes as UUID, and its text form is read too.
            #expect(try UUID.fetchOne(db, sql: "SELECT uuid FROM item") == UUID(uuidString: "E621E1F8-C36C-495A-93FC-0C247A3E6E5F"))
            let fromText = try NSUUID.fetchOne(db, sql: "SELECT 'E621E1F8-C36C-495A-93FC-0C247A3E6E5F'")
            #expect(fromText?.uuidString == "E621E1F8-C36C-495A-93FC-0C247A3E6E5F")
            #expect(NSUUID.fromDatabaseValue("not a uuid".databaseValue) == nil)
        }
    }
}

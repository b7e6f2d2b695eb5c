import Testing
import Trellis

@Suite struct SQLiteLibVersionTests {
    @Test func theVersionNumberIsTheOneOfTheLibraryThatRunsTheQueries() throws {
        let version = try DatabaseQueue().read { db in
            try String.fetchOne(db, sql: "SELECT sqlite_version()")
        }
        let parts = try #require(version).split(separator: ".").compactMap { Int32($0) }
        try #require(parts.count == 3)
        #expect(Database.sqliteLibVersionNumber == parts[0] * 1_000_000 + parts[1] * 1_000 + parts[2])
    }

    @Test func theVersionAndSourceIDAreThoseOfTheLibraryThatRunsTheQueries() throws {
        let (version, sourceID) = try DatabaseQueue().read { db in
            (try String.fetchOne(db, sql: "SELECT sqlite_version()"), try String.fetchOne(db, sql: "SELECT sqlite_source_id()"))
        }
        #expect(Database.sqliteLibVersion == version)
        #expect(Database.sqliteSourceID == sourceID)
    }
}

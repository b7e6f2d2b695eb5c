import Foundation
import Testing
import Trellis

/// Firefox's `cookies.sqlite` and `formhistory.sqlite`: a cookie table
/// whose identity is a named UNIQUE constraint over four columns (the
/// integer primary key is only a handle), PRTime timestamps (INTEGER
/// microseconds since 1970) beside an expiry in seconds, and form
/// history whose sources are linked by a WITHOUT ROWID table with a
/// composite primary key and cascading foreign keys.
@Suite struct FirefoxCookiesTests {
    static let cookiesScript = """
        CREATE TABLE moz_cookies (id INTEGER PRIMARY KEY, originAttributes TEXT NOT NULL DEFAULT '', name TEXT, value TEXT, host TEXT, path TEXT, expiry INTEGER, lastAccessed INTEGER, creationTime INTEGER, isSecure INTEGER, isHttpOnly INTEGER, inBrowserElement INTEGER DEFAULT 0, sameSite INTEGER DEFAULT 0, rawSameSite INTEGER DEFAULT 0, schemeMap INTEGER DEFAULT 0, isPartitionedAttributeSet INTEGER DEFAULT 0, CONSTRAINT moz_uniqueid UNIQUE (name, host, path, originAttributes));
        PRAGMA user_version = 14;
        INSERT INTO moz_cookies VALUES (1, '', 'NID', '511=abc', '.google.com', '/', 1735689600, 1700000000123456, 1699990000000000, 1, 1, 0, 0, 0, 2, 0);
        INSERT INTO moz_cookies VALUES (2, '^firstPartyDomain=example.com', 'NID', '511=def', '.google.com', '/', 1735689600, 1700000100000000, 1699990100000000, 1, 1, 0, 1, 1, 2, 0);
        INSERT INTO moz_cookies VALUES (3, '', 'session', 'xyz', 'github.com', '/', 1704067200, 1700000200000000, 1700000200000000, 1, 0, 0, 2, 2, 2, 0);
        """

    static let formHistoryScript = """
        CREATE TABLE moz_formhistory (id INTEGER PRIMARY KEY, fieldname TEXT NOT NULL, value TEXT NOT NULL, timesUsed INTEGER, firstUsed INTEGER, lastUsed INTEGER, guid TEXT);
        CREATE TABLE moz_deleted_formhistory (id INTEGER PRIMARY KEY, timeDeleted INTEGER, guid TEXT);
        CREATE TABLE moz_sources (id INTEGER PRIMARY KEY, source TEXT NOT NULL);
        CREATE TABLE moz_history_to_sources (history_id INTEGER, source_id INTEGER, PRIMARY KEY (history_id, source_id), FOREIGN KEY (history_id) REFERENCES moz_formhistory(id) ON DELETE CASCADE, FOREIGN KEY (source_id) REFERENCES moz_sources(id) ON DELETE CASCADE) WITHOUT ROWID;
        CREATE INDEX moz_formhistory_index ON moz_formhistory (fieldname);
        CREATE INDEX moz_formhistory_lastused_index ON moz_formhistory (lastUsed);
        CREATE INDEX moz_formhistory_guid_index ON moz_formhistory (guid);
        INSERT INTO moz_formhistory VALUES (1, 'searchbar-history', 'sqlite json', 3, 1699000000000000, 1700000000000000, 'Qm9va21hcmsx');
        INSERT INTO moz_formhistory VALUES (2, 'email', 'jane@example.com', 7, 1698000000000000, 1700500000000000, 'Qm9va21hcmsy');
        INSERT INTO moz_formhistory VALUES (3, 'searchbar-history', 'swift testing', 1, 1700600000000000, 1700600000000000, 'Qm9va21hcmsz');
        INSERT INTO moz_sources VALUES (1, 'https://duckduckgo.com/'), (2, 'https://example.com/signup');
        INSERT INTO moz_history_to_sources VALUES (1, 1), (3, 1), (2, 2), (1, 2);
        """

    struct Cookie: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "moz_cookies"
        var id: Int64?
        var originAttributes: String
        var name: String
        var value: String
        var host: String
        var path: String
        var expiry: Int64
        var lastAccessed: Int64
        var creationTime: Int64
        var isSecure: Bool
        var isHttpOnly: Bool
        var sameSite: Int
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }

        /// PRTime: microseconds since 1970.
        var lastAccessedDate: Date { Date(timeIntervalSince1970: Double(lastAccessed) / 1_000_000) }
    }

    struct FormEntry: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "moz_formhistory"
        static let links = hasMany(SourceLink.self)
        static let sources = hasMany(Source.self, through: links, using: SourceLink.source)
        var id: Int64?
        var fieldname: String
        var value: String
        var timesUsed: Int
        var firstUsed: Int64
        var lastUsed: Int64
        var guid: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Source: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "moz_sources"
        static let links = hasMany(SourceLink.self)
        static let entries = hasMany(FormEntry.self, through: links, using: SourceLink.entry)
        var id: Int64?
        var source: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct SourceLink: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "moz_history_to_sources"
        static let entry = belongsTo(FormEntry.self)
        static let source = belongsTo(Source.self)
        var history_id: Int64
        var source_id: Int64
    }

    @Test func theCookieIdentityIsItsNamedUniqueConstraint() throws {
        let file = try RealDatabaseFile(Self.cookiesScript)
        try file.open().read { db in
            #expect(try db.primaryKey("moz_cookies").rowIDColumn == "id")
            // The constraint's name is not the index's: SQLite names it.
            let indexes = try db.indexes(on: "moz_cookies")
            #expect(indexes.map(\.name) == ["sqlite_autoindex_moz_cookies_1"])
            #expect(indexes.map(\.columns) == [["name", "host", "path", "originAttributes"]])
            #expect(indexes.map(\.isUnique) == [true])
            #expect(try db.table("moz_cookies", hasUniqueKey: ["originAttributes", "path", "host", "name"]))
            #expect(try db.table("moz_cookies", hasUniqueKey: ["name", "host"]) == false)
            #expect(try Int.fetchOne(db, sql: "PRAGMA user_version") == 14)
            #expect(try db.columns(in: "moz_cookies").first { $0.name == "originAttributes" }?.defaultValueSQL == "''")

            let cookie = try #require(try Cookie.fetchOne(db, key: ["name": "session", "host": "github.com", "path": "/", "originAttributes": ""]))
            #expect(cookie.id == 3)
            #expect(cookie.lastAccessedDate == Date(timeIntervalSince1970: 1_700_000_200))
            #expect(cookie.isSecure && !cookie.isHttpOnly)
            // Three of the four columns do not identify a cookie.
            let error = #expect(throws: DatabaseError.self) {
                try Cookie.fetchOne(db, key: ["name": "NID", "host": ".google.com", "path": "/"])
            }
            #expect(error?.message?.contains("table moz_cookies has no unique key on column(s) host, name, path") == true)
        }
    }

    @Test func aCookieIsUpsertedOnItsUniqueConstraint() throws {
        let file = try RealDatabaseFile(Self.cookiesScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            // The browser sets the same cookie again: same name, host,
            // path and origin; no id of its own.
            var cookie = Cookie(id: nil, originAttributes: "", name: "session", value: "renewed", host: "github.com", path: "/",
                                expiry: 1706745600, lastAccessed: 1700000300000000, creationTime: 1700000300000000,
                                isSecure: true, isHttpOnly: true, sameSite: 1)
            try cookie.upsert(db)
            #expect(cookie.id == 3)
            #expect(try Cookie.fetchCount(db) == 3)
            let stored = try #require(try Cookie.fetchOne(db, key: 3))
            #expect(stored.value == "renewed")
            #expect(stored.isHttpOnly)
            // The columns the record does not know keep their values.
            #expect(try Int.fetchOne(db, sql: "SELECT schemeMap FROM moz_cookies WHERE id = 3") == 2)

            // Upsert on the constraint, updating one column only.
            var other = Cookie(id: nil, originAttributes: "^firstPartyDomain=example.com", name: "NID", value: "511=ghi",
                               host: ".google.com", path: "/", expiry: 0, lastAccessed: 1700000400000000,
                               creationTime: 0, isSecure: false, isHttpOnly: false, sameSite: 0)
            let fetched = try other.upsertAndFetch(db, onConflict: ["name", "host", "path", "originAttributes"],
                                                  updating: .noColumnUnlessSpecified) { excluded in
                [Column("value").set(to: excluded[Column("value")]), Column("lastAccessed").set(to: excluded[Column("lastAccessed")])]
            }
            #expect(fetched.id == 2)
            #expect(fetched.value == "511=ghi")
            #expect(fetched.creationTime == 1699990100000000)
            #expect(fetched.expiry == 1735689600)

            // A plain insert of an existing cookie is a clear error.
            var duplicate = cookie
            duplicate.id = nil
            let error = #expect(throws: DatabaseError.self) { try duplicate.insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            #expect(error?.message?.contains("UNIQUE constraint failed: moz_cookies.name, moz_cookies.host, moz_cookies.path, moz_cookies.originAttributes") == true)
        }
    }

    @Test func expiredCookiesAreFilteredCountedAndDeleted() throws {
        let file = try RealDatabaseFile(Self.cookiesScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let now: Int64 = 1_720_000_000
            let expired = Cookie.filter(Column("expiry") < now)
            #expect(try expired.fetchAll(db).map(\.name) == ["session"])
            let perHost = try Row.fetchAll(db, Cookie.select(Column("host"), count(Column("id")).forKey("cookies"), max(Column("lastAccessed")).forKey("latest"))
                .group(Column("host")).order(Column("host")))
            #expect(perHost.map { $0["host"] as String } == [".google.com", "github.com"])
            #expect(perHost.map { $0["cookies"] as Int } == [2, 1])
            #expect(perHost.map { $0["latest"] as Int64 } == [1700000100000000, 1700000200000000])
            #expect(try expired.deleteAll(db) == 1)
            let partitioned = Cookie.filter(Column("originAttributes").like("%firstPartyDomain%"))
            #expect(try partitioned.fetchCount(db) == 1)
            #expect(try Cookie.filter(Column("originAttributes") == "").fetchAll(db).map(\.id) == [1])
        }
    }

    @Test func formHistorySourcesGoThroughAWithoutRowidTable() throws {
        struct EntryWithSources: Decodable, FetchableRecord {
            var entry: FormEntry
            var sources: [Source]
        }
        let file = try RealDatabaseFile(Self.formHistoryScript)
        let dbQueue = try file.open()
        try dbQueue.read { db in
            #expect(try db.primaryKey("moz_history_to_sources").columns == ["history_id", "source_id"])
            #expect(try db.primaryKey("moz_history_to_sources").rowIDColumn == nil)
            let entries = try FormEntry.including(all: FormEntry.sources.order(Column("id")).forKey("sources"))
                .order(Column("id")).asRequest(of: EntryWithSources.self).fetchAll(db)
            #expect(entries.map { $0.sources.map(\.source) } == [
                ["https://duckduckgo.com/", "https://example.com/signup"],
                ["https://example.com/signup"],
                ["https://duckduckgo.com/"],
            ])
            let searches = try Source.filter(Column("source") == "https://duckduckgo.com/")
                .joining(required: Source.entries.filter(Column("fieldname") == "searchbar-history"))
                .fetchCount(db)
            #expect(searches == 2)
            let searched = try FormEntry.having(FormEntry.sources.count >= 2).fetchAll(db)
            #expect(searched.map(\.value) == ["sqlite json"])
            let link = try #require(try SourceLink.fetchOne(db, key: ["history_id": 2, "source_id": 2]))
            #expect(try link.request(for: SourceLink.entry).fetchOne(db)?.value == "jane@example.com")
        }
    }

    @Test func deletingAnEntryCascadesToItsLinks() throws {
        let file = try RealDatabaseFile(Self.formHistoryScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            var entry = FormEntry(id: nil, fieldname: "email", value: "rick@example.com", timesUsed: 1,
                                  firstUsed: 1700700000000000, lastUsed: 1700700000000000, guid: "Qm9va21hcms0")
            try entry.insert(db)
            #expect(entry.id == 4)
            try SourceLink(history_id: 4, source_id: 2).insert(db)
            // Inserting the same link again breaks the composite key.
            let error = #expect(throws: DatabaseError.self) { try SourceLink(history_id: 4, source_id: 2).insert(db) }
            #expect(error?.message?.contains("UNIQUE constraint failed: moz_history_to_sources.history_id, moz_history_to_sources.source_id") == true)
            // A link to a source that does not exist: Trellis checks
            // foreign keys.
            let orphan = #expect(throws: DatabaseError.self) { try SourceLink(history_id: 4, source_id: 9).insert(db) }
            #expect(orphan?.resultCode == .SQLITE_CONSTRAINT)
            #expect(orphan?.message == "FOREIGN KEY constraint failed")

            #expect(try SourceLink.filter(Column("source_id") == 2).fetchCount(db) == 3)
            #expect(try entry.delete(db))
            #expect(try SourceLink.filter(Column("source_id") == 2).fetchCount(db) == 2)
            #expect(try Source.deleteOne(db, key: 1))
            #expect(try SourceLink.fetchCount(db) == 2)
            #expect(try FormEntry.fetchCount(db) == 3)
            #expect(try SourceLink.deleteOne(db, key: ["history_id": 2, "source_id": 2]))
            #expect(try SourceLink.fetchAll(db).map(\.history_id) == [1])
        }
    }
}

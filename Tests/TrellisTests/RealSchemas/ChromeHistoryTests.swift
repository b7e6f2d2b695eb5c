import Foundation
import Testing
import Trellis

/// Chrome's `History` file: `LONGVARCHAR` text, a `meta` table keyed by
/// a column that is both UNIQUE and PRIMARY KEY, `BOOLEAN DEFAULT FALSE`,
/// no declared foreign key (a visit names its url in a column named
/// `url`, and the visit it comes from in `from_visit`), a table without
/// primary key, a composite primary key, and WebKit timestamps: INTEGER
/// microseconds since 1601-01-01.
@Suite struct ChromeHistoryTests {
    static let script = """
        CREATE TABLE meta(key LONGVARCHAR NOT NULL UNIQUE PRIMARY KEY, value LONGVARCHAR);
        CREATE TABLE urls(id INTEGER PRIMARY KEY AUTOINCREMENT,url LONGVARCHAR,title LONGVARCHAR,visit_count INTEGER DEFAULT 0 NOT NULL,typed_count INTEGER DEFAULT 0 NOT NULL,last_visit_time INTEGER NOT NULL,hidden INTEGER DEFAULT 0 NOT NULL);
        CREATE TABLE visits(id INTEGER PRIMARY KEY AUTOINCREMENT,url INTEGER NOT NULL,visit_time INTEGER NOT NULL,from_visit INTEGER,transition INTEGER DEFAULT 0 NOT NULL,segment_id INTEGER,visit_duration INTEGER DEFAULT 0 NOT NULL,incremented_omnibox_typed_score BOOLEAN DEFAULT FALSE NOT NULL,opener_visit INTEGER);
        CREATE TABLE keyword_search_terms (keyword_id INTEGER NOT NULL,url_id INTEGER NOT NULL,term LONGVARCHAR NOT NULL,normalized_term LONGVARCHAR NOT NULL);
        CREATE TABLE downloads_url_chains (id INTEGER NOT NULL,chain_index INTEGER NOT NULL,url LONGVARCHAR NOT NULL, PRIMARY KEY (id, chain_index) );
        CREATE TABLE visit_source(id INTEGER PRIMARY KEY,source INTEGER NOT NULL);
        CREATE INDEX visits_url_index ON visits (url);
        CREATE INDEX visits_from_index ON visits (from_visit);
        CREATE INDEX urls_url_index ON urls (url);
        CREATE INDEX keyword_search_terms_index1 ON keyword_search_terms (keyword_id, normalized_term);
        CREATE INDEX keyword_search_terms_index2 ON keyword_search_terms (url_id);
        INSERT INTO meta VALUES ('mmap_status', '-1'), ('version', '68'), ('last_compatible_version', '16');
        INSERT INTO urls VALUES (1, 'https://www.chromium.org/', 'The Chromium Projects', 2, 1, 13345000000123456, 0);
        INSERT INTO urls VALUES (2, 'https://www.google.com/search?q=sqlite', 'sqlite - Google Search', 1, 0, 13345000100000000, 0);
        INSERT INTO urls VALUES (3, 'https://sqlite.org/', 'SQLite Home Page', 1, 0, 13345000200000000, 0);
        INSERT INTO visits VALUES (1, 1, 13344990000000000, 0, 805306369, 0, 0, FALSE, 0);
        INSERT INTO visits VALUES (2, 1, 13345000000123456, 0, 805306368, 0, 1500000, TRUE, 0);
        INSERT INTO visits VALUES (3, 2, 13345000100000000, 0, 805306373, 0, 0, FALSE, 0);
        INSERT INTO visits VALUES (4, 3, 13345000200000000, 3, 0, 0, 0, FALSE, 3);
        INSERT INTO keyword_search_terms VALUES (2, 2, 'SQLite', 'sqlite');
        INSERT INTO downloads_url_chains VALUES (1, 0, 'https://example.com/a.zip'), (1, 1, 'https://cdn.example.com/a.zip');
        INSERT INTO visit_source VALUES (4, 1);
        """

    /// Chrome counts microseconds since 1601-01-01 UTC.
    static func webKitDate(_ microseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(microseconds - 11_644_473_600_000_000) / 1_000_000)
    }

    struct URLRow: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "urls"
        static let visits = hasMany(Visit.self, using: ForeignKey(["url"]))
        var id: Int64?
        var url: String
        var title: String
        var visit_count: Int
        var last_visit_time: Int64
        var hidden: Bool
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Visit: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "visits"
        static let page = belongsTo(URLRow.self, key: "page", using: ForeignKey(["url"]))
        static let referrer = belongsTo(Visit.self, key: "referrer", using: ForeignKey(["from_visit"]))
        static let followers = hasMany(Visit.self, key: "followers", using: ForeignKey(["from_visit"]))
        var id: Int64?
        var url: Int64
        var visit_time: Int64
        var from_visit: Int64
        var transition: Int64
        var visit_duration: Int64
        var incremented_omnibox_typed_score: Bool
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Meta: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "meta"
        var key: String
        var value: String
    }

    @Test func historyIsIntrospected() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("meta").columns == ["key"])
            #expect(try db.primaryKey("meta").isRowID == false)
            // UNIQUE PRIMARY KEY: one index.
            #expect(try db.indexes(on: "meta").map(\.origin) == [.primaryKeyConstraint])
            #expect(try db.primaryKey("urls").rowIDColumn == "id")
            #expect(try db.primaryKey("keyword_search_terms").columns == ["rowid"])
            #expect(try db.primaryKey("downloads_url_chains").columns == ["id", "chain_index"])
            #expect(try db.table("downloads_url_chains", hasUniqueKey: ["chain_index", "id"]))
            #expect(try db.table("keyword_search_terms", hasUniqueKey: ["keyword_id", "normalized_term"]) == false)
            #expect(try db.columns(in: "visits").first { $0.name == "incremented_omnibox_typed_score" }?.defaultValueSQL == "FALSE")
            #expect(try db.columns(in: "urls").map(\.type) == ["INTEGER", "LONGVARCHAR", "LONGVARCHAR", "INTEGER", "INTEGER", "INTEGER", "INTEGER"])
            #expect(try db.foreignKeys(on: "visits").isEmpty)
        }
    }

    @Test func metaValuesAreTextThatSpellsNumbers() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            #expect(try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'version'") == 68)
            #expect(try Int.fetchOne(db, sql: "SELECT value FROM meta WHERE key = 'mmap_status'") == -1)
            try Meta(key: "version", value: "69").update(db)
            try Meta(key: "typed_url_model_type_state", value: "").save(db)
            #expect(try Meta.fetchOne(db, key: "version")?.value == "69")
            #expect(try Meta.fetchCount(db) == 4)
            let duplicate = #expect(throws: DatabaseError.self) { try Meta(key: "version", value: "70").insert(db) }
            #expect(duplicate?.resultCode == .SQLITE_CONSTRAINT)
            #expect(duplicate?.message?.contains("meta.key") == true)
        }
    }

    @Test func webKitTimestampsAreMicrosecondsSince1601() throws {
        struct Narrow: Decodable, FetchableRecord {
            var visit_time: Int32
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let url = try #require(try URLRow.fetchOne(db, key: 1))
            #expect(Self.webKitDate(url.last_visit_time) == Date(timeIntervalSince1970: 1_700_526_400.123456))
            // SQLite's conversion agrees.
            let text = try String.fetchOne(db, sql: "SELECT datetime(last_visit_time / 1000000 - 11644473600, 'unixepoch') FROM urls WHERE id = 1")
            #expect(text == "2023-11-21 00:26:40")
            // 64-bit microseconds do not fit 32 bits: an error, never a
            // truncated value.
            let error = #expect(throws: RowDecodingError.self) { try Narrow.fetchAll(db, sql: "SELECT visit_time FROM visits") }
            #expect(error?.message.contains("could not decode Int32 from database value 13344990000000000") == true)
            #expect(throws: (any Error).self) { try Int32.fetchAll(db, sql: "SELECT visit_time FROM visits") }
        }
    }

    @Test func visitsJoinTheirURLAndTheVisitTheyComeFrom() throws {
        struct VisitInfo: Decodable, FetchableRecord {
            var visit: Visit
            var page: URLRow
            var referrer: Visit?
        }
        struct PageInfo: Decodable, FetchableRecord {
            var urlRow: URLRow
            var visits: [Visit]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // Both tables have a column `url`: each record reads its own.
            let infos = try Visit.including(required: Visit.page).including(optional: Visit.referrer)
                .order(Column("id")).asRequest(of: VisitInfo.self).fetchAll(db)
            #expect(infos.map(\.visit.url) == [1, 1, 2, 3])
            #expect(infos.map(\.page.url) == ["https://www.chromium.org/", "https://www.chromium.org/",
                                              "https://www.google.com/search?q=sqlite", "https://sqlite.org/"])
            // from_visit 0 is no visit: the self join finds none.
            #expect(infos.map { $0.referrer?.id } == [nil, nil, nil, 3])
            #expect(infos.map(\.visit.incremented_omnibox_typed_score) == [false, true, false, false])

            let pages = try URLRow.including(all: URLRow.visits.order(Column("id")).forKey("visits"))
                .order(Column("id")).asRequest(of: PageInfo.self).fetchAll(db)
            #expect(pages.map { $0.visits.map { $0.id ?? 0 } } == [[1, 2], [3], [4]])
            let followed = try Visit.having(Visit.followers.count > 0).fetchAll(db)
            #expect(followed.map(\.id) == [3])
            let counts = try Row.fetchAll(db, URLRow.annotated(with: URLRow.visits.count).order(Column("id")))
            #expect(counts.map { $0["visitCount"] as Int } == [2, 1, 1])
        }
    }

    @Test func rowsWithoutPrimaryKeyAndCompositeKeysAreWritten() throws {
        struct SearchTerm: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "keyword_search_terms"
            static let url = belongsTo(URLRow.self, using: ForeignKey(["url_id"]))
            var keyword_id: Int64
            var url_id: Int64
            var term: String
            var normalized_term: String
        }
        struct ChainLink: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "downloads_url_chains"
            var id: Int64
            var chain_index: Int
            var url: String
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            try SearchTerm(keyword_id: 2, url_id: 3, term: "SQLite home", normalized_term: "sqlite home").insert(db)
            let terms = try SearchTerm.joining(required: SearchTerm.url.filter(Column("title") == "SQLite Home Page"))
                .fetchAll(db)
            #expect(terms.map(\.term) == ["SQLite home"])
            #expect(try SearchTerm.fetchOne(db, key: 2)?.term == "SQLite home")

            try ChainLink(id: 1, chain_index: 1, url: "https://mirror.example.com/a.zip").update(db)
            try ChainLink(id: 1, chain_index: 2, url: "https://last.example.com/a.zip").save(db)
            #expect(try ChainLink.fetchOne(db, key: ["id": 1, "chain_index": 1])?.url == "https://mirror.example.com/a.zip")
            #expect(try ChainLink.filter(Column("id") == 1).fetchCount(db) == 3)
            #expect(try ChainLink.deleteAll(db, keys: [["id": 1, "chain_index": 0], ["id": 1, "chain_index": 2]]) == 2)

            var visit = Visit(id: nil, url: 3, visit_time: 13345000300000000, from_visit: 4, transition: 0,
                              visit_duration: 0, incremented_omnibox_typed_score: true)
            try visit.insert(db)
            #expect(visit.id == 5)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(incremented_omnibox_typed_score) FROM visits WHERE id = 5") == "integer")
        }
    }
}

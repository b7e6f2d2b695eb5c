import Foundation
import Testing
import Trellis

/// Firefox's places.sqlite: `LONGVARCHAR` columns, GUIDs as text, dates as
/// INTEGER microseconds since 1970, foreign keys that are only columns,
/// a column named `hidden`, a WITHOUT ROWID metadata table whose value has
/// no declared type.
@Suite struct FirefoxPlacesTests {
    static let script = """
        CREATE TABLE moz_origins ( id INTEGER PRIMARY KEY, prefix TEXT NOT NULL, host TEXT NOT NULL, frecency INTEGER NOT NULL, recalc_frecency INTEGER NOT NULL DEFAULT 0, UNIQUE (prefix, host) );
        CREATE TABLE moz_places (   id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR, rev_host LONGVARCHAR, visit_count INTEGER DEFAULT 0, hidden INTEGER DEFAULT 0 NOT NULL, typed INTEGER DEFAULT 0 NOT NULL, frecency INTEGER DEFAULT -1 NOT NULL, last_visit_date INTEGER , guid TEXT, foreign_count INTEGER DEFAULT 0 NOT NULL, url_hash INTEGER DEFAULT 0 NOT NULL , description TEXT, preview_image_url TEXT, origin_id INTEGER REFERENCES moz_origins(id));
        CREATE TABLE moz_historyvisits (  id INTEGER PRIMARY KEY, from_visit INTEGER, place_id INTEGER, visit_date INTEGER, visit_type INTEGER, session INTEGER, source INTEGER DEFAULT 0 NOT NULL, triggeringPlaceId INTEGER);
        CREATE TABLE moz_bookmarks (  id INTEGER PRIMARY KEY, type INTEGER, fk INTEGER DEFAULT NULL, parent INTEGER, position INTEGER, title LONGVARCHAR, keyword_id INTEGER, folder_type TEXT, dateAdded INTEGER, lastModified INTEGER, guid TEXT, syncStatus INTEGER NOT NULL DEFAULT 0, syncChangeCounter INTEGER NOT NULL DEFAULT 1);
        CREATE TABLE moz_meta (key TEXT PRIMARY KEY, value NOT NULL) WITHOUT ROWID ;
        CREATE INDEX moz_places_url_hashindex ON moz_places (url_hash);
        CREATE INDEX moz_places_hostindex ON moz_places (rev_host);
        CREATE UNIQUE INDEX moz_places_guid_uniqueindex ON moz_places (guid);
        CREATE INDEX moz_historyvisits_placedateindex ON moz_historyvisits (place_id, visit_date);
        CREATE INDEX moz_bookmarks_itemindex ON moz_bookmarks (fk, type);
        CREATE UNIQUE INDEX moz_bookmarks_guid_uniqueindex ON moz_bookmarks (guid);
        INSERT INTO moz_origins VALUES (1, 'https://', 'www.mozilla.org', 100, 0), (2, 'https://', 'sqlite.org', 50, 0);
        INSERT INTO moz_places VALUES (1, 'https://www.mozilla.org/', 'Mozilla', 'gro.allizom.www.', 3, 0, 1, 100, 1700000000123456, 'AbCdEfGhIjKl', 1, 47356061806779, NULL, NULL, 1);
        INSERT INTO moz_places VALUES (2, 'https://sqlite.org/lang_datefunc.html', 'Date And Time Functions', 'gro.etilqs.', 1, 0, 0, 50, 1700000100000000, 'MnOpQrStUvWx', 0, 47358209712345, 'dates', NULL, 2);
        INSERT INTO moz_places VALUES (3, 'place:sort=8', NULL, NULL, 0, 1, 0, 0, NULL, 'YzAbCdEfGhIj', 0, 0, NULL, NULL, NULL);
        INSERT INTO moz_historyvisits VALUES (1, 0, 1, 1699999000000000, 1, 0, 0, NULL), (2, 1, 1, 1700000000123456, 1, 0, 0, NULL), (3, 0, 2, 1700000100000000, 2, 0, 0, NULL);
        INSERT INTO moz_bookmarks VALUES (1, 2, NULL, 0, 0, '', NULL, NULL, 1700000000000000, 1700000000000000, 'root________', 1, 1);
        INSERT INTO moz_bookmarks VALUES (2, 1, 1, 1, 0, 'Mozilla', NULL, NULL, 1700000000500000, 1700000000500000, 'bkmk________', 1, 1);
        INSERT INTO moz_meta VALUES ('origin_frecency_count', 2), ('sync/lastSync', '1700000000.12');
        """

    struct Place: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "moz_places"
        static let visits = hasMany(Visit.self, using: ForeignKey(["place_id"]))
        static let origin = belongsTo(Origin.self)
        var id: Int64
        var url: String
        var title: String?
        var visit_count: Int
        var hidden: Bool
        var last_visit_date: Int64?
        var guid: String

        /// Firefox counts microseconds.
        var lastVisit: Date? { last_visit_date.map { Date(timeIntervalSince1970: Double($0) / 1_000_000) } }
    }

    struct Origin: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "moz_origins"
        var id: Int64
        var host: String
    }

    struct Visit: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "moz_historyvisits"
        static let place = belongsTo(Place.self, using: ForeignKey(["place_id"]))
        var id: Int64
        var place_id: Int64
        var visit_date: Int64
    }

    struct Bookmark: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "moz_bookmarks"
        static let place = belongsTo(Place.self, using: ForeignKey(["fk"]))
        var id: Int64
        var type: Int
        var fk: Int64?
        var title: String?
    }

    @Test func placesAreIntrospectedAndRead() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let columns = try db.columns(in: "moz_places")
            #expect(columns.count == 15)
            #expect(columns.first { $0.name == "url" }?.type == "LONGVARCHAR")
            #expect(columns.first { $0.name == "hidden" }?.defaultValueSQL == "0")
            #expect(columns.first { $0.name == "frecency" }?.defaultValueSQL == "-1")
            #expect(try db.columns(in: "moz_meta").map(\.type) == ["TEXT", ""])
            #expect(try db.primaryKey("moz_meta").columns == ["key"])
            #expect(try db.table("moz_places", hasUniqueKey: ["guid"]))
            #expect(try db.table("moz_origins", hasUniqueKey: ["host", "prefix"]))
            #expect(try db.indexes(on: "moz_historyvisits").map(\.columns) == [["place_id", "visit_date"]])
            for (_, name) in try file.schemaObjects(db) {
                #expect(try Table(name).fetchAll(db).count == (try Table(name).fetchCount(db)))
            }
            let places = try Place.order(Column("id")).fetchAll(db)
            #expect(places.map(\.hidden) == [false, false, true])
            #expect(places.map(\.lastVisit) == [
                Date(timeIntervalSince1970: 1_700_000_000.123456), Date(timeIntervalSince1970: 1_700_000_100), nil])
            #expect(try Place.fetchOne(db, key: ["guid": "MnOpQrStUvWx"])?.id == 2)
            // The untyped value of moz_meta keeps what was stored.
            #expect(try Row.fetchAll(db, sql: "SELECT typeof(value) FROM moz_meta ORDER BY key").map { $0[0] as String } == ["integer", "text"])
            #expect(try Double.fetchOne(db, sql: "SELECT value FROM moz_meta WHERE key = 'sync/lastSync'") == 1_700_000_000.12)
            #expect(try String.fetchOne(db, sql: "SELECT value FROM moz_meta WHERE key = 'origin_frecency_count'") == "2")
        }
    }

    @Test func microsecondsAreNotSeconds() throws {
        struct RawPlace: Decodable, FetchableRecord {
            var last_visit_date: Date?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            // As GRDB, a Date reads an integer as seconds since 1970.
            let raw = try RawPlace.fetchAll(db, sql: "SELECT last_visit_date FROM moz_places ORDER BY id")
            #expect(raw.map(\.last_visit_date) == [
                Date(timeIntervalSince1970: 1_700_000_000_123_456), Date(timeIntervalSince1970: 1_700_000_100_000_000), nil])
            // Date components have no numeric form: a clear error (GRDB
            // stops on an assertion).
            #expect(throws: RowDecodingError.self) {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT last_visit_date FROM moz_places WHERE id = 1")
            }
            // SQLite converts them itself.
            let text = try String.fetchOne(db, sql: "SELECT datetime(last_visit_date / 1000000, 'unixepoch') FROM moz_places WHERE id = 1")
            #expect(text == "2023-11-14 22:13:20")
            #expect(try Date.fetchOne(db, sql: "SELECT datetime(last_visit_date / 1000000, 'unixepoch') FROM moz_places WHERE id = 1")
                == Date(timeIntervalSince1970: 1_700_000_000))
        }
    }

    @Test func columnsThatReferToOtherTablesAreJoinedWithExplicitKeys() throws {
        struct VisitInfo: Decodable, FetchableRecord {
            var visit: Visit
            var place: Place
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            // The default key is the singular of the table name,
            // `moz_place`, as in GRDB: the record names it `place`.
            let visits = try Visit.including(required: Visit.place.forKey("place")).order(Column("id")).asRequest(of: VisitInfo.self).fetchAll(db)
            #expect(visits.map(\.place.guid) == ["AbCdEfGhIjKl", "AbCdEfGhIjKl", "MnOpQrStUvWx"])
            let counts = try Row.fetchAll(db, Place.annotated(with: Place.visits.count.forKey("visitCount")).order(Column("id")))
            #expect(counts.map { $0["visitCount"] as Int } == [2, 1, 0])
            let bookmarked = try Bookmark.joining(required: Bookmark.place).fetchAll(db)
            #expect(bookmarked.map(\.title) == ["Mozilla"])
            // moz_places declares its origin_id foreign key: inferred.
            let hosts = try Row.fetchAll(db, Place.select(Column("id")).annotated(withRequired: Place.origin.select(Column("host"))).order(Column("id")))
            #expect(hosts.map { $0["host"] as String } == ["www.mozilla.org", "sqlite.org"])
        }
    }
}

/// Bookmarks name their folder in a column `parent`: the key a
/// self-association of that name would take.
@Suite struct FirefoxBookmarkFoldersTests {
    struct Bookmark: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "moz_bookmarks"
        static let folder = belongsTo(Bookmark.self, key: "folder", using: ForeignKey(["parent"]))
        static let parentFolder = belongsTo(Bookmark.self, key: "parent", using: ForeignKey(["parent"]))
        var id: Int64
        var parent: Int64
        var title: String
        var guid: String
    }

    @Test func aColumnAndAnAssociationOfTheSameNameDecodeClearly() throws {
        struct BookmarkInfo: Decodable, FetchableRecord {
            var bookmark: Bookmark
            var folder: Bookmark
        }
        struct ShadowedInfo: Decodable, FetchableRecord {
            var bookmark: Bookmark
            var parent: Bookmark
        }
        let file = try RealDatabaseFile(FirefoxPlacesTests.script)
        try file.open().read { (db) throws in
            let infos = try Bookmark.including(required: Bookmark.folder).asRequest(of: BookmarkInfo.self).fetchAll(db)
            #expect(infos.map(\.folder.guid) == ["root________"])
            // The column `parent` comes first, as in GRDB: a record can
            // not be read from its integer, and the error says why.
            let error = #expect(throws: RowDecodingError.self) {
                try Bookmark.including(required: Bookmark.parentFolder).asRequest(of: ShadowedInfo.self).fetchAll(db)
            }
            #expect(error?.message.hasPrefix(#"could not decode Bookmark from database value 1 - column: "parent""#) == true)
            #expect(error?.message.contains(#"the column "parent" hides the association of the same key: give the association another key"#) == true)
        }
    }
}

import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on more application files: Home Assistant's self
/// reference beside a column of the same name, link tables whose
/// columns are named after their tables, Calibre's views that call its
/// own functions, a GeoPackage with its R*Tree, and full-text tables of
/// tokenizers the inspector lacks.
@Suite struct InspectMoreAppDatabasesTests {
    private func inspect(_ sql: String, functions: [DatabaseFunction] = [], doubleQuotedStrings: Bool = false) throws -> DatabaseReport {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-more-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.acceptsDoubleQuotedStringLiterals = doubleQuotedStrings
        configuration.prepareDatabase { db in
            for function in functions { db.add(function: function) }
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try dbQueue.close()
        return try SchemaInspector.inspect(path: path)
    }

    @Test func anAssociationIsNotNamedAfterAColumnOfItsTable() throws {
        let report = try inspect("""
            CREATE TABLE states_meta (metadata_id INTEGER NOT NULL, entity_id VARCHAR(255), PRIMARY KEY (metadata_id));
            CREATE TABLE states (
            	state_id INTEGER NOT NULL, 
            	state VARCHAR(255), 
            	last_updated_ts FLOAT, 
            	old_state_id INTEGER, 
            	metadata_id INTEGER, 
            	PRIMARY KEY (state_id), 
            	FOREIGN KEY(old_state_id) REFERENCES states (state_id) ON DELETE SET NULL, 
            	FOREIGN KEY(metadata_id) REFERENCES states_meta (metadata_id)
            );
            CREATE TABLE books (id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL);
            CREATE TABLE tags (id INTEGER PRIMARY KEY, name TEXT NOT NULL, UNIQUE (name));
            CREATE TABLE books_tags_link (id INTEGER PRIMARY KEY, book INTEGER NOT NULL REFERENCES books(id), tag INTEGER NOT NULL REFERENCES tags(id), UNIQUE(book, tag));
            """)
        let states = report.associations.filter { $0.table == "states" }.map(\.declaration)
        // `state` is a column of `states`: a property of that name would
        // read it. The previous state is named after its column.
        #expect(states.contains(#"static let oldState = belongsTo(State.self, key: "oldState")"#))
        #expect(!states.contains { $0.hasPrefix("static let state =") })
        let links = report.associations.filter { $0.table == "books_tags_link" }.map(\.declaration)
        #expect(links == [
            #"static let bookRecord = belongsTo(Book.self, key: "bookRecord")"#,
            #"static let tagRecord = belongsTo(Tag.self, key: "tagRecord")"#,
        ])
        // The associations through the link table use those names.
        let books = report.associations.filter { $0.table == "books" }.map(\.declaration)
        #expect(books.contains("static let tags = hasMany(Tag.self, through: booksTagsLinks, using: BooksTagsLink.tagRecord)"))
        #expect(books.contains(#"static let booksTagsLinks = hasMany(BooksTagsLink.self, key: "booksTagsLinks")"#))
        #expect(report.ambiguities.isEmpty)
    }

    @Test func calibresViewsThatCallItsFunctionsAreReportedWithTheirError() throws {
        let titleSort = DatabaseFunction("title_sort", argumentCount: 1, pure: true) { $0[0] }
        let report = try inspect(#"""
            CREATE TABLE books ( id INTEGER PRIMARY KEY AUTOINCREMENT, title TEXT NOT NULL DEFAULT 'Unknown' COLLATE NOCASE, sort TEXT COLLATE NOCASE, isbn TEXT DEFAULT "" COLLATE NOCASE, path TEXT NOT NULL DEFAULT "");
            CREATE TABLE authors ( id INTEGER PRIMARY KEY, name TEXT NOT NULL COLLATE NOCASE, UNIQUE(name));
            CREATE TABLE books_authors_link ( id INTEGER PRIMARY KEY, book INTEGER NOT NULL, author INTEGER NOT NULL, UNIQUE(book, author));
            CREATE VIEW meta AS SELECT id, title, (SELECT sortconcat(bal.id, name) FROM books_authors_link AS bal JOIN authors ON(author = authors.id) WHERE book = books.id) authors FROM books;
            CREATE TRIGGER books_insert_trg AFTER INSERT ON books BEGIN UPDATE books SET sort=title_sort(NEW.title) WHERE id=NEW.id; END;
            INSERT INTO books (title) VALUES ('The Hobbit');
            """#, functions: [titleSort], doubleQuotedStrings: true)
        #expect(report.tables.map(\.name) == ["authors", "books", "books_authors_link"])
        #expect(report.tables.allSatisfy { $0.error == nil })
        #expect(report.views.map(\.name) == ["meta"])
        #expect(report.views[0].error == "no such function: sortconcat")
        let books = try #require(report.tables.first { $0.name == "books" })
        #expect(books.columns.map(\.defaultValue) == [nil, "'Unknown'", nil, #""""#, #""""#])
        #expect(books.triggers.map(\.name) == ["books_insert_trg"])
        let text = ReportRenderer.text(report)
        #expect(text.contains("View meta\nCould not be read: no such function: sortconcat"))
        #expect(report.associations.isEmpty)
    }

    @Test func aGeoPackageHidesTheTablesOfItsRTree() throws {
        let report = try inspect("""
            CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL,srs_id INTEGER NOT NULL PRIMARY KEY,organization TEXT NOT NULL,organization_coordsys_id INTEGER NOT NULL,definition  TEXT NOT NULL,description TEXT);
            CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY,data_type TEXT NOT NULL,identifier TEXT UNIQUE,description TEXT DEFAULT '',last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE,srs_id INTEGER,CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
            CREATE TABLE "poi" ( "fid" INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, "geom" POINT, "name" TEXT(80));
            CREATE VIRTUAL TABLE "rtree_poi_geom" USING rtree(id, minx, maxx, miny, maxy);
            CREATE TRIGGER "rtree_poi_geom_insert" AFTER INSERT ON "poi" WHEN (new."geom" NOT NULL AND NOT ST_IsEmpty(NEW."geom")) BEGIN INSERT OR REPLACE INTO "rtree_poi_geom" VALUES (NEW."fid",ST_MinX(NEW."geom"), ST_MaxX(NEW."geom"),ST_MinY(NEW."geom"), ST_MaxY(NEW."geom")); END;
            INSERT INTO rtree_poi_geom VALUES (1, 2.29, 2.29, 48.86, 48.86);
            """)
        #expect(report.tables.map(\.name) == ["gpkg_contents", "gpkg_spatial_ref_sys", "poi", "rtree_poi_geom"])
        #expect(report.tables.allSatisfy { $0.error == nil })
        let rtree = try #require(report.tables.first { $0.name == "rtree_poi_geom" })
        #expect(rtree.virtualTableModule == "rtree")
        #expect(rtree.columns.map(\.name) == ["id", "minx", "maxx", "miny", "maxy"])
        let poi = try #require(report.tables.first { $0.name == "poi" })
        #expect(poi.columns.map(\.type) == ["INTEGER", "POINT", "TEXT(80)"])
        #expect(poi.triggers.map(\.name) == ["rtree_poi_geom_insert"])
        #expect(report.tables.first { $0.name == "gpkg_contents" }?.columns.first { $0.name == "last_change" }?.defaultValue
            == "strftime('%Y-%m-%dT%H:%M:%fZ','now')")
    }

    @Test func fullTextTablesOfAMissingTokenizerAreReportedWithTheirError() throws {
        let report = try inspect("""
            CREATE TABLE messages (id INTEGER PRIMARY KEY, conversationID INTEGER NOT NULL, headerMessageID TEXT);
            CREATE VIRTUAL TABLE messagesText USING fts3(tokenize porter, subject TEXT, body TEXT);
            CREATE VIRTUAL TABLE messages_fts USING fts5(body, tokenize = 'unicode61');
            INSERT INTO messagesText (docid, subject, body) VALUES (1, 'Lunch', 'See you at noon');
            PRAGMA writable_schema = ON;
            UPDATE sqlite_master SET sql = replace(sql, 'tokenize porter', 'tokenize mozporter') WHERE name = 'messagesText';
            UPDATE sqlite_master SET sql = replace(sql, 'unicode61', 'signal_tokenizer') WHERE name = 'messages_fts';
            PRAGMA writable_schema = OFF;
            """)
        // The shadow tables of both are left out, as for readable ones.
        #expect(report.tables.map(\.name) == ["messages", "messagesText", "messages_fts"])
        #expect(report.tables.first { $0.name == "messagesText" }?.error == "unknown tokenizer: mozporter")
        #expect(report.tables.first { $0.name == "messages_fts" }?.error == "no such tokenizer: signal_tokenizer")
        #expect(report.tables.first { $0.name == "messages" }?.error == nil)
        let text = ReportRenderer.text(report)
        #expect(text.contains("Table messages_fts (virtual table, fts5)\nCould not be read: no such tokenizer: signal_tokenizer"))
    }
}

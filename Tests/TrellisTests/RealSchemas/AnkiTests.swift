import Foundation
import Testing
import Trellis

/// Anki's `collection.anki2`: integer ids that are millisecond
/// timestamps, a single-row `col` table of JSON text, note fields joined
/// by the unit separator, a sort field declared `integer` that holds
/// text, unsigned checksums, and, in recent versions, WITHOUT ROWID
/// tables whose names use Anki's own `unicase` collation.
@Suite struct AnkiTests {
    static let script = """
        CREATE TABLE col (id integer primary key, crt integer not null, mod integer not null, scm integer not null, ver integer not null, dty integer not null, usn integer not null, ls integer not null, conf text not null, models text not null, decks text not null, dconf text not null, tags text not null);
        CREATE TABLE notes (id integer primary key, guid text not null, mid integer not null, mod integer not null, usn integer not null, tags text not null, flds text not null, sfld integer not null, csum integer not null, flags integer not null, data text not null);
        CREATE TABLE cards (id integer primary key, nid integer not null, did integer not null, ord integer not null, mod integer not null, usn integer not null, type integer not null, queue integer not null, due integer not null, ivl integer not null, factor integer not null, reps integer not null, lapses integer not null, left integer not null, odue integer not null, odid integer not null, flags integer not null, data text not null);
        CREATE TABLE revlog (id integer primary key, cid integer not null, usn integer not null, ease integer not null, ivl integer not null, lastIvl integer not null, factor integer not null, time integer not null, type integer not null);
        CREATE TABLE graves (usn integer not null, oid integer not null, type integer not null);
        CREATE TABLE tags (tag text NOT NULL PRIMARY KEY COLLATE unicase, usn integer NOT NULL, collapsed boolean NOT NULL, config blob NULL) without rowid;
        CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL COLLATE unicase, config blob NOT NULL, PRIMARY KEY (ntid, ord)) without rowid;
        CREATE UNIQUE INDEX idx_fields_name_ntid ON fields (name, ntid);
        CREATE INDEX ix_notes_usn on notes (usn);
        CREATE INDEX ix_cards_nid on cards (nid);
        CREATE INDEX ix_revlog_cid on revlog (cid);
        INSERT INTO col VALUES (1, 1700000000, 1700000123456, 1700000000000, 11, 0, 0, 0,
          '{"activeDecks":[1],"curDeck":1,"newSpread":0,"collapseTime":1200,"timeLim":0,"estTimes":true,"dueCounts":true,"curModel":null,"nextPos":3,"sortType":"noteFld","sortBackwards":false,"addToCur":true}',
          '{"1700000000001":{"id":1700000000001,"name":"Basic","type":0,"flds":[{"name":"Front","ord":0},{"name":"Back","ord":1}],"sortf":0}}',
          '{"1":{"id":1,"name":"Default","collapsed":false,"desc":""},"1700000000500":{"id":1700000000500,"name":"Japanese::Kanji","collapsed":true,"desc":"<b>JLPT</b>"}}',
          '{"1":{"id":1,"name":"Default","new":{"perDay":20},"rev":{"perDay":200}}}',
          '{}');
        INSERT INTO notes VALUES (1700000100000, 'f#Xy,1Q`pV', 1700000000001, 1700000100, -1, ' kanji jlpt::n5 ', '日' || char(31) || 'sun; day', '日', 2821590539, 0, '');
        INSERT INTO notes VALUES (1700000200000, 'Bq&4z%^6uM', 1700000000001, 1700000200, -1, '', '42' || char(31) || 'the answer', '42', 4123456789, 0, '');
        INSERT INTO cards VALUES (1700000100001, 1700000100000, 1700000000500, 0, 1700000100, -1, 2, 2, 512, 3, 2500, 5, 1, 0, 0, 0, 0, '');
        INSERT INTO cards VALUES (1700000200001, 1700000200000, 1, 0, 1700000200, -1, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, '{"pos":2}');
        INSERT INTO revlog VALUES (1700000300000, 1700000100001, -1, 3, 3, 1, 2500, 6123, 1), (1700000400000, 1700000100001, -1, 1, -600, 3, 2300, 12000, 1);
        INSERT INTO graves VALUES (-1, 1699999999999, 0);
        INSERT INTO tags VALUES ('kanji', 0, 0, NULL), ('JLPT::N5', 0, 1, NULL);
        INSERT INTO fields VALUES (1700000000001, 0, 'Front', x''), (1700000000001, 1, 'Back', x'');
        """

    /// Anki's collation: names compare without case.
    static let unicase = DatabaseCollation("unicase") { left, right in
        left.lowercased() < right.lowercased() ? .orderedAscending
            : left.lowercased() > right.lowercased() ? .orderedDescending : .orderedSame
    }

    struct AnkiCollection: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "col"
        struct Settings: Codable {
            var activeDecks: [Int64]
            var curDeck: Int64
            var nextPos: Int
            var sortBackwards: Bool
            var curModel: Int64?
        }
        struct Deck: Codable, Equatable {
            var id: Int64
            var name: String
            var collapsed: Bool
        }
        var id: Int64
        var crt: Int64
        var mod: Int64
        var conf: Settings
        var decks: [String: Deck]
        var tags: [String: Int]
    }

    struct Note: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "notes"
        static let cards = hasMany(Card.self, using: ForeignKey(["nid"]))
        var id: Int64
        var guid: String
        var mid: Int64
        var mod: Int64
        var usn: Int
        var tags: String
        var flds: String
        var sfld: String
        var csum: UInt32
        var flags: Int
        var data: String

        var fields: [String] { flds.split(separator: "\u{1F}", omittingEmptySubsequences: false).map(String.init) }
        var created: Date { Date(timeIntervalSince1970: Double(id) / 1000) }
    }

    struct Card: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "cards"
        static let note = belongsTo(Note.self, using: ForeignKey(["nid"]))
        static let reviews = hasMany(Review.self, using: ForeignKey(["cid"]))
        var id: Int64
        var nid: Int64
        var did: Int64
        var due: Int64
        var ivl: Int
        var factor: Int
    }

    struct Review: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "revlog"
        var id: Int64
        var cid: Int64
        var ease: Int
        var ivl: Int
        var time: Int
    }

    @Test func theCollectionDecodesItsJSONColumns() throws {
        let file = try RealDatabaseFile(Self.script, collations: [Self.unicase])
        try file.open().read { (db) throws in
            let collection = try #require(try AnkiCollection.fetchOne(db))
            #expect(collection.conf.activeDecks == [1])
            #expect(collection.conf.sortBackwards == false)
            #expect(collection.conf.curModel == nil)
            #expect(collection.decks["1700000000500"] == AnkiCollection.Deck(id: 1_700_000_000_500, name: "Japanese::Kanji", collapsed: true))
            #expect(collection.tags.isEmpty)
            // `mod` counts milliseconds, `crt` seconds.
            #expect(Date(timeIntervalSince1970: Double(collection.mod) / 1000) == Date(timeIntervalSince1970: 1_700_000_123.456))
            let names = try String.fetchAll(db, sql: "SELECT j.value ->> '$.name' FROM col, json_each(col.decks) AS j ORDER BY 1")
            #expect(names == ["Default", "Japanese::Kanji"])
        }
    }

    @Test func notesKeepTheirFieldsChecksumsAndTextSortFields() throws {
        let file = try RealDatabaseFile(Self.script, collations: [Self.unicase])
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            // The sort field is declared `integer`: '42' became an
            // integer, '日' stayed text. A String reads both.
            #expect(try String.fetchAll(db, sql: "SELECT typeof(sfld) FROM notes ORDER BY id") == ["text", "integer"])
            let notes = try Note.order(Column("id")).fetchAll(db)
            #expect(notes.map(\.sfld) == ["日", "42"])
            #expect(notes.map(\.fields) == [["日", "sun; day"], ["42", "the answer"]])
            #expect(notes.map(\.csum) == [2_821_590_539, 4_123_456_789])
            #expect(notes[0].created == Date(timeIntervalSince1970: 1_700_000_100))
            #expect(notes[0].tags.split(separator: " ") == ["kanji", "jlpt::n5"])
            // An Int from the text sort field is an error, not 0.
            let error = #expect(throws: RowDecodingError.self) { try Int.fetchAll(db, sql: "SELECT sfld FROM notes ORDER BY id") }
            #expect(error?.message.contains(#"could not decode Int from database value "日""#) == true)

            var note = notes[1]
            note.flds = "43\u{1F}one more"
            note.sfld = "43"
            try note.update(db)
            #expect(try Row.fetchOne(db, sql: "SELECT sfld, typeof(sfld) AS t FROM notes WHERE id = ?", arguments: [note.id]) == ["sfld": 43, "t": "integer"])
            #expect(try Note.fetchOne(db, key: note.id)?.fields == ["43", "one more"])
            // A checksum above Int32.max stays unsigned.
            #expect(try UInt32.fetchOne(db, sql: "SELECT csum FROM notes WHERE id = ?", arguments: [note.id]) == 4_123_456_789)
            let narrow = #expect(throws: RowDecodingError.self) { try Int32.fetchOne(db, sql: "SELECT csum FROM notes WHERE id = ?", arguments: [note.id]) }
            #expect(narrow != nil)
        }
    }

    @Test func cardsNotesAndReviewsJoinByExplicitColumns() throws {
        struct CardInfo: Decodable, FetchableRecord {
            var card: Card
            var note: Note
            var reviews: [Review]
        }
        let file = try RealDatabaseFile(Self.script, collations: [Self.unicase])
        try file.open().read { (db) throws in
            // The key of the reviews is the plural of their table name:
            // the error names the prefetched keys.
            let error = #expect(throws: DecodingError.self) {
                try Card.including(required: Card.note).including(all: Card.reviews)
                    .asRequest(of: CardInfo.self).fetchAll(db)
            }
            guard case .keyNotFound(_, let context) = error else {
                Issue.record("unexpected error \(String(describing: error))")
                return
            }
            #expect(context.debugDescription.hasSuffix("(the row has the scopes note and the prefetched rows revlogs)"))
            let infos = try Card.including(required: Card.note).including(all: Card.reviews.order(Column("id")).forKey("reviews"))
                .order(Column("id")).asRequest(of: CardInfo.self).fetchAll(db)
            #expect(infos.map(\.note.sfld) == ["日", "42"])
            #expect(infos.map { $0.reviews.map(\.ease) } == [[3, 1], []])
            // A negative interval counts seconds (a relearning step).
            #expect(infos[0].reviews.map(\.ivl) == [3, -600])
            let cardData = try String.fetchAll(db, sql: "SELECT data FROM cards ORDER BY id")
            #expect(cardData == ["", #"{"pos":2}"#])
            #expect(try db.primaryKey("graves").columns == ["rowid"])
        }
    }

    @Test func tablesOfAnUnknownCollationAreIntrospectedAndFailClearly() throws {
        struct Tag: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "tags"
            var tag: String
            var usn: Int
            var collapsed: Bool
            var config: Data?
        }
        struct Field: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "fields"
            var ntid: Int64
            var ord: Int
            var name: String
            var config: Data
        }
        let file = try RealDatabaseFile(Self.script, collations: [Self.unicase])
        try file.open().write { (db) throws in
            #expect(try db.primaryKey("tags").columns == ["tag"])
            #expect(try db.primaryKey("tags").isRowID == false)
            #expect(try db.primaryKey("fields").columns == ["ntid", "ord"])
            #expect(try db.table("fields", hasUniqueKey: ["name", "ntid"]))
            #expect(try db.columns(in: "tags").map(\.type) == ["TEXT", "INTEGER", "boolean", "BLOB"])
            let error = #expect(throws: DatabaseError.self) { try Tag.fetchOne(db, key: "kanji") }
            #expect(error?.message == "no such collation sequence: unicase")
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in db.add(collation: Self.unicase) }
        try file.open(configuration).write { (db) throws in
            #expect(try Tag.fetchOne(db, key: "jlpt::n5")?.tag == "JLPT::N5")
            #expect(try Tag.fetchOne(db, key: "KANJI")?.collapsed == false)
            // The same tag without case: the row is updated, and keeps
            // its key as it was written.
            try Tag(tag: "Kanji", usn: -1, collapsed: true, config: nil).upsert(db)
            #expect(try Tag.fetchAll(db).map(\.tag) == ["JLPT::N5", "kanji"])
            #expect(try Tag.fetchOne(db, key: "kanji")?.collapsed == true)
            try Field(ntid: 1_700_000_000_001, ord: 1, name: "Answer", config: Data()).update(db)
            #expect(try Field.fetchOne(db, key: ["ntid": 1_700_000_000_001, "ord": 1])?.name == "Answer")
            #expect(try Field.fetchOne(db, key: ["name": "answer", "ntid": 1_700_000_000_001])?.ord == 1)
            let duplicate = #expect(throws: DatabaseError.self) {
                try Field(ntid: 1_700_000_000_001, ord: 2, name: "FRONT", config: Data()).insert(db)
            }
            #expect(duplicate?.resultCode == .SQLITE_CONSTRAINT)
        }
    }

    @Test func textThatIsNoJSONFailsClearlyForAnArray() throws {
        struct TaggedNote: Decodable, FetchableRecord {
            var id: Int64
            var tags: [String]
        }
        let file = try RealDatabaseFile(Self.script, collations: [Self.unicase])
        try file.open().read { (db) throws in
            // Anki separates tags with spaces, not as JSON.
            let error = #expect(throws: (any Error).self) {
                try TaggedNote.fetchAll(db, sql: "SELECT id, tags FROM notes ORDER BY id")
            }
            #expect(String(describing: error).contains(#"not valid JSON. (decoding Array<String> from JSON column "tags" of TaggedNote)"#))
        }
    }
}

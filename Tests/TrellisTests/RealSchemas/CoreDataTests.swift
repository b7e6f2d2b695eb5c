import Foundation
import Testing
import Trellis

/// A Core Data SQLite store (Z_PK, Z_ENT, Z_OPT, Z-prefixed columns, no
/// declared foreign key, Z_PRIMARYKEY, Z_METADATA with a property list
/// blob, timestamps as REAL seconds since 2001), and an iOS system
/// database whose tables name their key `ROWID`.
@Suite struct CoreDataTests {
    static let coreDataScript = """
        CREATE TABLE ZAUTHOR ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR );
        CREATE TABLE ZBOOK ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHOR INTEGER, ZPAGECOUNT INTEGER, ZPUBLISHED TIMESTAMP, ZTITLE VARCHAR, ZCOVER BLOB );
        CREATE TABLE ZTAG ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZLABEL VARCHAR );
        CREATE TABLE Z_2TAGS ( Z_2BOOKS INTEGER, Z_3TAGS INTEGER, PRIMARY KEY (Z_2BOOKS, Z_3TAGS) );
        CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
        CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
        CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
        CREATE INDEX ZBOOK_ZAUTHOR_INDEX ON ZBOOK (ZAUTHOR);
        CREATE INDEX Z_2TAGS_Z_3TAGS_INDEX ON Z_2TAGS (Z_3TAGS, Z_2BOOKS);
        INSERT INTO ZAUTHOR VALUES (1, 1, 1, 'Ursula K. Le Guin'), (2, 1, 3, 'Italo Calvino');
        INSERT INTO ZBOOK VALUES (1, 2, 1, 1, 248, 694224000.5, 'The Dispossessed', x'89504E47');
        INSERT INTO ZBOOK VALUES (2, 2, 1, 2, 165, -725846400.0, 'Invisible Cities', NULL);
        INSERT INTO ZBOOK VALUES (3, 2, 1, NULL, 12, NULL, 'Untitled', NULL);
        INSERT INTO ZTAG VALUES (1, 3, 1, 'classic'), (2, 3, 1, 'utopia');
        INSERT INTO Z_2TAGS VALUES (1, 1), (1, 2), (2, 1);
        INSERT INTO Z_PRIMARYKEY VALUES (1, 'Author', 0, 2), (2, 'Book', 0, 3), (3, 'Tag', 0, 2);
        INSERT INTO Z_METADATA VALUES (1, '6F1F3A0E-9B5C-4D6B-8B0A-1F2E3D4C5B6A', x'62706C6973743030D4');
        INSERT INTO Z_MODELCACHE VALUES (x'00010203');
        """

    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "ZAUTHOR"
        static let books = hasMany(Book.self, using: Book.authorForeignKey)
        var Z_PK: Int64
        var Z_OPT: Int
        var ZNAME: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "ZBOOK"
        static let authorForeignKey = ForeignKey(["ZAUTHOR"])
        static let author = belongsTo(Author.self, key: "author", using: authorForeignKey)
        static let bookTags = hasMany(BookTag.self, using: ForeignKey(["Z_2BOOKS"]))
        static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
        var Z_PK: Int64
        var Z_ENT: Int
        var Z_OPT: Int
        var ZAUTHOR: Int64?
        var ZPAGECOUNT: Int
        var ZPUBLISHED: Double?
        var ZTITLE: String
        var ZCOVER: Data?

        /// Core Data counts seconds from 2001-01-01.
        var published: Date? { ZPUBLISHED.map(Date.init(timeIntervalSinceReferenceDate:)) }
    }

    struct BookTag: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Z_2TAGS"
        static let tag = belongsTo(Tag.self, using: ForeignKey(["Z_3TAGS"]))
        var Z_2BOOKS: Int64
        var Z_3TAGS: Int64
    }

    struct Tag: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "ZTAG"
        var Z_PK: Int64
        var ZLABEL: String
    }

    struct Metadata: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Z_METADATA"
        var Z_VERSION: Int
        var Z_UUID: UUID
        var Z_PLIST: Data
    }

    @Test func theStoreIsIntrospectedAndRead() throws {
        let file = try RealDatabaseFile(Self.coreDataScript)
        try file.open().read { db in
            #expect(try db.primaryKey("ZBOOK").rowIDColumn == "Z_PK")
            #expect(try db.primaryKey("Z_MODELCACHE").columns == ["rowid"])
            #expect(try db.primaryKey("Z_2TAGS").columns == ["Z_2BOOKS", "Z_3TAGS"])
            #expect(try db.foreignKeys(on: "ZBOOK").isEmpty)
            #expect(try db.columns(in: "ZBOOK").first { $0.name == "ZPUBLISHED" }?.type == "TIMESTAMP")
            for (_, name) in try file.schemaObjects(db) {
                #expect(try Table(name).fetchAll(db).count == (try Table(name).fetchCount(db)))
            }
            let metadata = try #require(try Metadata.fetchOne(db))
            #expect(metadata.Z_UUID == UUID(uuidString: "6F1F3A0E-9B5C-4D6B-8B0A-1F2E3D4C5B6A"))
            #expect(metadata.Z_PLIST.prefix(8) == Data("bplist00".utf8))
            #expect(try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") == Data([0, 1, 2, 3]))
        }
    }

    @Test func timestampsSince2001AreNotUnixTimestamps() throws {
        struct BookDates: Decodable, FetchableRecord {
            var ZPUBLISHED: Date?
        }
        let file = try RealDatabaseFile(Self.coreDataScript)
        try file.open().read { db in
            let books = try Book.order(Column("Z_PK")).fetchAll(db)
            // 2023-01-01 00:00:00.5 UTC and 1978-01-01 UTC.
            #expect(books.map(\.published) == [
                Date(timeIntervalSince1970: 1_672_531_200.5), Date(timeIntervalSince1970: 252_460_800), nil])
            // As GRDB, a Date reads a number as seconds since 1970: the
            // record reads the raw number and converts it.
            let raw = try BookDates.fetchAll(db, sql: "SELECT ZPUBLISHED FROM ZBOOK ORDER BY Z_PK")
            #expect(raw.map(\.ZPUBLISHED) == [Date(timeIntervalSince1970: 694_224_000.5), Date(timeIntervalSince1970: -725_846_400), nil])
        }
    }

    @Test func relationshipsNeedTheirForeignKeyNamed() throws {
        struct BookInfo: Decodable, FetchableRecord {
            var book: Book
            var author: Author?
            var tags: [Tag]
        }
        let file = try RealDatabaseFile(Self.coreDataScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            // Core Data declares no foreign key: nothing to infer from.
            let error = #expect(throws: DatabaseError.self) {
                try Book.including(required: Book.belongsTo(Author.self)).fetchAll(db)
            }
            #expect(error?.message == "Could not infer foreign key from ZBOOK to ZAUTHOR")
            let infos = try Book
                .including(optional: Book.author)
                .including(all: Book.tags.order(Column("ZLABEL")).forKey("tags"))
                .order(Column("Z_PK"))
                .asRequest(of: BookInfo.self)
                .fetchAll(db)
            #expect(infos.map { $0.author?.ZNAME } == ["Ursula K. Le Guin", "Italo Calvino", nil])
            #expect(infos.map { $0.tags.map(\.ZLABEL) } == [["classic", "utopia"], ["classic"], []])
            let counts = try Row.fetchAll(db, Author.annotated(with: Author.books.count.forKey("bookCount")).order(Column("Z_PK")))
            #expect(counts.map { $0["bookCount"] as Int } == [1, 1])

            var book = try #require(try Book.fetchOne(db, key: 3))
            try book.updateChanges(db) { $0.Z_OPT += 1; $0.ZAUTHOR = 2 }
            #expect(try Int.fetchOne(db, sql: "SELECT Z_OPT FROM ZBOOK WHERE Z_PK = 3") == 2)
            #expect(try Author.fetchOne(db, key: 2).map { try $0.request(for: Author.books).fetchCount(db) } == 2)
        }
    }

    static let messagesScript = """
        CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, country TEXT, service TEXT NOT NULL, UNIQUE (id, service));
        CREATE TABLE chat (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, chat_identifier TEXT, display_name TEXT);
        CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT, handle_id INTEGER DEFAULT 0, date INTEGER, is_from_me INTEGER DEFAULT 0);
        CREATE TABLE chat_message_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, message_date INTEGER DEFAULT 0, PRIMARY KEY (chat_id, message_id));
        CREATE INDEX chat_message_join_idx_message_date_id_chat_id ON chat_message_join(chat_id, message_date, message_id);
        INSERT INTO handle (id, service) VALUES ('+15555550100', 'iMessage');
        INSERT INTO chat (guid, chat_identifier) VALUES ('iMessage;-;+15555550100', '+15555550100');
        INSERT INTO message (guid, text, handle_id, date) VALUES ('A1', 'Hello', 1, 694224000000000000), ('A2', 'World', 1, 694224060000000000);
        INSERT INTO chat_message_join VALUES (1, 1, 694224000000000000), (1, 2, 694224060000000000);
        """

    struct Message: Codable, FetchableRecord, MutablePersistableRecord {
        static let chatMessages = hasMany(ChatMessage.self)
        var ROWID: Int64?
        var guid: String
        var text: String?
        var handle_id: Int64
        var date: Int64
        mutating func didInsert(_ inserted: InsertionSuccess) { ROWID = inserted.rowID }
    }

    struct Chat: Codable, FetchableRecord, PersistableRecord {
        static let chatMessages = hasMany(ChatMessage.self)
        static let messages = hasMany(Message.self, through: chatMessages, using: ChatMessage.message)
        var ROWID: Int64
        var guid: String
    }

    struct ChatMessage: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "chat_message_join"
        static let message = belongsTo(Message.self)
        var chat_id: Int64
        var message_id: Int64
        var message_date: Int64
    }

    @Test func aColumnNamedROWIDIsTheRowID() throws {
        let file = try RealDatabaseFile(Self.messagesScript)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            #expect(try db.primaryKey("message").columns == ["ROWID"])
            #expect(try db.primaryKey("message").rowIDColumn == "ROWID")
            // AUTOINCREMENT UNIQUE adds a unique index: still the rowid.
            #expect(try db.primaryKey("handle").rowIDColumn == "ROWID")
            #expect(try db.table("handle", hasUniqueKey: ["service", "id"]))

            var message = Message(ROWID: nil, guid: "A3", text: "New", handle_id: 1, date: 694224120000000000)
            try message.insert(db)
            #expect(message.ROWID == 3)
            try ChatMessage(chat_id: 1, message_id: 3, message_date: message.date).insert(db)
            let chat = try #require(try Chat.fetchOne(db, key: 1))
            #expect(try chat.request(for: Chat.messages).order(Column("ROWID")).fetchAll(db).map(\.text) == ["Hello", "World", "New"])
            // Nanoseconds since 2001, read as such.
            let seconds = Double(message.date) / 1e9
            #expect(Date(timeIntervalSinceReferenceDate: seconds) == Date(timeIntervalSince1970: 1_672_531_320))
            // Deleting a message cascades to the join table.
            #expect(try Message.deleteOne(db, key: 3))
            #expect(try ChatMessage.filter(Column("message_id") == 3).fetchCount(db) == 0)
        }
    }
}

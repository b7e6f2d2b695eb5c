import Foundation
import Testing
import Trellis

/// Signal Desktop's message store: `STRING` columns, which SQLite gives
/// numeric affinity (an id that spells a number is stored as an integer),
/// a `rowid INTEGER PRIMARY KEY ASC` column beside a unique text `id`,
/// mentions that reference that `id` from a column of no type, JSON
/// bodies, and stickers keyed by two columns with a cascading key.
@Suite struct SignalDesktopTests {
    static let script = """
        CREATE TABLE conversations (id STRING PRIMARY KEY ASC, json TEXT, active_at INTEGER, type STRING, members TEXT, name TEXT, profileName TEXT, e164 STRING);
        CREATE TABLE messages (rowid INTEGER PRIMARY KEY ASC, id STRING UNIQUE, json TEXT, unread INTEGER, expires_at INTEGER, sent_at INTEGER, schemaVersion INTEGER, conversationId STRING, received_at INTEGER, source STRING, hasAttachments INTEGER, type STRING, body TEXT);
        CREATE TABLE mentions (messageId REFERENCES messages (id) ON DELETE CASCADE, mentionAci STRING, start INTEGER, length INTEGER);
        CREATE TABLE sticker_packs (id TEXT PRIMARY KEY, key TEXT NOT NULL, author STRING, coverStickerId INTEGER, createdAt INTEGER, stickerCount INTEGER, title STRING);
        CREATE TABLE stickers (id INTEGER NOT NULL, packId TEXT NOT NULL, emoji STRING, height INTEGER, isCoverOnly INTEGER, lastUsed INTEGER, path STRING, width INTEGER, PRIMARY KEY (id, packId), CONSTRAINT stickers_fk FOREIGN KEY (packId) REFERENCES sticker_packs(id) ON DELETE CASCADE);
        CREATE INDEX messages_conversation ON messages (conversationId, received_at);
        CREATE INDEX mentions_aci ON mentions (mentionAci);
        INSERT INTO conversations VALUES ('8c4b6d2e-0f1a-4b3c-9d5e-6f7a8b9c0d1e', '{"id":"8c4b6d2e-0f1a-4b3c-9d5e-6f7a8b9c0d1e","type":"group"}', 1700000000000, 'group', NULL, 'Climbing', NULL, NULL);
        INSERT INTO conversations VALUES ('1234', '{"id":"1234","type":"private"}', 1700000100000, 'private', NULL, NULL, 'Ann', '+15555550100');
        INSERT INTO messages (id, json, sent_at, conversationId, received_at, type, body) VALUES
          ('0b9e8d7c-6a5f-4e3d-2c1b-0a9f8e7d6c5b', '{"body":"Hi @Ann"}', 1700000000500, '8c4b6d2e-0f1a-4b3c-9d5e-6f7a8b9c0d1e', 1700000000600, 'incoming', 'Hi ￼'),
          ('42', '{"body":"Imported"}', 1700000001000, '1234', 1700000001100, 'outgoing', 'Imported ￼ and ￼');
        INSERT INTO mentions VALUES ('0b9e8d7c-6a5f-4e3d-2c1b-0a9f8e7d6c5b', 'aci-ann', 3, 1), ('42', 'aci-ann', 9, 1), ('42', 'aci-bob', 15, 1);
        INSERT INTO sticker_packs VALUES ('9acc9e8aba563d26a4994e69263e3b25', '5a6dff3948c28efb9b7aaf93ecc375c69fc316e78077ed26867a14d10a0f6a12', 'Agnes Lee', 0, 1700000000000, 2, 'Bandit the Cat');
        INSERT INTO stickers VALUES (0, '9acc9e8aba563d26a4994e69263e3b25', '😺', 512, 0, NULL, 'stickers/0', 512), (1, '9acc9e8aba563d26a4994e69263e3b25', '😹', 512, 0, 1700000200000, 'stickers/1', 512);
        """

    struct Message: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "messages"
        static let mentions = hasMany(Mention.self)
        var rowid: Int64?
        var id: String
        var conversationId: String
        var sent_at: Int64
        var body: String?
        mutating func didInsert(_ inserted: InsertionSuccess) { rowid = inserted.rowID }
    }

    struct Mention: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "mentions"
        static let message = belongsTo(Message.self)
        var messageId: String
        var mentionAci: String
        var start: Int
    }

    @Test func stringColumnsHaveNumericAffinity() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let types = try String.fetchAll(db, sql: "SELECT typeof(id) FROM messages ORDER BY rowid")
            #expect(types == ["text", "integer"])
            #expect(try String.fetchAll(db, sql: "SELECT typeof(messageId) FROM mentions") == ["text", "text", "text"])
            // A String reads the integer back as its digits.
            let messages = try Message.order(Column("rowid")).fetchAll(db)
            #expect(messages.map(\.id) == ["0b9e8d7c-6a5f-4e3d-2c1b-0a9f8e7d6c5b", "42"])
            #expect(messages.map(\.conversationId) == ["8c4b6d2e-0f1a-4b3c-9d5e-6f7a8b9c0d1e", "1234"])
            #expect(try db.primaryKey("messages").rowIDColumn == "rowid")
            #expect(try db.primaryKey("conversations").columns == ["id"])
            // A text key finds the integer the column holds.
            #expect(try Table("conversations").fetchOne(db, key: "1234")?["type"] == "private")
            #expect(try Message.fetchOne(db, key: ["id": "42"])?.rowid == 2)
            let keys = try db.foreignKeys(on: "mentions")
            #expect(keys.map(\.destinationColumns) == [["id"]])
            #expect(try db.columns(in: "mentions").first?.type == "")
        }
    }

    @Test func mentionsPrefetchedMatchTheRowsThatSQLiteJoins() throws {
        struct MessageWithMentions: Decodable, FetchableRecord {
            var message: Message
            var mentions: [Mention]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // SQLite compares the text '42' of an untyped column with the
            // integer 42 of a numeric one as equal.
            let joined = try Row.fetchAll(db, Message.annotated(with: Message.mentions.count).order(Column("rowid")))
            #expect(joined.map { $0["mentionCount"] as Int } == [1, 2])
            #expect(try Mention.joining(required: Mention.message).fetchCount(db) == 3)
            // Prefetched mentions are the same ones.
            let infos = try Message.including(all: Message.mentions.order(Column("start")))
                .order(Column("rowid")).asRequest(of: MessageWithMentions.self).fetchAll(db)
            #expect(infos.map { $0.mentions.map(\.mentionAci) } == [["aci-ann"], ["aci-ann", "aci-bob"]])
            let imported = try #require(try Message.fetchOne(db, key: 2))
            #expect(try imported.request(for: Message.mentions).fetchCount(db) == 2)
        }
    }

    @Test func stickersCascadeWithTheirPack() throws {
        struct StickerPack: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "sticker_packs"
            static let stickers = hasMany(Sticker.self)
            var id: String
            var title: String
        }
        struct Sticker: Codable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "stickers"
            var id: Int
            var packId: String
            var emoji: String
            var lastUsed: Int64?
        }
        struct PackInfo: Decodable, FetchableRecord {
            var stickerPack: StickerPack
            var stickers: [Sticker]
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            let packs = try StickerPack.including(all: StickerPack.stickers.order(Column("id"))).asRequest(of: PackInfo.self).fetchAll(db)
            #expect(packs.map { $0.stickers.map(\.emoji) } == [["😺", "😹"]])
            try Sticker(id: 0, packId: "9acc9e8aba563d26a4994e69263e3b25", emoji: "😺", lastUsed: 1_700_000_300_000).update(db)
            #expect(try Sticker.fetchOne(db, key: ["id": 0, "packId": "9acc9e8aba563d26a4994e69263e3b25"])?.lastUsed == 1_700_000_300_000)
            #expect(try StickerPack.deleteOne(db, key: "9acc9e8aba563d26a4994e69263e3b25"))
            #expect(try Sticker.fetchCount(db) == 0)
        }
    }
}

/// A file of embeddings made with the sqlite-vec extension, opened
/// without it: its `vec0` table fails clearly, the others are read.
@Suite struct VectorExtensionFileTests {
    @Test func aTableOfAModuleThatIsNotLoadedFailsClearly() throws {
        let file = try RealDatabaseFile("""
            CREATE TABLE documents (id INTEGER PRIMARY KEY, title TEXT NOT NULL);
            INSERT INTO documents VALUES (1, 'SQLite');
            PRAGMA writable_schema = ON;
            INSERT INTO sqlite_master (type, name, tbl_name, rootpage, sql)
              VALUES ('table', 'documents_embeddings', 'documents_embeddings', 0, 'CREATE VIRTUAL TABLE documents_embeddings USING vec0(embedding float[4])');
            PRAGMA writable_schema = OFF;
            """)
        try file.open().read { (db) throws in
            #expect(try Table("documents").fetchCount(db) == 1)
            #expect(try db.tableExists("documents_embeddings"))
            let columns = #expect(throws: DatabaseError.self) { try db.columns(in: "documents_embeddings") }
            #expect(columns?.message == "no such module: vec0")
            let fetch = #expect(throws: DatabaseError.self) { try Table("documents_embeddings").fetchAll(db) }
            #expect(fetch?.message == "no such module: vec0")
            let key = #expect(throws: DatabaseError.self) { try db.primaryKey("documents_embeddings") }
            #expect(key?.message == "no such module: vec0")
        }
    }
}

import Foundation
import Testing
import Trellis

/// Full-text tables whose tokenizer belongs to the application that
/// wrote them: Thunderbird's `global-messages-db.sqlite` (FTS3 with its
/// `mozporter` tokenizer) and Signal Desktop (FTS5 with
/// `signal_tokenizer`). Without them, the other tables work, and what
/// touches the full-text tables fails with SQLite's "no such tokenizer".
@Suite struct UnloadedTokenizerTests {
    /// The files as the applications leave them: the tables were created
    /// with the applications' tokenizers, which the script stands in for.
    static let script = #"""
        CREATE TABLE folderLocations (id INTEGER PRIMARY KEY, folderURI TEXT NOT NULL, dirtyStatus INTEGER NOT NULL, name TEXT NOT NULL, indexingPriority INTEGER NOT NULL);
        CREATE TABLE conversations (id INTEGER PRIMARY KEY, subject TEXT NOT NULL, oldestMessageDate INTEGER, newestMessageDate INTEGER);
        CREATE TABLE messages (id INTEGER PRIMARY KEY, folderID INTEGER, messageKey INTEGER, conversationID INTEGER NOT NULL, date INTEGER, headerMessageID TEXT, deleted INTEGER NOT NULL default 0, jsonAttributes TEXT, notability INTEGER NOT NULL default 0);
        CREATE VIRTUAL TABLE messagesText USING fts3(tokenize porter, subject TEXT, body TEXT, attachmentNames TEXT, author TEXT, recipients TEXT);
        CREATE INDEX messageLocation ON messages(folderID, messageKey);
        CREATE TABLE signalMessages (rowid INTEGER PRIMARY KEY ASC, id STRING UNIQUE, body TEXT, conversationId STRING, sent_at INTEGER);
        CREATE VIRTUAL TABLE messages_fts USING fts5(body, tokenize = 'unicode61');
        CREATE TRIGGER messages_on_insert AFTER INSERT ON signalMessages BEGIN INSERT INTO messages_fts (rowid, body) VALUES (new.rowid, new.body); END;
        CREATE TRIGGER messages_on_delete AFTER DELETE ON signalMessages BEGIN DELETE FROM messages_fts WHERE rowid = old.rowid; END;
        INSERT INTO folderLocations VALUES (1, 'mailbox://nobody@Local%20Folders/Inbox', 0, 'Inbox', 60);
        INSERT INTO conversations VALUES (1, 'Lunch', 1700000000000000, 1700000060000000);
        INSERT INTO messages VALUES (1, 1, 100, 1, 1700000000000000, '<a@example.com>', 0, '{"43":[1]}', 0), (2, 1, 101, 1, 1700000060000000, '<b@example.com>', 0, NULL, 1);
        INSERT INTO messagesText (docid, subject, body, author, recipients) VALUES (1, 'Lunch', 'See you at noon', 'Ann', 'Bob'), (2, 'Re: Lunch', 'Noon is fine', 'Bob', 'Ann');
        INSERT INTO signalMessages VALUES (1, '8f7a-1', 'hello there', 'c1', 1700000000000), (2, '8f7a-2', 'general kenobi', 'c1', 1700000001000);
        PRAGMA writable_schema = ON;
        UPDATE sqlite_master SET sql = replace(sql, 'tokenize porter', 'tokenize mozporter') WHERE name = 'messagesText';
        UPDATE sqlite_master SET sql = replace(sql, 'unicode61', 'signal_tokenizer') WHERE name = 'messages_fts';
        PRAGMA writable_schema = OFF;
        """#

    struct Conversation: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "conversations"
        static let messages = hasMany(GlodaMessage.self, key: "messages", using: ForeignKey(["conversationID"]))
        var id: Int64
        var subject: String
    }

    struct GlodaMessage: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "messages"
        var id: Int64?
        var folderID: Int64?
        var conversationID: Int64
        var date: Int64?
        var headerMessageID: String?
        var deleted: Bool
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct SignalMessage: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "signalMessages"
        var rowid: Int64?
        var id: String
        var body: String?
        var conversationId: String
        var sentAt: Int64
        enum CodingKeys: String, CodingKey { case rowid, id, body, conversationId, sentAt = "sent_at" }
    }

    @Test func tablesBesideTheFullTextTablesWork() throws {
        struct ConversationInfo: Decodable, FetchableRecord {
            var conversation: Conversation
            var messages: [GlodaMessage]
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            let infos = try Conversation.including(all: Conversation.messages.order(Column("id"))).asRequest(of: ConversationInfo.self).fetchAll(db)
            #expect(infos.map { $0.messages.map(\.headerMessageID) } == [["<a@example.com>", "<b@example.com>"]])
            var message = GlodaMessage(folderID: 1, conversationID: 1, date: 1_700_000_120_000_000, headerMessageID: "<c@example.com>", deleted: false)
            try message.insert(db)
            #expect(message.id == 3)
            #expect(try GlodaMessage.deleteOne(db, key: 3))
            #expect(try db.tableExists("messagesText"))
            #expect(try db.primaryKey("messages").rowIDColumn == "id")
            #expect(try db.indexes(on: "messages").map(\.name) == ["messageLocation"])
        }
    }

    @Test func theFullTextTablesFailWithTheNameOfTheirTokenizer() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            let read = #expect(throws: DatabaseError.self) { try Row.fetchAll(db, sql: "SELECT * FROM messagesText") }
            #expect(read?.message == "unknown tokenizer: mozporter")
            let columns = #expect(throws: DatabaseError.self) { try db.columns(in: "messages_fts") }
            #expect(columns?.message == "no such tokenizer: signal_tokenizer")
            let match = #expect(throws: DatabaseError.self) {
                try Table("messages_fts").matching(FTS5Pattern(matchingAllTokensIn: "kenobi")).fetchCount(db)
            }
            #expect(match?.message == "no such tokenizer: signal_tokenizer")
            // The insert trigger writes the full-text table.
            var message = SignalMessage(rowid: nil, id: "8f7a-3", body: "you are a bold one", conversationId: "c1", sentAt: 1_700_000_002_000)
            let insert = #expect(throws: DatabaseError.self) { try message.insert(db) }
            #expect(insert?.message == "no such tokenizer: signal_tokenizer")
            #expect(try SignalMessage.fetchCount(db) == 2)
            #expect(try SignalMessage.fetchOne(db, key: ["id": "8f7a-2"])?.body == "general kenobi")
        }
    }

    @Test func aMigratorWorksBesideTheFullTextTables() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("tags") { db in
            try db.create(table: "messageTags") { t in
                t.column("messageID", .integer).notNull().references("messages", onDelete: .cascade)
                t.column("tag", .text).notNull()
                t.primaryKey(["messageID", "tag"])
            }
        }
        migrator.registerMigration("flagged") { db in
            try db.alter(table: "messages") { t in t.add(column: "flagged", .boolean).notNull().defaults(to: false) }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { (db) throws in
            #expect(try migrator.appliedMigrations(db) == ["tags", "flagged"])
            try db.execute(sql: "INSERT INTO messageTags VALUES (1, 'important')")
            #expect(try Bool.fetchAll(db, sql: "SELECT flagged FROM messages ORDER BY id") == [false, false])
            #expect(try GlodaMessage.deleteOne(db, key: 1))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messageTags") == 0)
        }
    }
}

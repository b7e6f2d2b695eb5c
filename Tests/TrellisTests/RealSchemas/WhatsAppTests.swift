import Foundation
import Testing
import Trellis

/// WhatsApp's Android `msgstore.db` (the schema before its 2022 split):
/// `_id INTEGER PRIMARY KEY AUTOINCREMENT` everywhere, chats and
/// messages linked by the text `key_remote_jid` with no declared foreign
/// key, a message keyed by three columns of a unique index, millisecond
/// timestamps, a first message row that is a placeholder (`-1`), and an
/// FTS3 table kept in step by triggers.
@Suite struct WhatsAppTests {
    static let script = #"""
        CREATE TABLE messages (_id INTEGER PRIMARY KEY AUTOINCREMENT, key_remote_jid TEXT NOT NULL, key_from_me INTEGER, key_id TEXT NOT NULL, status INTEGER, needs_push INTEGER, data TEXT, timestamp INTEGER, media_url TEXT, media_mime_type TEXT, media_wa_type TEXT, media_size INTEGER, media_name TEXT, media_caption TEXT, media_hash TEXT, media_duration INTEGER, origin INTEGER, latitude REAL, longitude REAL, thumb_image TEXT, remote_resource TEXT, received_timestamp INTEGER, send_timestamp INTEGER, receipt_server_timestamp INTEGER, receipt_device_timestamp INTEGER, read_device_timestamp INTEGER, played_device_timestamp INTEGER, raw_data BLOB, recipient_count INTEGER, participant_hash TEXT, starred INTEGER, quoted_row_id INTEGER, mentioned_jids TEXT, multicast_id TEXT, edit_version INTEGER, media_enc_hash TEXT, payment_transaction_id TEXT, forwarded INTEGER, preview_type INTEGER, send_count INTEGER);
        CREATE UNIQUE INDEX messages_key_index on messages (key_remote_jid, key_from_me, key_id);
        CREATE INDEX messages_jid_id_index on messages (key_remote_jid, _id);
        CREATE TABLE chat_list (_id INTEGER PRIMARY KEY AUTOINCREMENT, key_remote_jid TEXT UNIQUE, message_table_id INTEGER, subject TEXT, creation INTEGER, last_read_message_table_id INTEGER, last_read_receipt_sent_message_table_id INTEGER, archived INTEGER, sort_timestamp INTEGER, mod_tag INTEGER, gen REAL, my_messages INTEGER, plaintext_disabled BOOLEAN, last_message_table_id INTEGER, unseen_message_count INTEGER, unseen_missed_calls_count INTEGER, unseen_row_count INTEGER, vcard_ui_dismissed INTEGER, deleted_message_id INTEGER, deleted_starred_message_id INTEGER, deleted_message_categories TEXT, change_number_notified_message_id INTEGER, last_important_message_table_id INTEGER, show_group_description INTEGER, ephemeral_expiration INTEGER);
        CREATE TABLE messages_quotes (_id INTEGER PRIMARY KEY AUTOINCREMENT, key_remote_jid TEXT NOT NULL, key_from_me INTEGER, key_id TEXT NOT NULL, status INTEGER, data TEXT, timestamp INTEGER, remote_resource TEXT);
        CREATE TABLE group_participants (_id INTEGER PRIMARY KEY AUTOINCREMENT, gjid TEXT NOT NULL, jid TEXT NOT NULL, admin INTEGER, pending INTEGER, sent_sender_key INTEGER);
        CREATE UNIQUE INDEX group_participants_index on group_participants (gjid, jid);
        CREATE TABLE props (_id INTEGER PRIMARY KEY AUTOINCREMENT, key TEXT UNIQUE, value TEXT);
        CREATE VIRTUAL TABLE messages_fts USING FTS3(content);
        CREATE TRIGGER messages_bd_trigger BEFORE DELETE ON messages BEGIN DELETE FROM messages_fts WHERE docid=old._id; END;
        CREATE TRIGGER messages_ai_trigger AFTER INSERT ON messages WHEN new.data IS NOT NULL BEGIN INSERT INTO messages_fts(docid, content) VALUES (new._id, new.data); END;
        INSERT INTO props (key, value) VALUES ('fts_ready', '5'), ('call_log_ready', '1');
        INSERT INTO messages (_id, key_remote_jid, key_from_me, key_id, status, needs_push, data, timestamp, media_wa_type, media_size, recipient_count)
          VALUES (1, '-1', 0, '-1', -1, 0, NULL, 0, '0', 0, 0);
        INSERT INTO messages (key_remote_jid, key_from_me, key_id, status, data, timestamp, media_wa_type, media_size, remote_resource, starred, quoted_row_id)
          VALUES ('33612345678@s.whatsapp.net', 0, '3EB0C767D71D2E7B5A1B', 0, 'On arrive dans 10 min', 1700000000123, '0', 0, NULL, NULL, NULL),
                 ('33612345678@s.whatsapp.net', 1, 'BAE5F2A4C5D1E6B7', 13, 'Parfait, à tout de suite', 1700000060456, '0', 0, NULL, 1, 1),
                 ('120363041234567890@g.us', 0, '3A9F0E1D2C3B4A59', 0, NULL, 1700000120789, '1', 204857, '33698765432@s.whatsapp.net', NULL, NULL),
                 ('120363041234567890@g.us', 0, '3A9F0E1D2C3B4A60', 0, 'Photo de la soirée', 1700000180000, '0', 0, '33698765432@s.whatsapp.net', NULL, NULL);
        INSERT INTO messages_quotes (_id, key_remote_jid, key_from_me, key_id, status, data, timestamp) VALUES (1, '33612345678@s.whatsapp.net', 0, '3EB0C767D71D2E7B5A1B', 0, 'On arrive dans 10 min', 1700000000123);
        INSERT INTO chat_list (_id, key_remote_jid, message_table_id, subject, creation, archived, sort_timestamp, plaintext_disabled, last_message_table_id)
          VALUES (1, '33612345678@s.whatsapp.net', 3, NULL, NULL, 0, 1700000060456, 1, 3),
                 (2, '120363041234567890@g.us', 5, 'Soirée 🎉', 1690000000000, 1, 1700000180000, 1, 5),
                 (3, '33600000000@s.whatsapp.net', NULL, NULL, NULL, 0, 0, 1, NULL);
        INSERT INTO group_participants (gjid, jid, admin, pending, sent_sender_key) VALUES ('120363041234567890@g.us', '', 0, 0, 1), ('120363041234567890@g.us', '33698765432@s.whatsapp.net', 2, 0, 1);
        """#

    struct Chat: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "chat_list"
        static let messages = hasMany(Message.self, key: "messages", using: ForeignKey(["key_remote_jid"], to: ["key_remote_jid"]))
        static let lastMessage = belongsTo(Message.self, key: "lastMessage", using: ForeignKey(["last_message_table_id"]))
        static let participants = hasMany(Participant.self, key: "participants", using: ForeignKey(["gjid"], to: ["key_remote_jid"]))
        var id: Int64?
        var jid: String
        var subject: String?
        var archived: Bool
        var sortTimestamp: Int64
        var lastMessageTableId: Int64?
        enum CodingKeys: String, CodingKey {
            case id = "_id", jid = "key_remote_jid", subject, archived, sortTimestamp = "sort_timestamp", lastMessageTableId = "last_message_table_id"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Message: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "messages"
        static let chat = belongsTo(Chat.self, key: "chat", using: ForeignKey(["key_remote_jid"], to: ["key_remote_jid"]))
        static let quoted = belongsTo(Quote.self, key: "quoted", using: ForeignKey(["quoted_row_id"]))
        static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy { .millisecondsSince1970 }
        static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy { .millisecondsSince1970 }
        var id: Int64?
        var jid: String
        var fromMe: Bool
        var keyId: String
        var status: Int
        var data: String?
        var timestamp: Date
        var mediaSize: Int64?
        var remoteResource: String?
        var starred: Bool?
        var quotedRowId: Int64?
        enum CodingKeys: String, CodingKey {
            case id = "_id", jid = "key_remote_jid", fromMe = "key_from_me", keyId = "key_id", status, data, timestamp
            case mediaSize = "media_size", remoteResource = "remote_resource", starred, quotedRowId = "quoted_row_id"
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Quote: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "messages_quotes"
        var _id: Int64
        var data: String?
    }

    struct Participant: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "group_participants"
        var gjid: String
        var jid: String
        var admin: Int
    }

    @Test func chatsAndMessagesJoinByTheirTextJID() throws {
        struct ChatInfo: Decodable, FetchableRecord {
            var chat: Chat
            var lastMessage: Message?
            var messages: [Message]
            var participants: [Participant]
        }
        struct ChatCount: Decodable, FetchableRecord {
            var jid: String
            var messageCount: Int
            var lastTimestamp: Int64?
            enum CodingKeys: String, CodingKey { case jid = "key_remote_jid", messageCount, lastTimestamp }
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.foreignKeys(on: "messages").isEmpty)
            #expect(try db.primaryKey("messages").rowIDColumn == "_id")
            #expect(try db.table("messages", hasUniqueKey: ["key_id", "key_remote_jid", "key_from_me"]))
            let infos = try Chat
                .including(optional: Chat.lastMessage)
                .including(all: Chat.messages.order(Column("_id")))
                .including(all: Chat.participants.order(Column("jid")))
                .order(Column("sort_timestamp").desc)
                .asRequest(of: ChatInfo.self).fetchAll(db)
            #expect(infos.map(\.chat.jid) == ["120363041234567890@g.us", "33612345678@s.whatsapp.net", "33600000000@s.whatsapp.net"])
            #expect(infos.map(\.chat.archived) == [true, false, false])
            #expect(infos.map { $0.lastMessage?.data } == ["Photo de la soirée", "Parfait, à tout de suite", nil])
            #expect(infos.map { $0.messages.map(\.keyId) } == [["3A9F0E1D2C3B4A59", "3A9F0E1D2C3B4A60"], ["3EB0C767D71D2E7B5A1B", "BAE5F2A4C5D1E6B7"], []])
            // A media message has no text, and its size.
            #expect(infos[0].messages[0].data == nil)
            #expect(infos[0].messages[0].mediaSize == 204_857)
            #expect(infos[0].participants.map(\.admin) == [0, 2])
            #expect(infos[1].messages[0].timestamp == Date(timeIntervalSince1970: 1_700_000_000.123))
            let counts = try Chat
                .annotated(with: Chat.messages.count.forKey("messageCount"), Chat.messages.max(Column("timestamp")).forKey("lastTimestamp"))
                .order(Column("_id"))
                .asRequest(of: ChatCount.self).fetchAll(db)
            #expect(counts.map(\.messageCount) == [2, 2, 0])
            #expect(counts.map(\.lastTimestamp) == [1_700_000_060_456, 1_700_000_180_000, nil])
            // The placeholder row belongs to no chat.
            let chat = TableAlias()
            #expect(try Message.joining(optional: Message.chat.aliased(chat)).filter(!chat.exists).fetchAll(db).map(\.id) == [1])
        }
    }

    @Test func messagesAreFoundByTheirThreeColumnKey() throws {
        struct Reply: Decodable, FetchableRecord {
            var message: Message
            var quoted: Quote?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            let key: [String: (any DatabaseValueConvertible)?] = ["key_remote_jid": "33612345678@s.whatsapp.net", "key_from_me": 1, "key_id": "BAE5F2A4C5D1E6B7"]
            let message = try #require(try Message.fetchOne(db, key: key))
            #expect(message.id == 3)
            #expect(message.fromMe)
            #expect(message.starred == true)
            #expect(try Message.filter(key: key).fetchCount(db) == 1)
            #expect(try Message.exists(db, key: key))
            let reply = try Message.including(optional: Message.quoted).filter(key: 3).asRequest(of: Reply.self).fetchOne(db)
            #expect(reply?.quoted?.data == "On arrive dans 10 min")

            var new = Message(jid: "33600000000@s.whatsapp.net", fromMe: true, keyId: "BAE5AAAA00001111", status: 0, data: "Salut !",
                              timestamp: Date(timeIntervalSince1970: 1_700_000_300.5))
            try new.insert(db)
            #expect(new.id == 6)
            #expect(try Int64.fetchOne(db, sql: "SELECT timestamp FROM messages WHERE _id = 6") == 1_700_000_300_500)
            // The trigger indexed its text.
            #expect(try Int64.fetchAll(db, sql: "SELECT docid FROM messages_fts WHERE messages_fts MATCH 'salut'") == [6])
            // The same key again is the same message.
            let duplicate = #expect(throws: DatabaseError.self) {
                var again = new
                again.id = nil
                try again.insert(db)
            }
            #expect(duplicate?.message == "UNIQUE constraint failed: messages.key_remote_jid, messages.key_from_me, messages.key_id")
            var edited = new
            edited.id = nil
            edited.data = "Salut ! 👋"
            try edited.upsert(db)
            #expect(try Message.fetchCount(db) == 6)
            #expect(try Message.fetchOne(db, key: 6)?.data == "Salut ! 👋")
            // Deleting a message deletes its text from the index.
            #expect(try Message.deleteOne(db, key: key))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM messages_fts WHERE messages_fts MATCH 'parfait'") == 0)
            // Nothing cascades: the chat keeps its last message id.
            #expect(try Chat.fetchOne(db, key: 1)?.lastMessageTableId == 3)
            #expect(try Chat.including(optional: Chat.lastMessage).filter(key: 1).asRequest(of: Row.self).fetchOne(db)?.scopes["lastMessage"]?.containsNonNullValue == false)
        }
    }

    @Test func aMigratorAddsAForeignKeyToAnExistingTable() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        var migrator = DatabaseMigrator()
        migrator.registerMigration("reactions") { db in
            try db.create(table: "message_add_on_reaction") { t in
                t.column("message_add_on_row_id", .integer).primaryKey()
                t.column("parent_message_row_id", .integer).notNull().references("messages", onDelete: .cascade)
                t.column("reaction", .text)
            }
        }
        try migrator.migrate(dbQueue)
        try dbQueue.write { (db) throws in
            try db.execute(sql: "INSERT INTO message_add_on_reaction VALUES (1, 3, '👍')")
            let keys = try db.foreignKeys(on: "message_add_on_reaction")
            #expect(keys.map(\.destinationTable) == ["messages"])
            #expect(keys.map(\.destinationColumns) == [["_id"]])
            #expect(try Message.deleteOne(db, key: 3))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM message_add_on_reaction") == 0)
            let missing = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO message_add_on_reaction VALUES (2, 99, '❤️')") }
            #expect(missing?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
        }
    }
}

import Foundation
import Testing
import Trellis

/// Apple's Messages `chat.db`: `ROWID INTEGER PRIMARY KEY AUTOINCREMENT`
/// keys, join tables keyed by a UNIQUE constraint rather than a primary
/// key, foreign keys with ON DELETE CASCADE, a handle column that is no
/// declared key, dates as nanoseconds since 2001, an `attributedBody`
/// blob, `_SqliteDatabaseProperties`, and triggers that call functions
/// that only the Messages app defines.
@Suite struct AppleMessagesTests {
    static let script = """
        CREATE TABLE _SqliteDatabaseProperties (key TEXT, value TEXT, UNIQUE(key));
        CREATE TABLE handle (ROWID INTEGER PRIMARY KEY AUTOINCREMENT UNIQUE, id TEXT NOT NULL, country TEXT, service TEXT NOT NULL, uncanonicalized_id TEXT, person_centric_id TEXT, UNIQUE (id, service));
        CREATE TABLE chat (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, style INTEGER, state INTEGER, account_id TEXT, properties BLOB, chat_identifier TEXT, service_name TEXT, room_name TEXT, display_name TEXT, is_archived INTEGER DEFAULT 0, last_read_message_timestamp INTEGER DEFAULT 0);
        CREATE TABLE message (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, text TEXT, replace INTEGER DEFAULT 0, service_center TEXT, handle_id INTEGER DEFAULT 0, subject TEXT, attributedBody BLOB, service TEXT, date INTEGER, date_read INTEGER, date_delivered INTEGER, is_from_me INTEGER DEFAULT 0, is_read INTEGER DEFAULT 0, cache_has_attachments INTEGER DEFAULT 0, associated_message_guid TEXT DEFAULT NULL, associated_message_type INTEGER DEFAULT 0);
        CREATE TABLE attachment (ROWID INTEGER PRIMARY KEY AUTOINCREMENT, guid TEXT UNIQUE NOT NULL, created_date INTEGER DEFAULT 0, start_date INTEGER DEFAULT 0, filename TEXT, uti TEXT, mime_type TEXT, transfer_state INTEGER DEFAULT 0, is_outgoing INTEGER DEFAULT 0, transfer_name TEXT, total_bytes INTEGER DEFAULT 0);
        CREATE TABLE chat_handle_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, handle_id INTEGER REFERENCES handle (ROWID) ON DELETE CASCADE, UNIQUE(chat_id, handle_id));
        CREATE TABLE chat_message_join (chat_id INTEGER REFERENCES chat (ROWID) ON DELETE CASCADE, message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, message_date INTEGER DEFAULT 0, PRIMARY KEY (chat_id, message_id));
        CREATE TABLE message_attachment_join (message_id INTEGER REFERENCES message (ROWID) ON DELETE CASCADE, attachment_id INTEGER REFERENCES attachment (ROWID) ON DELETE CASCADE, UNIQUE(message_id, attachment_id));
        CREATE INDEX chat_message_join_idx_message_id_only ON chat_message_join(message_id);
        CREATE INDEX message_idx_handle ON message(handle_id, date);
        CREATE TRIGGER after_delete_on_attachment AFTER DELETE ON attachment BEGIN SELECT delete_attachment_path(OLD.filename); END;
        CREATE TRIGGER after_delete_on_message_attachment_join AFTER DELETE ON message_attachment_join BEGIN DELETE FROM attachment WHERE attachment.ROWID = OLD.attachment_id AND (SELECT 1 FROM message_attachment_join WHERE attachment_id = OLD.attachment_id LIMIT 1) IS NULL; END;
        INSERT INTO _SqliteDatabaseProperties VALUES ('_ClientVersion', '17002'), ('counter_in_all', '3'), ('_UniqueIdentifier', '8B2A5D66-6C2F-4E7B-9E59-8CC1E8E1E0A1');
        INSERT INTO handle (id, country, service) VALUES ('+15555550100', 'us', 'iMessage'), ('friend@example.com', 'us', 'iMessage'), ('+15555550100', 'us', 'SMS');
        INSERT INTO chat (guid, style, chat_identifier, service_name, display_name) VALUES ('iMessage;-;+15555550100', 45, '+15555550100', 'iMessage', ''), ('iMessage;+;chat123456', 43, 'chat123456', 'iMessage', 'Family');
        INSERT INTO chat_handle_join VALUES (1, 1), (2, 1), (2, 2);
        INSERT INTO message (guid, text, handle_id, attributedBody, service, date, date_read, is_from_me, cache_has_attachments) VALUES
          ('M1', 'Hello', 1, x'040B73747265616D747970656481E803', 'iMessage', 694224000000000000, 694224030000000000, 0, 0),
          ('M2', 'Photo', 0, NULL, 'iMessage', 694224060500000000, 0, 1, 1),
          ('M3', NULL, 2, NULL, 'iMessage', 694224120000000000, 0, 0, 1);
        INSERT INTO chat_message_join VALUES (1, 1, 694224000000000000), (1, 2, 694224060500000000), (2, 3, 694224120000000000);
        INSERT INTO attachment (guid, created_date, filename, mime_type, transfer_name, total_bytes) VALUES
          ('AT1', 694224060, '~/Library/Messages/Attachments/ab/IMG_0001.HEIC', 'image/heic', 'IMG_0001.HEIC', 1843200),
          ('AT2', 694224120, '~/Library/Messages/Attachments/cd/IMG_0002.HEIC', 'image/heic', 'IMG_0002.HEIC', 921600);
        INSERT INTO message_attachment_join VALUES (2, 1), (3, 2), (3, 1);
        """

    struct Handle: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "handle"
        var ROWID: Int64
        var id: String
        var service: String
    }

    struct Chat: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "chat"
        static let chatHandles = hasMany(ChatHandle.self)
        static let handles = hasMany(Handle.self, through: chatHandles, using: ChatHandle.handle)
        static let chatMessages = hasMany(ChatMessage.self)
        static let messages = hasMany(Message.self, through: chatMessages, using: ChatMessage.message)
        var ROWID: Int64
        var guid: String
        var display_name: String?
    }

    struct ChatHandle: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "chat_handle_join"
        static let handle = belongsTo(Handle.self)
        var chat_id: Int64
        var handle_id: Int64
    }

    struct ChatMessage: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "chat_message_join"
        static let message = belongsTo(Message.self)
        var chat_id: Int64
        var message_id: Int64
    }

    struct Message: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "message"
        static let messageAttachments = hasMany(MessageAttachment.self)
        static let attachments = hasMany(Attachment.self, through: messageAttachments, using: MessageAttachment.attachment)
        /// `handle_id` is 0 for the messages one sends: no declared key.
        static let sender = belongsTo(Handle.self, key: "sender", using: ForeignKey(["handle_id"]))
        var ROWID: Int64
        var guid: String
        var text: String?
        var handle_id: Int64
        var attributedBody: Data?
        var date: Int64
        var is_from_me: Bool

        /// Nanoseconds since 2001-01-01 UTC.
        var sentDate: Date { Date(timeIntervalSinceReferenceDate: Double(date) / 1e9) }
    }

    struct MessageAttachment: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "message_attachment_join"
        static let attachment = belongsTo(Attachment.self)
        var message_id: Int64
        var attachment_id: Int64
    }

    struct Attachment: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "attachment"
        var ROWID: Int64
        var guid: String
        var transfer_name: String
        var total_bytes: Int64
    }

    @Test func chatDatabaseIsIntrospected() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("_SqliteDatabaseProperties").columns == ["rowid"])
            #expect(try db.table("_SqliteDatabaseProperties", hasUniqueKey: ["key"]))
            #expect(try db.primaryKey("chat_handle_join").columns == ["rowid"])
            #expect(try db.table("chat_handle_join", hasUniqueKey: ["handle_id", "chat_id"]))
            let keys = try db.foreignKeys(on: "message_attachment_join")
            // By id: SQLite numbers them from the last declared one.
            #expect(keys.map(\.destinationTable) == ["attachment", "message"])
            #expect(keys.map(\.destinationColumns) == [["ROWID"], ["ROWID"]])
            #expect(keys.map(\.onDelete) == [.cascade, .cascade])
            #expect(try db.triggerExists("after_delete_on_attachment"))
            let version = try Int.fetchOne(db, sql: "SELECT value FROM _SqliteDatabaseProperties WHERE key = '_ClientVersion'")
            #expect(version == 17002)
            #expect(try Table("_SqliteDatabaseProperties").fetchOne(db, key: ["key": "counter_in_all"])?["value"] == "3")
        }
    }

    @Test func messagesDecodeWithTheirDatesAndBodies() throws {
        struct MessageInfo: Decodable, FetchableRecord {
            var message: Message
            var sender: Handle?
            var attachments: [Attachment]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let infos = try Message
                .including(optional: Message.sender)
                .including(all: Message.attachments.order(Column("ROWID")))
                .order(Column("ROWID"))
                .asRequest(of: MessageInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.message.guid) == ["M1", "M2", "M3"])
            #expect(infos.map { $0.sender?.id } == ["+15555550100", nil, "friend@example.com"])
            #expect(infos.map { $0.attachments.map(\.transfer_name) } == [[], ["IMG_0001.HEIC"], ["IMG_0001.HEIC", "IMG_0002.HEIC"]])
            #expect(infos.map(\.message.is_from_me) == [false, true, false])
            #expect(infos[0].message.attributedBody?.prefix(2) == Data([0x04, 0x0B]))
            // 2023-01-01 00:00:00 UTC, and half a second after a minute.
            #expect(infos.map(\.message.sentDate.timeIntervalSince1970) == [1_672_531_200, 1_672_531_260.5, 1_672_531_320])
            // A date read from nanoseconds as seconds is far out: the
            // record converts the raw integer.
            #expect(try Date.fetchOne(db, sql: "SELECT date FROM message WHERE guid = 'M1'") == Date(timeIntervalSince1970: 694_224_000_000_000_000))
            let sql = "SELECT datetime(date / 1000000000 + 978307200, 'unixepoch') FROM message WHERE guid = 'M1'"
            #expect(try String.fetchOne(db, sql: sql) == "2023-01-01 00:00:00")

            let family = try #require(try Chat.filter(Column("display_name") == "Family").fetchOne(db))
            #expect(try family.request(for: Chat.handles).order(Column("ROWID")).fetchAll(db).map(\.id) == ["+15555550100", "friend@example.com"])
            #expect(try family.request(for: Chat.messages).fetchAll(db).map(\.guid) == ["M3"])
            let counts = try Row.fetchAll(db, Chat.annotated(with: Chat.messages.count).order(Column("ROWID")))
            #expect(counts.map { $0["messageCount"] as Int } == [2, 1])
        }
    }

    @Test func triggersThatCallTheAppsFunctionsFailClearlyUntilTheyAreDefined() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { (db) throws in
            // The cascade to message_attachment_join runs its trigger,
            // which deletes the attachment, whose trigger calls a function
            // of the Messages app.
            let error = #expect(throws: DatabaseError.self) { try Message.deleteOne(db, key: 2) }
            #expect(error?.message == "no such function: delete_attachment_path")
            #expect(try Message.fetchCount(db) == 3)
        }
        var configuration = Configuration()
        configuration.prepareDatabase { db in
            db.add(function: DatabaseFunction("delete_attachment_path", argumentCount: 1) { _ in nil })
        }
        try file.open(configuration).write { (db) throws in
            #expect(try Message.deleteOne(db, key: 2))
            #expect(try ChatMessage.fetchCount(db) == 2)
            // AT1 is still used by M3; nothing else uses AT2 once M3 is gone.
            #expect(try Attachment.fetchAll(db).map(\.guid) == ["AT1", "AT2"])
            #expect(try Message.deleteOne(db, key: 3))
            #expect(try Attachment.fetchCount(db) == 0)
        }
    }

    @Test func theHandleOfAMessageIsNotAForeignKey() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            let error = #expect(throws: DatabaseError.self) {
                try Message.including(optional: Message.belongsTo(Handle.self)).fetchAll(db)
            }
            #expect(error?.message == "Could not infer foreign key from message to handle")
            // `hasMany` from a handle, with the column named.
            let handle = try #require(try Handle.fetchOne(db, key: 1))
            let messages = try handle.request(for: Handle.hasMany(Message.self, using: ForeignKey(["handle_id"]))).fetchAll(db)
            #expect(messages.map(\.guid) == ["M1"])
            // A Message record needs its non-optional columns: `text` is
            // NULL for M3, read as nil; a missing column is an error.
            struct Partial: Decodable, FetchableRecord { var ROWID: Int64; var service_center: String }
            let missing = #expect(throws: RowDecodingError.self) { try Partial.fetchAll(db, sql: "SELECT ROWID, service_center FROM message") }
            #expect(missing?.message.contains(#"could not decode String from database value NULL - column: "service_center""#) == true)
        }
    }
}

/// Handles are unique by address and service: an upsert of a known one
/// updates it, and the record learns the rowid of that row.
@Suite struct AppleMessagesHandleUpsertTests {
    struct HandleRecord: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "handle"
        var ROWID: Int64?
        var id: String
        var country: String?
        var service: String
        mutating func didInsert(_ inserted: InsertionSuccess) { ROWID = inserted.rowID }
    }

    @Test func anUpsertOfAKnownHandleReportsItsRowID() throws {
        let file = try RealDatabaseFile(AppleMessagesTests.script)
        try file.open().write { (db) throws in
            try db.execute(sql: "INSERT INTO chat (guid) VALUES ('SMS;-;+15555550199')")
            #expect(db.lastInsertedRowID == 3)
            var known = HandleRecord(ROWID: nil, id: "friend@example.com", country: "fr", service: "iMessage")
            try known.upsert(db)
            #expect(known.ROWID == 2)
            #expect(try String.fetchOne(db, sql: "SELECT country FROM handle WHERE ROWID = 2") == "fr")
            #expect(try HandleRecord.fetchCount(db) == 3)
            var fresh = HandleRecord(ROWID: nil, id: "new@example.com", country: nil, service: "iMessage")
            try fresh.upsert(db)
            // The upsert that updated handle 2 took 4 from AUTOINCREMENT.
            #expect(fresh.ROWID == 5)
            var sms = HandleRecord(ROWID: nil, id: "+15555550100", country: "ca", service: "SMS")
            let upserted = try sms.upsertAndFetch(db)
            #expect(upserted.ROWID == 3)
            #expect(sms.ROWID == 3)
            #expect(upserted.country == "ca")
        }
    }
}

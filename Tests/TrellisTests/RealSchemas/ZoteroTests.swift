import Foundation
import Testing
import Trellis

/// Zotero's `zotero.sqlite`: an item's fields are rows of `itemData`
/// whose values are shared, deduplicated rows of `itemDataValues` (an
/// untyped `value UNIQUE` column, written with `INSERT OR IGNORE`),
/// `INT` keys that are no rowid aliases, composite keys, cascading
/// foreign keys, and a trigger that refuses empty creators.
@Suite struct ZoteroTests {
    static let script = #"""
        CREATE TABLE version (schema TEXT PRIMARY KEY, version INT NOT NULL);
        CREATE TABLE libraries (libraryID INTEGER PRIMARY KEY, type TEXT NOT NULL, editable INT NOT NULL, filesEditable INT NOT NULL, version INT NOT NULL DEFAULT 0, storageVersion INT NOT NULL DEFAULT 0, lastSync INT NOT NULL DEFAULT 0, archived INT NOT NULL DEFAULT 0);
        CREATE TABLE itemTypes (itemTypeID INTEGER PRIMARY KEY, typeName TEXT, templateItemTypeID INT, display INT DEFAULT 1);
        CREATE TABLE fieldsCombined (fieldID INT NOT NULL, fieldName TEXT NOT NULL, label TEXT, fieldFormatID INT, custom INT NOT NULL, PRIMARY KEY (fieldID));
        CREATE TABLE items (itemID INTEGER PRIMARY KEY, itemTypeID INT NOT NULL, dateAdded TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, dateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, clientDateModified TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP, libraryID INT NOT NULL, key TEXT NOT NULL, version INT NOT NULL DEFAULT 0, synced INT NOT NULL DEFAULT 0, UNIQUE (libraryID, key), FOREIGN KEY (libraryID) REFERENCES libraries(libraryID) ON DELETE CASCADE);
        CREATE TABLE itemDataValues (valueID INTEGER PRIMARY KEY, value UNIQUE);
        CREATE TABLE itemData (itemID INT, fieldID INT, valueID, PRIMARY KEY (itemID, fieldID), FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (fieldID) REFERENCES fieldsCombined(fieldID), FOREIGN KEY (valueID) REFERENCES itemDataValues(valueID));
        CREATE INDEX itemData_fieldID ON itemData(fieldID);
        CREATE TABLE creatorTypes (creatorTypeID INTEGER PRIMARY KEY, creatorType TEXT);
        CREATE TABLE creators (creatorID INTEGER PRIMARY KEY, firstName TEXT, lastName TEXT, fieldMode INT, UNIQUE (lastName, firstName, fieldMode));
        CREATE TABLE itemCreators (itemID INT NOT NULL, creatorID INT NOT NULL, creatorTypeID INT NOT NULL DEFAULT 1, orderIndex INT NOT NULL DEFAULT 0, PRIMARY KEY (itemID, creatorID, creatorTypeID, orderIndex), UNIQUE (itemID, orderIndex), FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE, FOREIGN KEY (creatorID) REFERENCES creators(creatorID) ON DELETE CASCADE, FOREIGN KEY (creatorTypeID) REFERENCES creatorTypes(creatorTypeID));
        CREATE INDEX itemCreators_creatorTypeID ON itemCreators(creatorTypeID);
        CREATE TABLE settings (setting TEXT, key TEXT, value, PRIMARY KEY (setting, key));
        CREATE TABLE deletedItems (itemID INTEGER PRIMARY KEY, dateDeleted DEFAULT CURRENT_TIMESTAMP NOT NULL, FOREIGN KEY (itemID) REFERENCES items(itemID) ON DELETE CASCADE);
        CREATE TRIGGER insert_creators BEFORE INSERT ON creators FOR EACH ROW WHEN NEW.firstName='' AND NEW.lastName='' BEGIN SELECT RAISE (ABORT, 'Creator names cannot be empty'); END;
        INSERT INTO version VALUES ('userdata', 120), ('system', 33), ('triggers', 18);
        INSERT INTO libraries VALUES (1, 'user', 1, 1, 2117, 0, 1700000000, 0);
        INSERT INTO itemTypes VALUES (22, 'journalArticle', NULL, 1), (7, 'book', NULL, 1);
        INSERT INTO fieldsCombined VALUES (1, 'title', 'Title', NULL, 0), (6, 'date', 'Date', NULL, 0), (12, 'publicationTitle', 'Publication', NULL, 0), (19, 'volume', 'Volume', NULL, 0);
        INSERT INTO creatorTypes VALUES (1, 'author'), (3, 'editor');
        INSERT INTO items (itemID, itemTypeID, dateAdded, dateModified, clientDateModified, libraryID, key, version, synced)
          VALUES (1, 22, '2023-11-14 09:12:33', '2023-11-14 09:15:02', '2023-11-14 09:15:02', 1, 'ABCD2345', 2101, 1),
                 (2, 7, '2024-01-02 18:00:00', '2024-01-02 18:00:00', '2024-01-02 18:00:00', 1, 'QWER6789', 2117, 0);
        INSERT INTO itemDataValues VALUES (1, 'Attention Is All You Need'), (2, '2017-00-00 2017'), (3, 'Advances in Neural Information Processing Systems'), (4, 30), (5, 'Structure and Interpretation of Computer Programs');
        INSERT INTO itemData VALUES (1, 1, 1), (1, 6, 2), (1, 12, 3), (1, 19, 4), (2, 1, 5);
        INSERT INTO creators VALUES (1, 'Ashish', 'Vaswani', 0), (2, 'Noam', 'Shazeer', 0), (3, 'Harold', 'Abelson', 0);
        INSERT INTO itemCreators VALUES (1, 1, 1, 0), (1, 2, 1, 1), (2, 3, 1, 0);
        INSERT INTO settings VALUES ('account', 'username', 'jdoe'), ('globalSettings', 'lastLibraryVersion', 2117);
        """#

    struct Item: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "items"
        static let data = hasMany(ItemData.self, key: "data")
        static let itemCreators = hasMany(ItemCreator.self, key: "itemCreators")
        static let creators = hasMany(Creator.self, through: itemCreators, using: ItemCreator.creator, key: "creators")
        var itemID: Int64
        var itemTypeID: Int
        var dateAdded: Date
        var libraryID: Int64
        var key: String
        var version: Int
        var synced: Bool
    }

    struct ItemData: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "itemData"
        static let value = belongsTo(ItemDataValue.self, key: "value")
        static let field = belongsTo(Field.self, key: "field")
        var itemID: Int64
        var fieldID: Int64
        var valueID: Int64
    }

    /// Hand-written: the value is text or a number.
    struct ItemDataValue: FetchableRecord, MutablePersistableRecord, Decodable {
        static let databaseTableName = "itemDataValues"
        var valueID: Int64?
        var value: DatabaseValue
        init(valueID: Int64?, value: DatabaseValue) {
            self.valueID = valueID
            self.value = value
        }
        init(row: Row) throws {
            valueID = try row.decode(Int64?.self, forColumn: "valueID")
            value = row["value"]
        }
        init(from decoder: any Decoder) throws {
            // Prefetched as an association: read from the row.
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "read with init(row:)"))
        }
        func encode(to container: inout PersistenceContainer) {
            container["valueID"] = valueID
            container["value"] = value
        }
        mutating func didInsert(_ inserted: InsertionSuccess) { valueID = inserted.rowID }
    }

    struct Field: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "fieldsCombined"
        var fieldID: Int64
        var fieldName: String
    }

    struct ItemCreator: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "itemCreators"
        static let creator = belongsTo(Creator.self, key: "creator")
        var itemID: Int64
        var creatorID: Int64
        var creatorTypeID: Int64
        var orderIndex: Int
    }

    struct Creator: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "creators"
        var creatorID: Int64?
        var firstName: String
        var lastName: String
        var fieldMode: Int
        mutating func didInsert(_ inserted: InsertionSuccess) { creatorID = inserted.rowID }
    }

    struct Setting: FetchableRecord, PersistableRecord {
        static let databaseTableName = "settings"
        var setting: String
        var key: String
        var value: DatabaseValue
        init(setting: String, key: String, value: DatabaseValue) {
            self.setting = setting
            self.key = key
            self.value = value
        }
        init(row: Row) throws {
            setting = try row.decode(String.self, forColumn: "setting")
            key = try row.decode(String.self, forColumn: "key")
            value = row["value"]
        }
        func encode(to container: inout PersistenceContainer) {
            container["setting"] = setting
            container["key"] = key
            container["value"] = value
        }
    }

    @Test func itemFieldsAreReadThroughTheirSharedValues() throws {
        struct FieldValue: Decodable, FetchableRecord {
            var itemID: Int64
            var field: Field
            var value: ItemDataValue
        }
        struct ItemInfo: Decodable, FetchableRecord {
            var item: Item
            var data: [FieldValue]
            var creators: [Creator]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.primaryKey("itemData").columns == ["itemID", "fieldID"])
            #expect(try db.primaryKey("fieldsCombined").rowIDColumn == nil)
            #expect(try db.columns(in: "itemData").map(\.type) == ["INT", "INT", ""])
            #expect(try db.foreignKeys(on: "itemData").map(\.destinationTable) == ["itemDataValues", "fieldsCombined", "items"])
            #expect(try db.table("itemCreators", hasUniqueKey: ["itemID", "orderIndex"]))
            let infos = try Item
                .including(all: Item.data.including(required: ItemData.field).including(required: ItemData.value).order(Column("fieldID")))
                .including(all: Item.creators.order(Column("creatorID")))
                .order(Column("itemID"))
                .asRequest(of: ItemInfo.self).fetchAll(db)
            #expect(infos.map(\.item.key) == ["ABCD2345", "QWER6789"])
            #expect(infos.map(\.item.synced) == [true, false])
            #expect(infos[0].item.dateAdded == Date(timeIntervalSince1970: 1_699_953_153))
            #expect(infos[0].data.map(\.field.fieldName) == ["title", "date", "publicationTitle", "volume"])
            // The volume is an integer, the others text: the untyped
            // column keeps what was written.
            #expect(infos[0].data.map(\.value.value) == ["Attention Is All You Need".databaseValue, "2017-00-00 2017".databaseValue,
                                                         "Advances in Neural Information Processing Systems".databaseValue, 30.databaseValue])
            #expect(infos.map { $0.creators.map(\.lastName) } == [["Vaswani", "Shazeer"], ["Abelson"]])
            #expect(try ItemDataValue.fetchOne(db, key: ["value": 30])?.valueID == 4)
            // Text is not an integer in a column without affinity.
            #expect(try ItemDataValue.fetchOne(db, key: ["value": "30"]) == nil)
            #expect(try ItemData.fetchOne(db, key: ["itemID": 1, "fieldID": 19])?.valueID == 4)
        }
    }

    @Test func insertOrIgnoreGivesNoIdWhenItInsertsNothing() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            var fresh = ItemDataValue(valueID: nil, value: "Nature".databaseValue)
            try fresh.insert(db, onConflict: .ignore)
            #expect(fresh.valueID == 6)
            // The value exists: nothing is inserted, and the record gets
            // no id rather than the rowid of the previous insert.
            var known = ItemDataValue(valueID: nil, value: "Attention Is All You Need".databaseValue)
            try known.insert(db, onConflict: .ignore)
            #expect(known.valueID == nil)
            let inserted = try ItemDataValue(valueID: nil, value: "Nature".databaseValue).inserted(db, onConflict: .ignore)
            #expect(inserted.valueID == nil)
            #expect(try ItemDataValue.fetchCount(db) == 6)
            // Zotero's pattern: insert or ignore, then read the id.
            let id = try ItemDataValue.fetchOne(db, key: ["value": "Attention Is All You Need"])?.valueID
            #expect(id == 1)
            // `insertAndFetch` says that nothing was inserted.
            let ignored = #expect(throws: RecordError.self) {
                try ItemDataValue(valueID: nil, value: "Nature".databaseValue).insertAndFetch(db, onConflict: .ignore)
            }
            #expect(ignored != nil)
            // Several records: each gets its own id or none.
            var values = [ItemDataValue(valueID: nil, value: "Science".databaseValue),
                          ItemDataValue(valueID: nil, value: "Nature".databaseValue),
                          ItemDataValue(valueID: nil, value: 31.databaseValue)]
            values = try values.insertAll(db, onConflict: .ignore)
            #expect(values.map(\.valueID) == [7, nil, 8])
        }
    }

    @Test func creatorsItemsAndSettingsFollowZoterosRules() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            var empty = Creator(creatorID: nil, firstName: "", lastName: "", fieldMode: 0)
            let refused = #expect(throws: DatabaseError.self) { try empty.insert(db) }
            #expect(refused?.message == "Creator names cannot be empty")
            #expect(refused?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
            #expect(empty.creatorID == nil)
            var sussman = Creator(creatorID: nil, firstName: "Gerald Jay", lastName: "Sussman", fieldMode: 0)
            try sussman.insert(db)
            #expect(sussman.creatorID == 4)
            try ItemCreator(itemID: 2, creatorID: 4, creatorTypeID: 1, orderIndex: 1).insert(db)
            let sameIndex = #expect(throws: DatabaseError.self) { try ItemCreator(itemID: 2, creatorID: 1, creatorTypeID: 1, orderIndex: 1).insert(db) }
            #expect(sameIndex?.message == "UNIQUE constraint failed: itemCreators.itemID, itemCreators.orderIndex")

            #expect(try Setting.fetchOne(db, key: ["setting": "globalSettings", "key": "lastLibraryVersion"])?.value == 2117.databaseValue)
            try Setting(setting: "globalSettings", key: "lastLibraryVersion", value: 2120.databaseValue).upsert(db)
            #expect(try Setting.fetchOne(db, key: ["setting": "globalSettings", "key": "lastLibraryVersion"])?.value == 2120.databaseValue)
            #expect(try Setting.deleteOne(db, key: ["setting": "account", "key": "username"]))

            // Deleting an item cascades to its data and creators; the
            // shared values stay.
            #expect(try Item.deleteOne(db, key: 1))
            #expect(try ItemData.fetchCount(db) == 1)
            #expect(try ItemCreator.filter(Column("itemID") == 1).fetchCount(db) == 0)
            #expect(try ItemDataValue.fetchCount(db) == 5)
            #expect(try Item.fetchOne(db, key: ["libraryID": 1, "key": "QWER6789"])?.itemID == 2)
        }
    }
}

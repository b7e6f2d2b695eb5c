import Foundation
import Testing
import Trellis

/// A GnuCash book saved as SQLite: every key a 32-character GUID in a
/// `text(32)` column, no declared foreign key (accounts name their
/// parent, splits their transaction and account), amounts as a
/// `bigint` numerator over a `bigint` denominator, `text(19)` dates
/// (`2023-01-15 10:59:00`, or `20230115105900` in files of GnuCash
/// 2.6), `gdate_val` dates of 8 digits, and a key-value `slots` table.
@Suite struct GnuCashTests {
    static let script = """
        CREATE TABLE gnclock ( Hostname varchar(255), PID int );
        CREATE TABLE versions(table_name text(50) PRIMARY KEY NOT NULL, table_version integer NOT NULL);
        CREATE TABLE books(guid text(32) PRIMARY KEY NOT NULL, root_account_guid text(32) NOT NULL, root_template_guid text(32) NOT NULL);
        CREATE TABLE commodities(guid text(32) PRIMARY KEY NOT NULL, namespace text(2048) NOT NULL, mnemonic text(2048) NOT NULL, fullname text(2048), cusip text(2048), fraction integer NOT NULL, quote_flag integer NOT NULL, quote_source text(2048), quote_tz text(2048));
        CREATE TABLE accounts(guid text(32) PRIMARY KEY NOT NULL, name text(2048) NOT NULL, account_type text(2048) NOT NULL, commodity_guid text(32), commodity_scu integer NOT NULL, non_std_scu integer NOT NULL, parent_guid text(32), code text(2048), description text(2048), hidden integer, placeholder integer);
        CREATE TABLE transactions(guid text(32) PRIMARY KEY NOT NULL, currency_guid text(32) NOT NULL, num text(2048) NOT NULL, post_date text(19), enter_date text(19), description text(2048));
        CREATE INDEX tx_post_date_index ON transactions(post_date);
        CREATE TABLE splits(guid text(32) PRIMARY KEY NOT NULL, tx_guid text(32) NOT NULL, account_guid text(32) NOT NULL, memo text(2048) NOT NULL, action text(2048) NOT NULL, reconcile_state text(1) NOT NULL, reconcile_date text(19), value_num bigint NOT NULL, value_denom bigint NOT NULL, quantity_num bigint NOT NULL, quantity_denom bigint NOT NULL, lot_guid text(32));
        CREATE INDEX splits_tx_guid_index ON splits(tx_guid);
        CREATE INDEX splits_account_guid_index ON splits(account_guid);
        CREATE TABLE slots(id integer PRIMARY KEY AUTOINCREMENT NOT NULL, obj_guid text(32) NOT NULL, name text(4096) NOT NULL, slot_type integer NOT NULL, int64_val bigint, string_val text(4096), double_val float8, timespec_val text(19), guid_val text(32), numeric_val_num bigint, numeric_val_denom bigint, gdate_val text(8));
        CREATE INDEX slots_guid_index ON slots(obj_guid);
        INSERT INTO gnclock VALUES ('laptop', 4242);
        INSERT INTO versions VALUES ('Gnucash', 5000000), ('Gnucash-Resave', 19920), ('accounts', 1), ('transactions', 4), ('splits', 5);
        INSERT INTO commodities VALUES ('a1b2c3d4e5f60718293a4b5c6d7e8f90', 'CURRENCY', 'EUR', 'Euro', '978', 100, 1, 'currency', '');
        INSERT INTO books VALUES ('b00c0000000000000000000000000001', 'ac000000000000000000000000000000', 'ac0000000000000000000000000000ff');
        INSERT INTO accounts VALUES ('ac000000000000000000000000000000', 'Root Account', 'ROOT', NULL, 0, 0, NULL, '', '', 0, 0);
        INSERT INTO accounts VALUES ('ac000000000000000000000000000001', 'Assets', 'ASSET', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 100, 0, 'ac000000000000000000000000000000', '1000', 'Assets', 0, 1);
        INSERT INTO accounts VALUES ('ac000000000000000000000000000002', 'Checking Account', 'BANK', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 100, 0, 'ac000000000000000000000000000001', '1100', '', 0, 0);
        INSERT INTO accounts VALUES ('ac000000000000000000000000000003', 'Expenses', 'EXPENSE', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 100, 0, 'ac000000000000000000000000000000', '6000', '', 0, 1);
        INSERT INTO accounts VALUES ('ac000000000000000000000000000004', 'Groceries', 'EXPENSE', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', 100, 0, 'ac000000000000000000000000000003', '6100', '', 0, 0);
        INSERT INTO transactions VALUES ('7a000000000000000000000000000001', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', '', '2023-01-15 10:59:00', '2023-01-15 18:20:31', 'Supermarket');
        INSERT INTO transactions VALUES ('7a000000000000000000000000000002', 'a1b2c3d4e5f60718293a4b5c6d7e8f90', '101', '20230201105900', '20230201120000', 'Old file: market');
        INSERT INTO splits VALUES ('5b000000000000000000000000000001', '7a000000000000000000000000000001', 'ac000000000000000000000000000004', '', '', 'n', '1970-01-01 00:00:00', 4599, 100, 4599, 100, NULL);
        INSERT INTO splits VALUES ('5b000000000000000000000000000002', '7a000000000000000000000000000001', 'ac000000000000000000000000000002', '', '', 'c', '2023-01-31 10:59:00', -4599, 100, -4599, 100, NULL);
        INSERT INTO splits VALUES ('5b000000000000000000000000000003', '7a000000000000000000000000000002', 'ac000000000000000000000000000004', 'apples', '', 'n', NULL, 1250, 100, 1250, 100, NULL);
        INSERT INTO splits VALUES ('5b000000000000000000000000000004', '7a000000000000000000000000000002', 'ac000000000000000000000000000002', '', '', 'y', NULL, -1250, 100, -1250, 100, NULL);
        INSERT INTO slots (obj_guid, name, slot_type, int64_val, string_val, double_val, timespec_val, guid_val, numeric_val_num, numeric_val_denom, gdate_val) VALUES
            ('7a000000000000000000000000000001', 'date-posted', 10, 0, NULL, 0.0, NULL, NULL, 0, 1, '20230115'),
            ('ac000000000000000000000000000002', 'color', 4, 0, 'Not Set', 0.0, NULL, NULL, 0, 1, NULL),
            ('ac000000000000000000000000000002', 'reconcile-info/last-date', 1, 1675205940, NULL, 0.0, NULL, NULL, 0, 1, NULL),
            ('b00c0000000000000000000000000001', 'counter/gncInvoice', 1, 9223372036854775807, NULL, 0.0, NULL, NULL, 0, 1, NULL);
        """

    struct Account: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "accounts"
        static let parent = belongsTo(Account.self, key: "parent", using: ForeignKey(["parent_guid"]))
        static let children = hasMany(Account.self, key: "children", using: ForeignKey(["parent_guid"]))
        static let splits = hasMany(Split.self, using: ForeignKey(["account_guid"]))
        static let slots = hasMany(Slot.self, using: ForeignKey(["obj_guid"]))
        var guid: String
        var name: String
        var account_type: String
        var commodity_guid: String?
        var commodity_scu: Int
        var non_std_scu: Int
        var parent_guid: String?
        var code: String?
        var description: String?
        var hidden: Bool?
        var placeholder: Bool?
    }

    struct GncTransaction: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "transactions"
        static let splits = hasMany(Split.self, using: ForeignKey(["tx_guid"]))
        var guid: String
        var currency_guid: String
        var num: String
        var post_date: Date?
        var enter_date: Date?
        var description: String?
    }

    struct Split: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "splits"
        static let transaction = belongsTo(GncTransaction.self, key: "transaction", using: ForeignKey(["tx_guid"]))
        static let account = belongsTo(Account.self, using: ForeignKey(["account_guid"]))
        var guid: String
        var tx_guid: String
        var account_guid: String
        var memo: String
        var action: String
        var reconcile_state: String
        var value_num: Int64
        var value_denom: Int64
        var quantity_num: Int64
        var quantity_denom: Int64

        var value: Decimal { Decimal(value_num) / Decimal(value_denom) }
    }

    struct Slot: Codable, FetchableRecord, MutablePersistableRecord {
        static let databaseTableName = "slots"
        var id: Int64?
        var obj_guid: String
        var name: String
        var slot_type: Int
        var int64_val: Int64?
        var string_val: String?
        var gdate_val: String?
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test func guidKeysAreTextPrimaryKeys() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let key = try db.primaryKey("accounts")
            #expect(key.columns == ["guid"])
            #expect(key.rowIDColumn == nil)
            #expect(try db.columns(in: "splits").map(\.type).prefix(3) == ["text(32)", "text(32)", "text(32)"])
            #expect(try db.foreignKeys(on: "splits").isEmpty)
            #expect(try db.primaryKey("gnclock").columns == ["rowid"])
            #expect(try Int.fetchOne(db, sql: "SELECT table_version FROM versions WHERE table_name = 'Gnucash'") == 5000000)
            let checking = try #require(try Account.fetchOne(db, key: "ac000000000000000000000000000002"))
            #expect(checking.name == "Checking Account")
            #expect(checking.placeholder == false)
            #expect(try Account.fetchOne(db, key: "AC000000000000000000000000000002") == nil)
        }
    }

    @Test func theAccountTreeIsASelfReferenceByGUID() throws {
        struct Node: Decodable, FetchableRecord {
            var account: Account
            var parent: Account?
            var children: [Account]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let nodes = try Account.including(optional: Account.parent)
                .including(all: Account.children.order(Column("code")))
                .order(Column("code")).asRequest(of: Node.self).fetchAll(db)
            #expect(nodes.map(\.account.name) == ["Root Account", "Assets", "Checking Account", "Expenses", "Groceries"])
            #expect(nodes.map { $0.parent?.name } == [nil, "Root Account", "Assets", "Root Account", "Expenses"])
            #expect(nodes.map { $0.children.map(\.name) } == [["Assets", "Expenses"], ["Checking Account"], [], ["Groceries"], []])
            let leaves = try Account.having(Account.children.isEmpty).order(Column("code")).fetchAll(db)
            #expect(leaves.map(\.name) == ["Checking Account", "Groceries"])
        }
    }

    @Test func balancesAreSumsOfNumeratorsOverTheirDenominator() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let balances = try Row.fetchAll(db, Account
                .annotated(with: Account.splits.sum(Column("value_num")).forKey("total"))
                .filter(Column("account_type") != "ROOT")
                .order(Column("code")))
            #expect(balances.map { $0["name"] as String } == ["Assets", "Checking Account", "Expenses", "Groceries"])
            // An account without splits sums to NULL, as SQL's SUM does.
            #expect(balances.map { $0["total"] as Int64? } == [nil, -5849, nil, 5849])
            let splits = try Split.filter(Column("account_guid") == "ac000000000000000000000000000004").order(Column("guid")).fetchAll(db)
            #expect(splits.map(\.value) == [Decimal(string: "45.99")!, Decimal(string: "12.5")!])
            // Each transaction balances.
            let totals = try Row.fetchAll(db, GncTransaction.annotated(with: GncTransaction.splits.sum(Column("value_num")).forKey("total")))
            #expect(totals.map { $0["total"] as Int64 } == [0, 0])
            let reconciled = try Split.joining(required: Split.account.filter(Column("account_type") == "BANK"))
                .filter(["c", "y"].contains(Column("reconcile_state"))).fetchCount(db)
            #expect(reconciled == 2)
        }
    }

    @Test func datesOfTwoFormatsAreDecodedOrRejected() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let current = try #require(try GncTransaction.fetchOne(db, key: "7a000000000000000000000000000001"))
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            #expect(current.post_date == calendar.date(from: DateComponents(year: 2023, month: 1, day: 15, hour: 10, minute: 59)))
            // GnuCash 2.6 wrote 14 digits: not a date format SQLite
            // knows, never read as a number of seconds.
            let error = #expect(throws: RowDecodingError.self) {
                try GncTransaction.fetchOne(db, key: "7a000000000000000000000000000002")
            }
            #expect(error?.message.contains("20230201105900") == true)
            #expect(error?.message.contains("post_date") == true)
            // Read as text, the old dates sort with the new ones.
            let posted = try String.fetchAll(db, sql: "SELECT post_date FROM transactions ORDER BY post_date")
            #expect(posted == ["2023-01-15 10:59:00", "20230201105900"])
            // Nor is a `gdate_val` of 8 digits.
            #expect(throws: (any Error).self) {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT gdate_val FROM slots WHERE name = 'date-posted'")
            }
        }
    }

    @Test func slotsHoldSixtyFourBitIntegers() throws {
        struct NarrowSlot: Decodable, FetchableRecord {
            var int64_val: Int32
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let counter = try #require(try Slot.filter(Column("name") == "counter/gncInvoice").fetchOne(db))
            #expect(counter.int64_val == Int64.max)
            #expect(try Int64.fetchOne(db, sql: "SELECT int64_val + 0 FROM slots WHERE name = 'counter/gncInvoice'") == Int64.max)
            let error = #expect(throws: RowDecodingError.self) {
                try NarrowSlot.fetchAll(db, sql: "SELECT int64_val FROM slots WHERE name = 'counter/gncInvoice'")
            }
            #expect(error?.message.contains("9223372036854775807") == true)
            var slot = Slot(id: nil, obj_guid: "ac000000000000000000000000000004", name: "notes", slot_type: 4,
                            int64_val: Int64.min, string_val: "weekly", gdate_val: nil)
            try slot.insert(db)
            #expect(slot.id == 5)
            #expect(try Int64.fetchOne(db, sql: "SELECT int64_val FROM slots WHERE id = 5") == Int64.min)
            let slotCounts = try Row.fetchAll(db, Account.annotated(with: Account.slots.count).filter(Column("account_type") == "BANK"))
            #expect(slotCounts.map { $0["slotCount"] as Int } == [2])
        }
    }

    @Test func aTransactionIsWrittenWithItsSplits() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            var calendar = Calendar(identifier: .gregorian)
            calendar.timeZone = TimeZone(identifier: "UTC")!
            let posted = try #require(calendar.date(from: DateComponents(year: 2023, month: 3, day: 1, hour: 10, minute: 59)))
            let tx = GncTransaction(guid: "7a000000000000000000000000000003", currency_guid: "a1b2c3d4e5f60718293a4b5c6d7e8f90",
                                    num: "", post_date: posted, enter_date: posted, description: "Bakery")
            try tx.insert(db)
            try Split(guid: "5b000000000000000000000000000005", tx_guid: tx.guid, account_guid: "ac000000000000000000000000000004",
                      memo: "", action: "", reconcile_state: "n", value_num: 320, value_denom: 100, quantity_num: 320, quantity_denom: 100).insert(db)
            try Split(guid: "5b000000000000000000000000000006", tx_guid: tx.guid, account_guid: "ac000000000000000000000000000002",
                      memo: "", action: "", reconcile_state: "n", value_num: -320, value_denom: 100, quantity_num: -320, quantity_denom: 100).insert(db)
            // Dates are stored as GnuCash reads them.
            #expect(try String.fetchOne(db, sql: "SELECT post_date FROM transactions WHERE guid = ?", arguments: [tx.guid]) == "2023-03-01 10:59:00.000")
            #expect(try tx.request(for: GncTransaction.splits).fetchCount(db) == 2)
            // No foreign key: deleting the transaction leaves its splits.
            #expect(try tx.delete(db))
            #expect(try Split.filter(Column("tx_guid") == tx.guid).fetchCount(db) == 2)
            #expect(try Split.filter(Column("tx_guid") == tx.guid).deleteAll(db) == 2)
            // The same GUID twice is a clear error.
            let error = #expect(throws: DatabaseError.self) {
                try Account(guid: "ac000000000000000000000000000004", name: "Again", account_type: "EXPENSE", commodity_guid: nil,
                            commodity_scu: 100, non_std_scu: 0, parent_guid: nil, code: nil, description: nil, hidden: nil, placeholder: nil).insert(db)
            }
            #expect(error?.message == "UNIQUE constraint failed: accounts.guid")
        }
    }
}

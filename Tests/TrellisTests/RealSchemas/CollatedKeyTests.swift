import Foundation
import Testing
import Trellis

/// A foreign key to a text key declared `COLLATE NOCASE`, as spreadsheet
/// imports and hand-written schemas declare currency or country codes.
/// SQLite matches such a foreign key with the collation of the parent
/// key: the child 'eur' references the parent 'EUR'. Every way of using
/// the association must agree with the join.
@Suite struct CollatedKeyTests {
    static let script = """
        CREATE TABLE currency (code TEXT PRIMARY KEY COLLATE NOCASE, name TEXT NOT NULL);
        CREATE TABLE price (id INTEGER PRIMARY KEY, product TEXT NOT NULL, amount REAL NOT NULL, currency TEXT NOT NULL REFERENCES currency(code));
        CREATE TABLE unit (symbol TEXT PRIMARY KEY COLLATE RTRIM, name TEXT);
        CREATE TABLE measure (id INTEGER PRIMARY KEY, value REAL, symbol TEXT REFERENCES unit(symbol));
        INSERT INTO currency VALUES ('EUR', 'Euro'), ('USD', 'US Dollar'), ('JPY', 'Yen');
        INSERT INTO price VALUES (1, 'Book', 12.5, 'EUR'), (2, 'Pen', 1.2, 'eur'), (3, 'Lamp', 30, 'Usd'), (4, 'Mug', 8, 'USD');
        INSERT INTO unit VALUES ('kg', 'kilogram');
        INSERT INTO measure VALUES (1, 2.5, 'kg'), (2, 3.5, 'kg  ');
        """

    struct Currency: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "currency"
        static let prices = hasMany(Price.self)
        var code: String
        var name: String
    }

    struct Price: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "price"
        static let currency = belongsTo(Currency.self)
        var id: Int64
        var product: String
        var currency: String
    }

    @Test func everyUseOfTheAssociationMatchesAsSQLiteDoes() throws {
        struct CurrencyInfo: Decodable, FetchableRecord {
            var currency: Currency
            var prices: [Price]
        }
        struct CurrencyCount: Decodable, FetchableRecord {
            var code: String
            var priceCount: Int
        }
        struct PriceInfo: Decodable, FetchableRecord {
            var price: Price
            var currencyRecord: Currency
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            // SQLite enforces the key with NOCASE.
            try db.execute(sql: "INSERT INTO price VALUES (5, 'Tea', 3, 'jpy')")
            let missing = #expect(throws: DatabaseError.self) { try db.execute(sql: "INSERT INTO price VALUES (6, 'Pie', 4, 'GBP')") }
            #expect(missing?.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)

            let joined = try Price.including(required: Price.currency.forKey("currencyRecord")).order(Column("id"))
                .asRequest(of: PriceInfo.self).fetchAll(db)
            #expect(joined.map(\.currencyRecord.code) == ["EUR", "EUR", "USD", "USD", "JPY"])
            let infos = try Currency.including(all: Currency.prices.order(Column("id"))).order(Column("code"))
                .asRequest(of: CurrencyInfo.self).fetchAll(db)
            #expect(infos.map(\.currency.code) == ["EUR", "JPY", "USD"])
            #expect(infos.map { $0.prices.map(\.id) } == [[1, 2], [5], [3, 4]])
            let counts = try Currency.annotated(with: Currency.prices.count).order(Column("code"))
                .asRequest(of: CurrencyCount.self).fetchAll(db)
            #expect(counts.map(\.priceCount) == [2, 1, 2])
            let euro = try #require(try Currency.fetchOne(db, key: "eur"))
            #expect(try euro.request(for: Currency.prices).order(Column("id")).fetchAll(db).map(\.id) == [1, 2])
            #expect(try Currency.joining(required: Currency.prices.filter(Column("product") == "Pen")).fetchAll(db).map(\.code) == ["EUR"])
            #expect(try Currency.having(Currency.prices.isEmpty).fetchCount(db) == 0)
            #expect(try Price.joining(required: Price.currency.filter(Column("name") == "Yen")).fetchAll(db).map(\.id) == [5])
        }
    }

    @Test func aCollationThatTrellisDoesNotFoldFailsTheGroupingClearly() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            // RTRIM: 'kg  ' references 'kg'. The join finds both measures.
            let unit = Table("unit"), measure = Table("measure")
            #expect(try measure.including(required: measure.belongsTo(unit)).fetchCount(db) == 2)
            #expect(try Row.fetchOne(db, unit.annotated(with: unit.hasMany(measure).count))?["measureCount"] == 2)
            // A prefetch can not tell which unit 'kg  ' goes with: an
            // error, not a measure left out.
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, unit.including(all: unit.hasMany(measure).forKey("measures")))
            }
            #expect(error?.message == #"including(all:) of measures: SQLite matched an associated row whose link "kg  " equals no parent's key as Trellis compares them (a collation other than BINARY or NOCASE): fetch the associated rows with a request of their own"#)
        }
    }
}

import Foundation
import Testing
import Trellis
import TrellisCLICore

/// `trellis inspect` on the SQLite port of the Sakila sample: `store`
/// and `staff` reference each other (a store's manager is one of the
/// staff, each staff member works in a store), `film` references
/// `language` twice, and the keys are `INT` or `numeric` columns that
/// are not the rowid.
@Suite struct InspectSakilaTests {
    static let sql = """
        CREATE TABLE address (address_id int NOT NULL, address VARCHAR(50) NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (address_id));
        CREATE TABLE staff (staff_id SMALLINT NOT NULL, first_name VARCHAR(45) NOT NULL, address_id INT NOT NULL, picture BLOB DEFAULT NULL, store_id INT NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (staff_id),
          CONSTRAINT fk_staff_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE NO ACTION ON UPDATE CASCADE,
          CONSTRAINT fk_staff_address FOREIGN KEY (address_id) REFERENCES address (address_id) ON DELETE NO ACTION ON UPDATE CASCADE);
        CREATE TABLE store (store_id INT NOT NULL, manager_staff_id SMALLINT NOT NULL, address_id INT NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (store_id),
          CONSTRAINT fk_store_staff FOREIGN KEY (manager_staff_id) REFERENCES staff (staff_id),
          CONSTRAINT fk_store_address FOREIGN KEY (address_id) REFERENCES address (address_id));
        CREATE UNIQUE INDEX idx_unique_manager ON store(manager_staff_id);
        CREATE TABLE language (language_id SMALLINT NOT NULL, name CHAR(20) NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (language_id));
        CREATE TABLE film (film_id int NOT NULL, title VARCHAR(255) NOT NULL, description BLOB SUB_TYPE TEXT DEFAULT NULL, language_id SMALLINT NOT NULL, original_language_id SMALLINT DEFAULT NULL, rental_rate DECIMAL(4,2) DEFAULT 4.99 NOT NULL, last_update TIMESTAMP NOT NULL, PRIMARY KEY (film_id),
          CONSTRAINT fk_film_language FOREIGN KEY (language_id) REFERENCES language (language_id),
          CONSTRAINT fk_film_language_original FOREIGN KEY (original_language_id) REFERENCES language (language_id));
        """

    private func inspect() throws -> DatabaseReport {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-sakila-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try InspectedDatabase.write(Self.sql, at: path)
        return try SchemaInspector.inspect(path: path)
    }

    @Test func throughAssociationsNameTheMembersTheyGoThrough() throws {
        let report = try inspect()
        func declarations(_ table: String) -> [String] {
            report.associations.filter { $0.table == table }.map(\.declaration)
        }
        // The store a staff member manages is named after its key, beside
        // the store they work in.
        #expect(declarations("staff") == [
            "static let address = belongsTo(Address.self)",
            "static let store = belongsTo(Store.self)",
            #"static let managerStaffStore = hasOne(Store.self, key: "managerStaffStore")"#,
            // Through a to-one pivot: one address, through the member
            // declared above.
            #"static let addressThroughStore = hasOne(Address.self, through: managerStaffStore, using: Store.address, key: "addressThroughStore")"#,
        ])
        let staffThrough = try #require(report.associations.first { $0.table == "staff" && $0.through != nil })
        #expect(staffThrough.kind == "hasOneThrough")
        #expect(staffThrough.through == "store")
        #expect(declarations("store") == [
            "static let staffs = hasMany(Staff.self)",
            "static let addresses = hasMany(Address.self, through: staffs, using: Staff.address)",
            "static let address = belongsTo(Address.self)",
            "static let staff = belongsTo(Staff.self)",
        ])
        // Every `through:` names a member of its table.
        for association in report.associations where association.through != nil {
            let members = report.associations.filter { $0.table == association.table }
                .compactMap { $0.declaration.split(separator: " ").dropFirst(2).first.map(String.init) }
            let via = try #require(association.declaration.firstRange(of: "through: ").map {
                association.declaration[$0.upperBound...].prefix { $0 != "," }
            })
            #expect(members.contains(String(via)), "\(association.declaration)")
        }
    }

    @Test func twoKeysToLanguageAreAmbiguous() throws {
        let report = try inspect()
        #expect(report.ambiguities.map(\.advice) == [
            #"Ambiguous foreign key from film to language: use ForeignKey(["language_id"]) or ForeignKey(["original_language_id"])"#,
        ])
        let film = try #require(report.tables.first { $0.name == "film" })
        #expect(film.primaryKey == ["film_id"])
        #expect(film.columns.first { $0.name == "description" }?.type == "BLOB SUB_TYPE TEXT")
        #expect(film.columns.first { $0.name == "rental_rate" }?.defaultValue == "4.99")
        let text = ReportRenderer.text(report)
        #expect(text.contains("Foreign key: (store_id) -> store(store_id) ON UPDATE CASCADE\n"))
        #expect(text.contains("Index idx_unique_manager: (manager_staff_id) unique\n"))
        let json = try JSONSerialization.jsonObject(with: Data(try ReportRenderer.json(report).utf8)) as? [String: Any]
        let kinds = (json?["associations"] as? [[String: Any]])?.compactMap { $0["kind"] as? String } ?? []
        #expect(kinds.filter { $0 == "hasOneThrough" }.count == 1)
    }

    @Test func keysThatSQLiteDoesNotNumberAreSaid() throws {
        let report = try inspect()
        let text = ReportRenderer.text(report)
        #expect(text.contains("Primary key: film_id (not an alias of the rowid: inserts must give it)\n"))
        #expect(text.contains("Primary key: staff_id (not an alias of the rowid: inserts must give it)\n"))
        #expect(report.tables.allSatisfy { $0.rowIDColumn == nil })

        let path = FileManager.default.temporaryDirectory.appendingPathComponent("inspect-keys-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try InspectedDatabase.write("""
            CREATE TABLE actor (actor_id numeric NOT NULL, name TEXT, PRIMARY KEY (actor_id));
            CREATE TABLE ranked (id INTEGER PRIMARY KEY DESC, name TEXT);
            CREATE TABLE plain (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE session (id varchar(40) PRIMARY KEY, payload TEXT);
            CREATE TABLE setting (id INT PRIMARY KEY, value) WITHOUT ROWID;
            CREATE TABLE untyped (id PRIMARY KEY, value);
            """, at: path)
        let keys = try SchemaInspector.inspect(path: path)
        let lines = ReportRenderer.text(keys).split(separator: "\n").filter { $0.hasPrefix("Primary key:") }
        // In the order of the tables: actor, plain, ranked, session,
        // setting, untyped.
        #expect(lines == [
            "Primary key: actor_id (not an alias of the rowid: inserts must give it)",
            "Primary key: id",
            "Primary key: id (not an alias of the rowid: inserts must give it)",
            "Primary key: id",
            "Primary key: id",
            "Primary key: id",
        ])
        #expect(keys.tables.map(\.rowIDColumn) == [nil, "id", nil, nil, nil, nil])
        let json = try JSONSerialization.jsonObject(with: Data(try ReportRenderer.json(keys).utf8)) as? [String: Any]
        let tables = json?["tables"] as? [[String: Any]] ?? []
        #expect(tables.first { $0["name"] as? String == "plain" }?["rowIDColumn"] as? String == "id")
    }
}

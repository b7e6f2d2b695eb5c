import Foundation
import PropertyBased
import Testing
import Trellis

/// Names of tables, columns, indexes and aliases drawn from the whole of
/// Unicode, with the characters SQL gives a meaning to, go through the
/// schema DSL and the query interface unchanged: each is quoted, never
/// read as SQL.
@Suite struct QuotedNamePropertyTests {
    /// Characters that end, escape or split an identifier somewhere: SQL's
    /// quotes and brackets, separators, a quote that a combining accent
    /// joins into one `Character`, letters whose case Unicode folds.
    static let specialCharacters: [String] = [
        "\"", "'", "`", "[", "]", " ", ";", "-", "(", ")", ",", ".", "\\", "?", ":", "@", "$", "*", "/", "\t", "\n",
        "\"\u{301}", "e\u{301}", "é", "É", "İ", "ß", "Σ", "ς", "😀", "👨‍👩‍👧", "\u{200B}", "\u{FEFF}", "\u{7F}",
    ]

    /// A name from random numbers: each one picks an ASCII letter, a
    /// special character, or any Unicode scalar but NUL.
    static func name(from numbers: [Int]) -> String {
        var name = ""
        for number in numbers {
            switch number % 3 {
            case 0:
                name.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "a") + UInt8(number / 3 % 26)))
            case 1:
                name += specialCharacters[number / 3 % specialCharacters.count]
            default:
                let scalar = Unicode.Scalar(UInt32(number / 3 % 0x10FFFF) + 1) ?? "?"
                name.unicodeScalars.append(scalar)
            }
        }
        return name
    }

    /// A name as SQLite compares names: ASCII letters fold, nothing else.
    static func sqliteFolded(_ name: String) -> [UInt8] {
        name.utf8.map { (0x41...0x5A).contains($0) ? $0 + 32 : $0 }
    }

    /// Whether SQLite tells the names apart, and none is reserved
    /// (`sqlite_...`) nor the `rowid` that a table without a primary key
    /// would answer to.
    static func areDistinctAndFree(_ names: [String]) -> Bool {
        let folded = names.map(sqliteFolded)
        return Set(folded).count == names.count && folded.allSatisfy { name in
            !name.starts(with: Array("sqlite_".utf8)) && name != Array("rowid".utf8)
        }
    }

    /// Found by the property below: `"\u{301}` is one Swift `Character`,
    /// not equal to `"`, and quoting compared characters, so the quote was
    /// not doubled and ended the name (or the string literal) early.
    @Test func aQuoteThatACombiningMarkFollowsIsDoubled() throws {
        let name = "a\"\u{301}); DROP TABLE t; --"
        #expect(name.quotedDatabaseIdentifier == "\"a\"\"\u{301}); DROP TABLE t; --\"")
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "t") { t in
                t.column(name, .text).defaults(to: "it'\u{301}s")
            }
            try db.execute(sql: "INSERT INTO t DEFAULT VALUES")
            #expect(try db.columns(in: "t").map(\.name) == [name])
            #expect(try String.fetchOne(db, Table("t").select(Column(name))) == "it'\u{301}s")
        }
    }

    @Test func namesRoundTripThroughTheSchemaDSLAndTheQueryInterface() async throws {
        let names = Gen.int(in: 0...Int(Int32.max)).array(of: 1...8).map(Self.name(from:)).array(of: 7...7)
            .filter(Self.areDistinctAndFree)
        await propertyCheck(count: 300, input: names) { names in
            let (table, id, text, number, added, index, alias) = (names[0], names[1], names[2], names[3], names[4], names[5], names[6])
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.write { db in
                    try db.create(table: table) { t in
                        t.autoIncrementedPrimaryKey(id)
                        t.column(text, .text).notNull().unique()
                        t.column(number, .integer).defaults(to: 0)
                    }
                    try db.create(index: index, on: table, columns: [number, text])
                    try db.alter(table: table) { t in t.add(column: added, .text) }
                    #expect(try db.tableExists(table))
                    #expect(try db.columns(in: table).map(\.name) == [id, text, number, added])
                    #expect(try db.indexes(on: table).map(\.name).contains(index))
                    #expect(try db.primaryKey(table).columns == [id])

                    try db.execute(
                        sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(text.quotedDatabaseIdentifier), \(added.quotedDatabaseIdentifier)) VALUES (?, ?)",
                        arguments: ["first", "extra"])
                    let request = Table(table)
                        .select(Column(text).forKey(alias), Column(added))
                        .filter(Column(number) == 0)
                        .order(Column(id))
                    let rows = try Row.fetchAll(db, request)
                    #expect(rows.count == 1)
                    #expect(rows.first?.columnNames.map { $0 } == [alias, added])
                    #expect(try rows.first?.decode(String.self, forColumn: alias) == "first")
                    #expect(try rows.first?.decode(String.self, forColumn: added) == "extra")
                    #expect(try Table(table).filter(Column(text) == "first").updateAll(db, Column(number).set(to: 7)) == 1)
                    #expect(try Int.fetchOne(db, Table(table).select(max(Column(number)).forKey(alias))) == 7)
                    #expect(try Table(table).filter(key: 1).fetchCount(db) == 1)
                    #expect(try Table(table).deleteAll(db) == 1)
                    try db.drop(index: index)
                    try db.drop(table: table)
                    #expect(try !db.tableExists(table))
                }
            } catch {
                Issue.record("\(names.map { String(reflecting: $0) }): \(error)")
            }
        }
    }

    /// SQLite reads SQL up to its first NUL: a name that holds one can not
    /// be written in SQL, and each use of it throws instead of running a
    /// truncated statement.
    @Test func namesWithNULThrowAndChangeNothing() async throws {
        let names = Gen.int(in: 0...Int(Int32.max)).array(of: 1...8).map(Self.name(from:)).array(of: 2...2)
            .filter(Self.areDistinctAndFree)
        await propertyCheck(count: 100, input: names, Gen.int(in: 0...8)) { names, position in
            var name = names[0]
            let offset = min(position, name.unicodeScalars.count)
            name.unicodeScalars.insert("\0", at: name.unicodeScalars.index(name.unicodeScalars.startIndex, offsetBy: offset))
            let other = names[1]
            do {
                let dbQueue = try DatabaseQueue()
                try dbQueue.write { db in
                    try db.create(table: other) { t in t.column("x") }
                }
                let attempts: [(String, (Database) throws -> Void)] = [
                    ("create table", { db in try db.create(table: name) { t in t.column("x") } }),
                    ("create column", { db in try db.create(table: "t") { t in t.column(name) } }),
                    ("add column", { db in try db.alter(table: other) { t in t.add(column: name, .text) } }),
                    ("create index", { db in try db.create(index: name, on: other, columns: ["x"]) }),
                    ("index column", { db in try db.create(index: "i", on: other, columns: [name]) }),
                    ("select column", { db in _ = try Row.fetchAll(db, Table(other).select(Column(name))) }),
                    ("alias", { db in _ = try Row.fetchAll(db, Table(other).select(Column("x").forKey(name))) }),
                    ("count table", { db in _ = try Table(name).fetchCount(db) }),
                ]
                for (label, attempt) in attempts {
                    let error = try #require(throws: DatabaseError.self, "\(label)") {
                        try dbQueue.writeWithoutTransaction { db in try attempt(db) }
                    }
                    #expect(error.message?.contains("NUL") == true, "\(label): \(error)")
                }
                #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master") } == [other])
                #expect(try dbQueue.read { db in try db.columns(in: other).map(\.name) } == ["x"])
            } catch {
                Issue.record("\(String(reflecting: name)): \(error)")
            }
        }
    }
}

import Foundation
import Testing
import Trellis
import TrellisSQLite

// GRDB documented claims: samples and documented claims from GRDB 7.10.0's
// README.md (Values, Custom SQL Functions, Raw pointers, Persistence
// callbacks, Identifiable, Codable, Record comparison, Conflict resolution,
// Error handling, Unicode, Memory, FAQ) and the docc articles Statement,
// DatabaseValueConvertible, Configuration, RecordTimestamps, ViewRecords,
// SingleRowTables and JSON.

// MARK: - Shared helpers

private final class AuditLog: @unchecked Sendable {
    private let lock = NSLock()
    private var _items: [String] = []
    func append(_ s: String) { lock.lock(); _items.append(s); lock.unlock() }
    var items: [String] { lock.lock(); defer { lock.unlock() }; return _items }
    func clear() { lock.lock(); _items.removeAll(); lock.unlock() }
}

private func utc(_ s: String) -> Date {
    let f = DateFormatter()
    f.locale = Locale(identifier: "en_US_POSIX")
    f.timeZone = TimeZone(identifier: "UTC")
    f.dateFormat = "yyyy-MM-dd HH:mm:ss.SSS"
    return f.date(from: s)!
}

// MARK: - Values

private enum AuditGrape: String, DatabaseValueConvertible {
    case chardonnay, merlot, riesling
}

private enum AuditColor: Int, DatabaseValueConvertible {
    case red, white, rose
}

@Suite("GRDB documented claims: Values")
struct GRDBDocumentedClaimsValuesTests {
    @Test func urlIsStoredAsTextAndInvalidURLDoesNotDecode() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE link(url TEXT, verified BOOLEAN)")
            let url = URL(string: "https://example.com/a?b=c")!
            try db.execute(sql: "INSERT INTO link (url, verified) VALUES (?, ?)", arguments: [url, true])
            #expect(try String.fetchOne(db, sql: "SELECT typeof(url) || ':' || url || ':' || typeof(verified) || verified FROM link")
                    == "text:https://example.com/a?b=c:integer1")
            #expect(try URL.fetchAll(db, sql: "SELECT url FROM link") == [url])
        }
        // README Fatal Errors: `fatal error: could not convert "" to URL.`
        #expect(URL.fromDatabaseValue("".databaseValue) == nil)
        // fatal error: could not convert "Mom’s birthday" to Date.
        #expect(Date.fromDatabaseValue("Mom’s birthday".databaseValue) == nil)
    }

    @Test func nsNullAndNSStringAreValues() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [NSNull()]) == "null")
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [NSString(string: "foo")]) == "foo")
            #expect(try NSString.fetchOne(db, sql: "SELECT 'bar'") == "bar")
            #expect(NSNull().databaseValue.isNull)
        }
    }

    @Test func cgFloatIsAValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try CGFloat.fetchOne(db, sql: "SELECT 1.5") == CGFloat(1.5))
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [CGFloat(2.5)]) == "real")
        }
    }

    @Test func floatAndUnsignedIntegers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Float.fetchOne(db, sql: "SELECT 0.5") == 0.5)
            #expect(try UInt8.fetchOne(db, sql: "SELECT 255") == 255)
            #expect(try UInt32.fetchOne(db, sql: "SELECT ?", arguments: [UInt32.max]) == UInt32.max)
            #expect(try Int16.fetchOne(db, sql: "SELECT -3") == -3)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?) || typeof(?)", arguments: [Float(1.5), UInt16(3)]) == "realinteger")
        }
    }

    @Test func datesBefore1970AreStoredInTheDocumentedFormat() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let date = Date(timeIntervalSince1970: -1.5)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [date]) == "1969-12-31 23:59:58.500")
            #expect(try Date.fetchOne(db, sql: "SELECT ?", arguments: [date]) == date)
            let old = try #require(try Date.fetchOne(db, sql: "SELECT '0001-01-01'"))
            // Same instant as SQLite's own interpretation of the text.
            #expect(try Double.fetchOne(db, sql: "SELECT unixepoch('0001-01-01')") == old.timeIntervalSince1970)
            #expect(try String.fetchOne(db, sql: "SELECT ?", arguments: [old]) == "0001-01-01 00:00:00.000")
        }
    }

    @Test func dateReadFormatsWithTimeZonesAndMilliseconds() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let base = utc("2015-09-11 18:14:15.123")
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11T18:14:15.123Z'").map { abs($0.timeIntervalSince(base)) < 0.0005 } == true)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11T20:14:15.123+02:00'").map { abs($0.timeIntervalSince(base)) < 0.0005 } == true)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11 13:14:15.123-05:00'").map { abs($0.timeIntervalSince(base)) < 0.0005 } == true)
            #expect(try Date.fetchOne(db, sql: "SELECT '2015-09-11 18:44:15.123+00:30'").map { abs($0.timeIntervalSince(base)) < 0.0005 } == true)
            // Dates stored by GRDB are comparable with ORDER BY.
            #expect(try Date.fetchOne(db, sql: "SELECT 0") == Date(timeIntervalSince1970: 0))
        }
    }

    @Test func databaseDateComponentsReadFormats() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            func read(_ s: String) throws -> DatabaseDateComponents? {
                try DatabaseDateComponents.fetchOne(db, sql: "SELECT ?", arguments: [s])
            }
            let a = try #require(try read("2015-09-11 18:14"))
            #expect(a.format == .YMD_HM)
            #expect(a.dateComponents.minute == 14)
            #expect(a.dateComponents.second == nil)
            let b = try #require(try read("2015-09-11T18:14:15"))
            #expect(b.format == .YMD_HMS)
            #expect(b.dateComponents.second == 15)
            let c = try #require(try read("2015-09-11 18:14:15.123"))
            #expect(c.format == .YMD_HMSS)
            #expect(c.dateComponents.nanosecond == 123_000_000)
            let d = try #require(try read("18:14"))
            #expect(d.format == .HM)
            #expect(d.dateComponents.year == nil)
            let e = try #require(try read("18:14:15.123"))
            #expect(e.format == .HMSS)
            // ² This format may be optionally followed by a timezone indicator
            let f = try #require(try read("2015-09-11 18:14:15+01:00"))
            #expect(f.format == .YMD_HMS)
            #expect(f.dateComponents.timeZone == TimeZone(secondsFromGMT: 3600))
            let g = try #require(try read("2015-09-11T18:14Z"))
            #expect(g.dateComponents.timeZone == TimeZone(secondsFromGMT: 0))
            // `now` and timestamps are not supported by DateComponents.
            #expect(DatabaseDateComponents.fromDatabaseValue("now".databaseValue) == nil)
            #expect(throws: (any Error).self) { try read("now") }
            #expect(DatabaseDateComponents.fromDatabaseValue(1_441_995_255.databaseValue) == nil)
        }
    }

    @Test func databaseDateComponentsWriteFormats() throws {
        var c = DateComponents()
        c.year = 1973; c.month = 9; c.day = 18
        c.hour = 10; c.minute = 5; c.second = 7; c.nanosecond = 123_000_000
        func text(_ f: DatabaseDateComponents.Format) -> String? {
            String.fromDatabaseValue(DatabaseDateComponents(c, format: f).databaseValue)
        }
        #expect(text(.YMD) == "1973-09-18")
        #expect(text(.YMD_HM) == "1973-09-18 10:05")
        #expect(text(.YMD_HMS) == "1973-09-18 10:05:07")
        #expect(text(.YMD_HMSS) == "1973-09-18 10:05:07.123")
        #expect(text(.HM) == "10:05")
        #expect(text(.HMS) == "10:05:07")
        #expect(text(.HMSS) == "10:05:07.123")
    }

    @Test func decimalAndNSNumberEdgeCases() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try Decimal.fetchOne(db, sql: "SELECT 9223372036854775807") == Decimal(string: "9223372036854775807"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT 1.5") == Decimal(string: "1.5"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT '12.345'") == Decimal(string: "12.345"))
            let n = try #require(try NSNumber.fetchOne(db, sql: "SELECT 1.5"))
            #expect(n.doubleValue == 1.5)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(?)", arguments: [Decimal(string: "-0.5")!]) == "text")
        }
    }

    @Test func uuidDecodingEdgeCases() throws {
        // "decodes them from both 16-bytes data blobs and strings"
        #expect(UUID.fromDatabaseValue(Data(repeating: 1, count: 15).databaseValue) == nil)
        #expect(UUID.fromDatabaseValue("not a uuid".databaseValue) == nil)
        let uuid = UUID()
        #expect(UUID.fromDatabaseValue(uuid.databaseValue) == uuid)
        #expect(Data.fromDatabaseValue(uuid.databaseValue) == withUnsafeBytes(of: uuid.uuid) { Data($0) })
    }

    @Test func enumsFromUnknownValuesWithDatabaseValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT 'syrah', NULL, 7, 2"))
            let dbValue: DatabaseValue = row[0]
            #expect(!dbValue.isNull && AuditGrape.fromDatabaseValue(dbValue) == nil)
            #expect((row[1] as DatabaseValue).isNull)
            #expect(AuditColor.fromDatabaseValue(row[2]) == nil)
            #expect(row[3] as AuditColor == .rose)
            #expect(row[1] as AuditColor? == nil)
        }
    }
}

// MARK: - Custom SQL functions and aggregates

private struct AuditSum: DatabaseAggregate {
    var sum = 0
    mutating func step(_ dbValues: [DatabaseValue]) throws {
        for v in dbValues {
            guard let i = Int.fromDatabaseValue(v) else {
                throw DatabaseError(message: "not an integer")
            }
            sum += i
        }
    }
    func finalize() throws -> DatabaseValueConvertible? { sum }
}

private struct AuditFnPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
    }
    var id: Int64
    var name: String
}

@Suite("GRDB documented claims: Custom SQL functions")
struct GRDBDocumentedClaimsFunctionsTests {
    @Test func functionsReturnAnyValue() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let d = Date(timeIntervalSince1970: 0)
            db.add(function: DatabaseFunction("fDate", argumentCount: 0, pure: true) { _ in d })
            db.add(function: DatabaseFunction("fBool", argumentCount: 0) { _ in true })
            db.add(function: DatabaseFunction("fGrape", argumentCount: 0) { _ in AuditGrape.merlot })
            db.add(function: DatabaseFunction("fData", argumentCount: 0) { _ in Data([1, 2]) })
            #expect(try String.fetchOne(db, sql: "SELECT fDate()") == "1970-01-01 00:00:00.000")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(fBool()) || fBool()") == "integer1")
            #expect(try String.fetchOne(db, sql: "SELECT fGrape()") == "merlot")
            #expect(try String.fetchOne(db, sql: "SELECT typeof(fData()) || length(fData())") == "blob2")
        }
    }

    @Test func argumentCountIsEnforcedBySQLite() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let reverse = DatabaseFunction("reverse", argumentCount: 1, pure: true) { (values: [DatabaseValue]) in
                String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
            }
            db.add(function: reverse)
            let error = #expect(throws: DatabaseError.self) {
                try String.fetchOne(db, sql: "SELECT reverse('a', 'b')")
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message?.contains("wrong number of arguments") == true)
        }
    }

    @Test func removedFunctionsAreNoLongerAvailable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let f = DatabaseFunction("fortyTwo", argumentCount: 0) { _ in 42 }
            db.add(function: f)
            #expect(try Int.fetchOne(db, sql: "SELECT fortyTwo()") == 42)
            db.remove(function: f)
            #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT fortyTwo()") }
        }
    }

    @Test func aggregatesWithVariableArgumentsAndErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("auditSum", aggregate: AuditSum.self))
            try db.execute(sql: "CREATE TABLE t(a, b); INSERT INTO t VALUES (1, 2), (3, 4)")
            #expect(try Int.fetchOne(db, sql: "SELECT auditSum(a, b) FROM t") == 10)
            #expect(try Int.fetchOne(db, sql: "SELECT auditSum(a) FROM t") == 4)
            try db.execute(sql: "INSERT INTO t VALUES ('x', 0)")
            let error = #expect(throws: DatabaseError.self) {
                try Int.fetchOne(db, sql: "SELECT auditSum(a) FROM t")
            }
            #expect(error?.message == "not an integer")
        }
    }

    @Test func aggregateInTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            let total = DatabaseFunction("auditTotal", argumentCount: 1, pure: true, aggregate: AuditSum.self)
            db.add(function: total)
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            try AuditFnPlayer(id: 3, name: "a").insert(db)
            try AuditFnPlayer(id: 4, name: "b").insert(db)
            let request = AuditFnPlayer.select { total($0.id) }
            #expect(try Int.fetchOne(db, request) == 7)
        }
    }

    @Test func functionThrowingNonDatabaseError() throws {
        struct Oops: Error, CustomStringConvertible { var description: String { "oops" } }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("boom", argumentCount: 0) { _ in throw Oops() })
            let error = #expect(throws: DatabaseError.self) { try Int.fetchOne(db, sql: "SELECT boom()") }
            #expect(error?.resultCode == .SQLITE_ERROR)
        }
    }
}

// MARK: - Raw SQLite pointers

@Suite("GRDB documented claims: Raw SQLite pointers")
struct GRDBDocumentedClaimsRawPointersTests {
    @Test func rawPointers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)")
            let sqliteConnection = try #require(db.sqliteConnection)
            #expect(sqlite3_changes(sqliteConnection) == 1)
            let statement = try db.makeStatement(sql: "SELECT a, 'x' AS b FROM t")
            let sqliteStatement = statement.sqliteStatement
            #expect(sqlite3_column_count(sqliteStatement) == 2)
            #expect(String(cString: sqlite3_column_name(sqliteStatement, 1)) == "b")
            let version = String(cString: sqlite3_libversion())
            #expect(try String.fetchOne(db, sql: "SELECT sqlite_version()") == version)
        }
    }
}

// MARK: - Persistence callbacks

private let callbackLog = AuditLog()

private struct CbPlayer: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    var id: Int64?
    var name: String

    func willSave(_ db: Database) throws { callbackLog.append("willSave") }
    func aroundSave(_ db: Database, save: () throws -> PersistenceSuccess) throws {
        callbackLog.append("aroundSave>")
        _ = try save()
        callbackLog.append("aroundSave<")
    }
    func didSave(_ saved: PersistenceSuccess) { callbackLog.append("didSave") }
    mutating func willInsert(_ db: Database) throws { callbackLog.append("willInsert") }
    func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
        callbackLog.append("aroundInsert>")
        _ = try insert()
        callbackLog.append("aroundInsert<")
    }
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
        callbackLog.append("didInsert")
    }
    func willUpdate(_ db: Database, columns: Set<String>) throws { callbackLog.append("willUpdate") }
    func aroundUpdate(_ db: Database, columns: Set<String>, update: () throws -> PersistenceSuccess) throws {
        callbackLog.append("aroundUpdate>")
        _ = try update()
        callbackLog.append("aroundUpdate<")
    }
    func didUpdate(_ updated: PersistenceSuccess) { callbackLog.append("didUpdate") }
    func willDelete(_ db: Database) throws { callbackLog.append("willDelete") }
    func aroundDelete(_ db: Database, delete: () throws -> Bool) throws {
        callbackLog.append("aroundDelete>")
        _ = try delete()
        callbackLog.append("aroundDelete<")
    }
    func didDelete(deleted: Bool) { callbackLog.append("didDelete(\(deleted))") }
}

private struct ValidationError: Error, Equatable {
    var message: String
    init(_ message: String) { self.message = message }
}

private struct AuditLink: Codable, PersistableRecord, FetchableRecord {
    static let databaseTableName = "link"
    var id: Int64
    var url: URL

    func willSave(_ db: Database) throws {
        if url.host == nil {
            throw ValidationError("url must be absolute.")
        }
    }
}

private let pictureLog = AuditLog()

private struct PictureFile: Codable, PersistableRecord {
    var path: String
    func willDelete(_ db: Database) {
        db.afterNextTransaction { _ in
            pictureLog.append("commit \(path)")
        } onRollback: { _ in
            pictureLog.append("rollback \(path)")
        }
    }
}

@Suite("GRDB documented claims: Persistence callbacks", .serialized)
struct GRDBDocumentedClaimsCallbacksTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
        }
        return dbQueue
    }

    @Test func callbacksAreCalledInTheDocumentedOrder() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            callbackLog.clear()
            var player = CbPlayer(id: nil, name: "Arthur")
            try player.insert(db)
            #expect(player.id != nil)
            #expect(callbackLog.items == ["willSave", "aroundSave>", "willInsert", "aroundInsert>", "aroundInsert<", "didInsert", "aroundSave<", "didSave"])

            callbackLog.clear()
            try player.update(db)
            #expect(callbackLog.items == ["willSave", "aroundSave>", "willUpdate", "aroundUpdate>", "aroundUpdate<", "didUpdate", "aroundSave<", "didSave"])

            callbackLog.clear()
            #expect(try player.delete(db))
            #expect(callbackLog.items == ["willDelete", "aroundDelete>", "aroundDelete<", "didDelete(true)"])

            callbackLog.clear()
            #expect(try player.delete(db) == false)
            #expect(callbackLog.items == ["willDelete", "aroundDelete>", "aroundDelete<", "didDelete(false)"])
        }
    }

    @Test func saveWithoutPrimaryKeyOnlyInserts() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            callbackLog.clear()
            var player = CbPlayer(id: nil, name: "Arthur")
            try player.save(db)
            #expect(!callbackLog.items.contains("willUpdate"))
            #expect(callbackLog.items.filter { $0 == "willSave" }.count == 1)
            #expect(callbackLog.items.contains("didInsert"))
        }
    }

    @Test func callbacksAreNotInvokedByTypeMethodsAndBatchOperations() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            var player = CbPlayer(id: nil, name: "Arthur")
            try player.insert(db)
            var player2 = CbPlayer(id: nil, name: "Barbara")
            try player2.insert(db)
            callbackLog.clear()
            try CbPlayer.filter(Column("id") == player.id).updateAll(db, Column("name").set(to: "Art"))
            #expect(try CbPlayer.deleteOne(db, key: player.id))
            #expect(try CbPlayer.deleteAll(db) == 1)
            try db.execute(sql: "INSERT INTO player (name) VALUES ('x')")
            #expect(callbackLog.items == [])
        }
    }

    @Test func validationInWillSave() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "link") { t in
                t.primaryKey("id", .integer)
                t.column("url", .text)
            }
            let link = AuditLink(id: 1, url: URL(string: "relative/path")!)
            #expect(throws: ValidationError("url must be absolute.")) { try link.insert(db) }
            #expect(throws: ValidationError("url must be absolute.")) { try link.save(db) }
            #expect(throws: ValidationError("url must be absolute.")) { try link.upsert(db) }
            #expect(try AuditLink.fetchCount(db) == 0)
            try db.execute(sql: "INSERT INTO link VALUES (1, 'https://example.com')")
            #expect(throws: ValidationError("url must be absolute.")) { try link.update(db) }
            #expect(try String.fetchOne(db, sql: "SELECT url FROM link") == "https://example.com")
        }
    }

    @Test func afterNextTransactionFromWillDelete() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "pictureFile") { t in t.primaryKey("path", .text) }
            try PictureFile(path: "a").insert(db)
            try PictureFile(path: "b").insert(db)
        }
        pictureLog.clear()
        try dbQueue.write { db throws in
            _ = try PictureFile(path: "a").delete(db)
            #expect(pictureLog.items == [])
        }
        #expect(pictureLog.items == ["commit a"])
        pictureLog.clear()
        try dbQueue.inTransaction { db throws in
            _ = try PictureFile(path: "b").delete(db)
            return .rollback
        }
        #expect(pictureLog.items == ["rollback b"])
    }
}

// MARK: - Identifiable records

private struct IdPlayer: Codable, Identifiable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
    var email: String
}

private struct AuditCountry: Codable, Identifiable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "country"
    var isoCode: String
    var name: String
    var population: Int
    var id: String { isoCode }
}

private struct KeyCountry: Codable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "country"
    var isoCode: String
    var name: String
    var population: Int
}

private struct Citizenship: Codable, FetchableRecord, PersistableRecord {
    var citizenId: Int64
    var countryCode: String
}

@Suite("GRDB documented claims: Identifiable records")
struct GRDBDocumentedClaimsIdentifiableTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("email", .text).notNull().unique()
            }
            try db.create(table: "country") { t in
                t.primaryKey("isoCode", .text)
                t.column("name", .text).notNull()
                t.column("population", .integer).notNull()
            }
            try db.create(table: "citizenship") { t in
                t.column("citizenId", .integer).notNull()
                t.column("countryCode", .text).notNull()
                t.primaryKey(["citizenId", "countryCode"])
            }
            for i in 1...4 {
                try IdPlayer(id: Int64(i), name: "P\(i)", email: "p\(i)@example.com").insert(db)
            }
            try AuditCountry(isoCode: "FR", name: "France", population: 67).insert(db)
            try AuditCountry(isoCode: "US", name: "USA", population: 330).insert(db)
            try AuditCountry(isoCode: "DE", name: "Germany", population: 83).insert(db)
            try Citizenship(citizenId: 1, countryCode: "FR").insert(db)
        }
        return dbQueue
    }

    @Test func typeSafeIdMethods() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            #expect(try IdPlayer.find(db, id: 1).name == "P1")
            #expect(try IdPlayer.fetchOne(db, id: 5) == nil)
            #expect(try IdPlayer.fetchAll(db, ids: [3, 1, 9]).map(\.id).sorted() == [1, 3])
            #expect(try IdPlayer.fetchSet(db, ids: [1, 2]).map(\.id).sorted() == [1, 2])
            #expect(try IdPlayer.filter(id: 2).fetchCount(db) == 1)
            #expect(try IdPlayer.filter(ids: []).fetchCount(db) == 0)
            #expect(try IdPlayer.deleteOne(db, id: 1))
            #expect(try IdPlayer.deleteOne(db, id: 1) == false)
            #expect(try IdPlayer.deleteAll(db, ids: [2, 3, 42]) == 2)
            #expect(try IdPlayer.fetchCount(db) == 1)
        }
    }

    @Test func findThrowsRecordNotFoundWithTableAndKey() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            var caught: (String, [String: DatabaseValue])?
            do {
                _ = try IdPlayer.find(db, id: 42)
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                caught = (table, key)
            }
            #expect(caught?.0 == "player")
            #expect(caught?.1 == ["id": 42.databaseValue])
        }
    }

    @Test func identifiableWithPrimaryKeyNotNamedId() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let france = try AuditCountry.fetchOne(db, id: "FR")
            #expect(france?.name == "France")
            #expect(try AuditCountry.fetchAll(db, ids: ["US", "DE"]).map(\.isoCode).sorted() == ["DE", "US"])
            #expect(try AuditCountry.filter(id: "US").fetchOne(db)?.name == "USA")
            #expect(try AuditCountry.find(db, id: "DE").population == 83)
            #expect(throws: RecordError.self) { try AuditCountry.find(db, id: "XX") }
            #expect(try AuditCountry.deleteOne(db, id: "FR"))
            #expect(try AuditCountry.fetchCount(db) == 2)
        }
    }

    @Test func keyMethodsOnNonIdentifiableTypes() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            #expect(try IdPlayer.fetchOne(db, key: 1)?.name == "P1")
            #expect(try IdPlayer.fetchOne(db, key: ["email": "p2@example.com"])?.id == 2)
            #expect(try KeyCountry.fetchAll(db, keys: ["FR", "US"]).map(\.isoCode).sorted() == ["FR", "US"])
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "FR"]) != nil)
            #expect(try Citizenship.fetchOne(db, key: ["citizenId": 1, "countryCode": "US"]) == nil)
            #expect(try IdPlayer.filter(key: 1).fetchCount(db) == 1)
            #expect(try IdPlayer.filter(keys: [1, 2, 3]).fetchCount(db) == 3)
            #expect(try IdPlayer.deleteOne(db, key: ["email": "p4@example.com"]))
            #expect(try IdPlayer.deleteOne(db, key: 1))
            #expect(try IdPlayer.deleteAll(db, keys: [2, 3]) == 2)
            #expect(try IdPlayer.fetchCount(db) == 0)
        }
    }
}

// MARK: - Codable records

private enum AchievementColor: String, Codable {
    case bronze, silver, gold
}

private struct Achievement: Codable, Equatable {
    var name: String
    var color: AchievementColor
}

private struct JSONPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var name: String
    var score: Int
    var achievements: [Achievement]
}

private struct Stamp: Codable, Equatable {
    var date: Date
    var data: Data
    var ratio: Double
}

private struct StampRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "stamp"
    var id: Int64
    var stamp: Stamp
}

private struct SnakeJSONRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "snake"
    struct Info: Codable, Equatable { var firstName: String }
    var id: Int64
    var info: Info
    var other: Info

    static func databaseJSONEncoder(for column: String) -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        if column == "info" { encoder.keyEncodingStrategy = .convertToSnakeCase }
        return encoder
    }
    static func databaseJSONDecoder(for column: String) -> JSONDecoder {
        let decoder = JSONDecoder()
        if column == "info" { decoder.keyDecodingStrategy = .convertFromSnakeCase }
        return decoder
    }
}

private struct UUIDPlayer: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "player"
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
    }
    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }
    var id: UUID
    var name: String
}

private struct DateKeyed: Codable, FetchableRecord, PersistableRecord, Identifiable {
    static let databaseTableName = "event"
    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }
    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }
    var id: Date
    var name: String
}

private let auditContextKey = CodingUserInfoKey(rawValue: "auditContext")!
private let userInfoLog = AuditLog()

private struct UserInfoPlayer: FetchableRecord, PersistableRecord, Codable {
    static let databaseTableName = "player"
    var id: Int64
    var name: String

    enum CodingKeys: String, CodingKey { case id, name }
    init(id: Int64, name: String) { self.id = id; self.name = name }
    init(from decoder: Decoder) throws {
        userInfoLog.append("decode \(decoder.userInfo[auditContextKey] as? String ?? "unknown")")
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(Int64.self, forKey: .id)
        name = try c.decode(String.self, forKey: .name)
    }
    func encode(to encoder: Encoder) throws {
        userInfoLog.append("encode \(encoder.userInfo[auditContextKey] as? String ?? "unknown")")
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(id, forKey: .id)
        try c.encode(name, forKey: .name)
    }
    static var databaseDecodingUserInfo: [CodingUserInfoKey: Any] { [auditContextKey: "database row"] }
    static var databaseEncodingUserInfo: [CodingUserInfoKey: Any] { [auditContextKey: "database encoding"] }
}

@Suite("GRDB documented claims: Codable records")
struct GRDBDocumentedClaimsCodableTests {
    @Test func jsonColumnContentIsAsDocumented() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("score", .integer)
                t.column("achievements", .jsonText)
            }
            let achievement = Achievement(name: "Use Codable Records", color: .gold)
            try JSONPlayer(name: "Arthur", score: 100, achievements: [achievement]).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT achievements FROM player")
                    == #"[{"color":"gold","name":"Use Codable Records"}]"#)
            #expect(try JSONPlayer.fetchOne(db)?.achievements == [achievement])
        }
    }

    @Test func jsonColumnsUseBase64DataAndMillisecondDates() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "stamp") { t in
                t.primaryKey("id", .integer)
                t.column("stamp", .jsonText)
            }
            let stamp = Stamp(date: Date(timeIntervalSince1970: 1.5), data: Data([1, 2]), ratio: 0.25)
            try StampRecord(id: 1, stamp: stamp).insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT stamp FROM stamp") == #"{"data":"AQI=","date":1500,"ratio":0.25}"#)
            #expect(try StampRecord.fetchOne(db)?.stamp == stamp)
        }
    }

    @Test func nonConformingFloatsInJSONColumnsThrow() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "stamp") { t in
                t.primaryKey("id", .integer)
                t.column("stamp", .jsonText)
            }
            let stamp = Stamp(date: Date(), data: Data(), ratio: .nan)
            #expect(throws: (any Error).self) { try StampRecord(id: 1, stamp: stamp).insert(db) }
            #expect(try StampRecord.fetchCount(db) == 0)
        }
    }

    @Test func perColumnJSONEncoders() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "snake") { t in
                t.primaryKey("id", .integer)
                t.column("info", .jsonText)
                t.column("other", .jsonText)
            }
            let r = SnakeJSONRecord(id: 1, info: .init(firstName: "A"), other: .init(firstName: "B"))
            try r.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT info, other FROM snake"))
            #expect(row["info"] as String == #"{"first_name":"A"}"#)
            #expect(row["other"] as String == #"{"firstName":"B"}"#)
            let fetched = try #require(try SnakeJSONRecord.fetchOne(db))
            #expect(fetched.info == r.info && fetched.other == r.other)
        }
    }

    @Test func uuidStrategyAppliesToKeyRequestsOnly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text)
            }
            let uuid = UUID()
            try UUIDPlayer(id: uuid, name: "Arthur").insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT id FROM player") == uuid.uuidString)
            #expect(try UUIDPlayer.filter(id: uuid).fetchOne(db) != nil)
            #expect(try UUIDPlayer.filter { $0.id == uuid }.fetchOne(db) == nil)
            #expect(try UUIDPlayer.filter { $0.id == uuid.uuidString }.fetchOne(db) != nil)
            #expect(try UUIDPlayer.fetchOne(db, id: uuid) != nil)
            #expect(try UUIDPlayer.fetchAll(db, ids: [uuid]).count == 1)
            #expect(try UUIDPlayer.fetchOne(db, key: uuid) != nil)
            #expect(try UUIDPlayer.deleteAll(db, keys: [uuid]) == 1)
        }
    }

    @Test func dateStrategyAppliesToIdRequests() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "event") { t in
                t.primaryKey("id", .double)
                t.column("name", .text)
            }
            let date = Date(timeIntervalSince1970: 1000.5)
            try DateKeyed(id: date, name: "e").insert(db)
            #expect(try Double.fetchOne(db, sql: "SELECT id FROM event") == 1000.5)
            #expect(try DateKeyed.fetchOne(db, id: date)?.name == "e")
            #expect(try DateKeyed.filter(id: date).fetchCount(db) == 1)
            #expect(try DateKeyed.deleteOne(db, id: date))
        }
    }

    @Test func userInfoDictionaries() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
            }
            userInfoLog.clear()
            try UserInfoPlayer(id: 1, name: "A").insert(db)
            _ = try UserInfoPlayer.fetchOne(db)
            #expect(userInfoLog.items.contains("encode database encoding"))
            #expect(userInfoLog.items.contains("decode database row"))
            #expect(!userInfoLog.items.contains("decode unknown"))
            #expect(!userInfoLog.items.contains("encode unknown"))
        }
        let decoder = JSONDecoder()
        decoder.userInfo = [auditContextKey: "JSON"]
        userInfoLog.clear()
        _ = try decoder.decode(UserInfoPlayer.self, from: Data(#"{"id":1,"name":"A"}"#.utf8))
        #expect(userInfoLog.items == ["decode JSON"])
    }
}

// MARK: - Record comparison

private struct CmpPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
    var score: Int
}

@Suite("GRDB documented claims: Record comparison")
struct GRDBDocumentedClaimsComparisonTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer)
            }
        }
        return dbQueue
    }

    @Test func updateChangesWithoutChangesDoesNotHitTheDatabase() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            // No row at all: an UPDATE would throw recordNotFound.
            let old = CmpPlayer(id: 42, name: "Arthur", score: 10)
            let new = old
            #expect(try new.updateChanges(db, from: old) == false)
            var p = old
            #expect(try p.updateChanges(db) { $0.score = 10 } == false)
            // With a change, and no row: RecordError.
            var changed = old
            changed.score = 100
            #expect(throws: RecordError.self) { try changed.updateChanges(db, from: old) }
        }
    }

    @Test func updateChangesOnlyUpdatesChangedColumns() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            try CmpPlayer(id: 42, name: "Arthur", score: 10).insert(db)
            let old = try CmpPlayer.find(db, id: 42)
            try db.execute(sql: "UPDATE player SET name = 'Changed behind our back'")
            var new = old
            new.score = 100
            #expect(try new.updateChanges(db, from: old))
            #expect(try String.fetchOne(db, sql: "SELECT name || score FROM player") == "Changed behind our back100")
            var p = old
            #expect(try p.updateChanges(db) { $0.score = 200 })
            #expect(p.score == 200)
            #expect(try String.fetchOne(db, sql: "SELECT name || score FROM player") == "Changed behind our back200")
        }
    }

    @Test func databaseEqualsAndDatabaseChanges() throws {
        let oldPlayer = CmpPlayer(id: 1, name: "Arthur", score: 100)
        let newPlayer = CmpPlayer(id: 1, name: "Arthur", score: 1000)
        #expect(oldPlayer.databaseEquals(oldPlayer))
        #expect(!newPlayer.databaseEquals(oldPlayer))
        var lines: [String] = []
        for (column, oldValue) in try newPlayer.databaseChanges(from: oldPlayer) {
            lines.append("\(column) was \(oldValue)")
        }
        #expect(lines == ["score was 100"])
        #expect(try oldPlayer.databaseChanges(from: oldPlayer).isEmpty)
    }

    @Test func databaseChangesModifyAcceptsAThrowingClosure() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            var p = CmpPlayer(id: 1, name: "Arthur", score: 100)
            let changes = try p.databaseChanges(modify: {
                $0.score = try Int.fetchOne(db, sql: "SELECT 7")!
            })
            #expect(changes == ["score": 100.databaseValue])
            #expect(p.score == 7)
        }
    }
}

// MARK: - Conflict resolution

private struct ReplacePlayer: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .replace)
    var id: Int64?
    var email: String
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

private struct IgnorePlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .ignore, update: .abort)
    var id: Int64
    var email: String
}

@Suite("GRDB documented claims: Conflict resolution")
struct GRDBDocumentedClaimsConflictTests {
    @Test func uniqueOnConflictReplaceInTheTableDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique(onConflict: .replace)
            }
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            try db.execute(sql: "INSERT INTO player (email) VALUES (?)", arguments: ["arthur@example.com"])
            #expect(try Int.fetchAll(db, sql: "SELECT id FROM player") == [2])
            let sql = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'player'")
            #expect(sql?.contains("UNIQUE ON CONFLICT REPLACE") == true)
        }
    }

    @Test func persistenceConflictPolicyReplace() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique()
            }
            var a = ReplacePlayer(id: nil, email: "arthur@example.com")
            try a.insert(db)
            var b = ReplacePlayer(id: nil, email: "arthur@example.com")
            try b.insert(db)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM player") == [b.id!])
            var c = ReplacePlayer(id: nil, email: "c@example.com")
            try c.insert(db)
            c.email = "arthur@example.com"
            try c.update(db)
            #expect(try String.fetchAll(db, sql: "SELECT email FROM player") == ["arthur@example.com"])
        }
    }

    @Test func ignorePolicyIsDetectedWithInsertAndFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("email", .text).unique()
            }
            try IgnorePlayer(id: 1, email: "a@example.com").insert(db)
            try IgnorePlayer(id: 2, email: "a@example.com").insert(db) // ignored
            #expect(try IgnorePlayer.fetchCount(db) == 1)
            var notFound = false
            do {
                _ = try IgnorePlayer(id: 3, email: "a@example.com").insertAndFetch(db)
            } catch RecordError.recordNotFound {
                notFound = true
            }
            #expect(notFound)
            let inserted = try IgnorePlayer(id: 4, email: "b@example.com").insertAndFetch(db)
            #expect(inserted.id == 4)
            // Explicit conflict resolution overrides the policy
            #expect(throws: DatabaseError.self) {
                try IgnorePlayer(id: 5, email: "a@example.com").insert(db, onConflict: .abort)
            }
        }
    }
}

// MARK: - Prepared statements

private struct StmtPlayer: Codable, Hashable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var name: String
    var score: Int
}

@Suite("GRDB documented claims: Prepared statements")
struct GRDBDocumentedClaimsStatementTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player(name TEXT UNIQUE, score INT)")
        }
        return dbQueue
    }

    @Test func argumentsSetThroughThePropertyAndAtExecution() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let insertStatement = try db.makeStatement(sql: "INSERT INTO player (name, score) VALUES (:name, :score)")
            let selectStatement = try db.makeStatement(sql: "SELECT * FROM player WHERE name = ?")
            insertStatement.arguments = ["name": "Arthur", "score": 1000]
            selectStatement.arguments = ["Arthur"]
            try insertStatement.execute()
            #expect(try StmtPlayer.fetchSet(selectStatement) == [StmtPlayer(name: "Arthur", score: 1000)])
            #expect(try StmtPlayer.fetchAll(selectStatement).count == 1)
            try insertStatement.execute(arguments: ["name": "Barbara", "score": 10])
            #expect(try StmtPlayer.fetchOne(selectStatement, arguments: ["Barbara"])?.score == 10)
            // Arguments given at execution replace the statement arguments.
            #expect(selectStatement.arguments == ["Barbara"])
            #expect(try Row.fetchCursor(selectStatement).map { $0["score"] as Int }.next() == 10)
        }
    }

    @Test func trailingSemicolonIsASingleStatement() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db throws in
            let statement = try db.makeStatement(sql: "SELECT 1;  \n")
            #expect(try Int.fetchOne(statement) == 1)
            let error = #expect(throws: DatabaseError.self) { try db.makeStatement(sql: "SELECT 1; SELECT 2") }
            #expect(error?.resultCode == .SQLITE_MISUSE)
            let error2 = #expect(throws: DatabaseError.self) { try db.makeStatement(literal: "SELECT \(1); SELECT 2") }
            #expect(error2?.resultCode == .SQLITE_MISUSE)
        }
    }

    @Test func cachedStatementIsReloadedAfterAnError() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let sql = "INSERT INTO player (name, score) VALUES (?, ?)"
            try db.cachedStatement(sql: sql).execute(arguments: ["Arthur", 1])
            #expect(throws: DatabaseError.self) {
                try db.cachedStatement(sql: sql).execute(arguments: ["Arthur", 2])
            }
            try db.cachedStatement(sql: sql).execute(arguments: ["Barbara", 3])
            let statement = try db.cachedStatement(literal: "SELECT score FROM player WHERE name = \("Barbara")")
            #expect(try Int.fetchOne(statement) == 3)
            #expect(try StmtPlayer.fetchCount(db) == 2)
        }
    }

    @Test func allStatementsLiteralForEachAndEmptySQL() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let statements = try db.allStatements(literal: """
                INSERT INTO player (name, score) VALUES (\("Arthur"), \(100));
                INSERT INTO player (name, score) VALUES (\("O'Brien"), \(1000));
                """)
            try statements.forEach { statement in
                try statement.execute()
            }
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY score") == ["Arthur", "O'Brien"])
            let empty = try db.allStatements(sql: "  ")
            #expect(try empty.next() == nil)
            let cursor = try db.allStatements(sql: "SELECT name FROM player WHERE score = 100; SELECT name FROM player WHERE score = 1000")
            let names = cursor.flatMap { try String.fetchCursor($0) }
            #expect(try Array(names) == ["Arthur", "O'Brien"])
        }
    }

    @Test func statementInformations() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            let select = try db.makeStatement(sql: "SELECT name, score AS Points FROM player")
            #expect(select.columnCount == 2)
            #expect(select.columnNames == ["name", "Points"])
            #expect(select.isReadonly)
            #expect(select.sql == "SELECT name, score AS Points FROM player")
            #expect(select.index(ofColumn: "Points") == 1)
            #expect(select.index(ofColumn: "missing") == nil)
            let insert = try db.makeStatement(sql: "INSERT INTO player VALUES (?, ?)")
            #expect(!insert.isReadonly)
            #expect(throws: DatabaseError.self) { try insert.validateArguments(["a"]) }
            try insert.validateArguments(["a", 1])
            #expect(throws: DatabaseError.self) { try insert.setArguments(["a"]) }
            insert.setUncheckedArguments(["a", 1])
            try insert.execute()
            #expect(try StmtPlayer.fetchCount(db) == 1)
        }
    }
}

// MARK: - DatabaseValueConvertible

private struct AuditEven: Hashable, DatabaseValueConvertible {
    let value: Int
    init?(_ value: Int) {
        guard value.isMultiple(of: 2) else { return nil }
        self.value = value
    }
    var databaseValue: DatabaseValue { value.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Self? {
        guard let value = Int.fromDatabaseValue(dbValue) else { return nil }
        return AuditEven(value)
    }
}

private struct EvenHolder: FetchableRecord {
    var even: AuditEven
    init(row: Row) throws {
        even = try row.decode(AuditEven.self, forColumn: "even")
    }
}

private struct CodableEvenRecord: Codable, FetchableRecord {
    var even: AuditEven
}

extension AuditEven: Codable {
    init(from decoder: Decoder) throws {
        let c = try decoder.singleValueContainer()
        guard let v = AuditEven(try c.decode(Int.self)) else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "odd")
        }
        self = v
    }
    func encode(to encoder: Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(value)
    }
}

@Suite("GRDB documented claims: DatabaseValueConvertible")
struct GRDBDocumentedClaimsValueConvertibleTests {
    @Test func nilFromDatabaseValueThrowsADecodingError() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try AuditEven.fetchOne(db, sql: "SELECT 4") == AuditEven(4))
            #expect(throws: (any Error).self) { try AuditEven.fetchOne(db, sql: "SELECT 3") }
            #expect(throws: (any Error).self) { try AuditEven.fetchAll(db, sql: "SELECT 2 UNION ALL SELECT 3") }
            #expect(try AuditEven?.fetchAll(db, sql: "SELECT NULL") == [nil])
            #expect(try AuditEven.fetchOne(db, sql: "SELECT NULL") == nil)
            #expect(throws: (any Error).self) { try EvenHolder.fetchOne(db, sql: "SELECT 5 AS even") }
            #expect(try EvenHolder.fetchOne(db, sql: "SELECT 6 AS even")?.even == AuditEven(6))
            #expect(throws: (any Error).self) { try CodableEvenRecord.fetchOne(db, sql: "SELECT 7 AS even") }
            #expect(try CodableEvenRecord.fetchOne(db, sql: "SELECT 8 AS even")?.even == AuditEven(8))
        }
    }

    @Test func optionalConformanceAndSetFetch() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try AuditEven.fetchSet(db, sql: "SELECT 2 UNION ALL SELECT 2 UNION ALL SELECT 4") == [AuditEven(2)!, AuditEven(4)!])
            let v: AuditEven? = nil
            #expect(v.databaseValue.isNull)
            let cursor = try AuditEven.fetchCursor(db, sql: "SELECT 2 UNION ALL SELECT 4")
            #expect(try Array(cursor).count == 2)
        }
    }
}

// MARK: - Configuration

@Suite("GRDB documented claims: Configuration")
struct GRDBDocumentedClaimsConfigurationTests {
    private func tempPath() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("audit-\(UUID().uuidString).sqlite").path
    }

    @Test func readonlyConnections() throws {
        let path = tempPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a); INSERT INTO t VALUES (1)") }
        }
        var config = Configuration()
        config.readonly = true
        for reader in [try DatabaseQueue(path: path, configuration: config) as any DatabaseWriter,
                       try DatabasePool(path: path, configuration: config) as any DatabaseWriter] {
            #expect(try reader.read { try Int.fetchOne($0, sql: "SELECT a FROM t") } == 1)
            let error = #expect(throws: DatabaseError.self) {
                try reader.write { try $0.execute(sql: "INSERT INTO t VALUES (2)") }
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
        }
    }

    @Test func defaultMaximumReaderCountIsFive() {
        #expect(Configuration().maximumReaderCount == 5)
        var config = Configuration()
        config.maximumReaderCount = 2
        #expect(config.maximumReaderCount == 2)
    }

    @Test func tracingPrintsExecutedSQL() throws {
        let log = AuditLog()
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { log.append("SQL> \($0)") }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in try db.create(table: "player") { t in t.autoIncrementedPrimaryKey("id") } }
        log.clear()
        let count = try dbQueue.read { db throws in
            try StmtPlayer.fetchCount(db)
        }
        #expect(count == 0)
        #expect(log.items.contains(#"SQL> SELECT COUNT(*) FROM "player""#))
    }

    @Test func qualityOfServiceAndQueues() throws {
        var config = Configuration()
        config.qos = .userInitiated
        #expect(config.readQoS == .userInitiated)
        #expect(config.writeQoS == .userInitiated)
        config.targetQueue = DispatchQueue(label: "audit.target")
        config.writeTargetQueue = DispatchQueue(label: "audit.write")
        config.label = "AuditDB"
        let dbPool = try DatabasePool(path: tempPath(), configuration: config)
        #expect(try dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") } == 1)
        try dbPool.write { try $0.execute(sql: "CREATE TABLE t(a)") }
        try dbPool.close()
    }

    @Test func transactionClockControlsTransactionDate() throws {
        let fixed = Date(timeIntervalSince1970: 1_000_000)
        var config = Configuration()
        config.transactionClock = .custom { _ in fixed }
        let dbQueue = try DatabaseQueue(configuration: config)
        let date = try dbQueue.write { db in try db.transactionDate }
        #expect(date == fixed)

        let realQueue = try DatabaseQueue()
        let (d1, d2) = try realQueue.write { db -> (Date, Date) in
            let d1 = try db.transactionDate
            Thread.sleep(forTimeInterval: 0.01)
            let d2 = try db.transactionDate
            return (d1, d2)
        }
        #expect(d1 == d2)
    }

    @Test func foreignKeysAreEnforcedByDefault() throws {
        #expect(Configuration().foreignKeysEnabled)
        #expect(!Configuration().readonly)
        #expect(!Configuration().publicStatementArguments)
        #expect(!Configuration().acceptsDoubleQuotedStringLiterals)
    }
}

// MARK: - Error handling

private struct AuditPet: Codable, PersistableRecord {
    static let databaseTableName = "pet"
    var masterId: Int64
    var name: String
}

@Suite("GRDB documented claims: Error handling")
struct GRDBDocumentedClaimsErrorTests {
    private func makeQueue() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: """
                CREATE TABLE master(id INTEGER PRIMARY KEY);
                CREATE TABLE pet(masterId INTEGER NOT NULL REFERENCES master(id), name TEXT NOT NULL);
                """)
        }
        return dbQueue
    }

    @Test func databaseErrorFieldsAndDescription() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            do {
                try AuditPet(masterId: 1, name: "Bobby").insert(db)
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.resultCode == .SQLITE_CONSTRAINT)
                #expect(error.resultCode.rawValue == 19)
                #expect(error.extendedResultCode == .SQLITE_CONSTRAINT_FOREIGNKEY)
                #expect(error.extendedResultCode.rawValue == 787)
                #expect(error.message == "FOREIGN KEY constraint failed")
                #expect(error.sql?.hasPrefix("INSERT INTO") == true)
                #expect(error.arguments == [1, "Bobby"])
                #expect(error.description.hasPrefix("SQLite error 19: FOREIGN KEY constraint failed - while executing `INSERT INTO"))
                // Arguments are not public by default.
                #expect(!error.description.contains("Bobby"))
            }
        }
    }

    @Test func matchingResultCodesInSwitchAndCatch() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db throws in
            func kind(_ body: () throws -> Void) -> String {
                do {
                    try body()
                    return "none"
                } catch let error as DatabaseError {
                    switch error {
                    case DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY: return "fk"
                    case DatabaseError.SQLITE_CONSTRAINT: return "constraint"
                    default: return "other"
                    }
                } catch {
                    return "not a DatabaseError"
                }
            }
            #expect(kind { try db.execute(sql: "INSERT INTO pet VALUES (1, 'x')") } == "fk")
            #expect(kind { try db.execute(sql: "INSERT INTO pet VALUES (NULL, 'x')") } == "constraint")
            #expect(kind { try db.execute(sql: "SELECT * FROM nope") } == "other")

            var caught = ""
            do {
                try db.execute(sql: "INSERT INTO master VALUES (1); INSERT INTO pet VALUES (1, NULL)")
            } catch DatabaseError.SQLITE_CONSTRAINT_FOREIGNKEY {
                caught = "fk"
            } catch DatabaseError.SQLITE_CONSTRAINT {
                caught = "constraint"
            } catch DatabaseError.SQLITE_IOERR, DatabaseError.SQLITE_AUTH {
                caught = "io"
            }
            #expect(caught == "constraint")
        }
    }

    @Test func recordNotFoundOnUpdate() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer)
            }
            let player = CmpPlayer(id: 7, name: "A", score: 0)
            var message = ""
            do {
                try player.update(db)
            } catch let RecordError.recordNotFound(databaseTableName: table, key: key) {
                message = "Key \(key) was not found in table \(table)."
            }
            #expect(message.contains("table player"))
            #expect(message.contains("7"))
        }
    }

    @Test func rowDecodingErrorMessage() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, sql: "SELECT NULL AS name"))
            let error = #expect(throws: RowDecodingError.self) {
                try row.decode(String.self, forColumn: "name")
            }
            let description = error.map { "\($0)" } ?? ""
            #expect(description.contains("could not decode String from database value NULL"))
        }
    }

    @Test func untrustedInputs() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            let good: [String: Any] = ["a": 1, "b": "x"]
            let bad: [String: Any] = ["a": 1, "b": NSObject()]
            #expect(StatementArguments(bad) == nil)
            let arguments = try #require(StatementArguments(good))
            let statement = try db.makeStatement(sql: "SELECT :a, :b, 'Mom’s birthday'")
            try statement.setArguments(arguments)
            let cursor = try Row.fetchCursor(statement)
            while let row = try cursor.next() {
                let dbValue: DatabaseValue = row[2]
                #expect(!dbValue.isNull)
                #expect(Date.fromDatabaseValue(dbValue) == nil)
                #expect(row[0] as Int == 1)
            }
            let missing = try db.makeStatement(sql: "SELECT :a, :c")
            #expect(throws: DatabaseError.self) { try missing.setArguments(arguments) }
        }
    }

    @Test func doubleQuotedStringLiteralsAreRejected() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player(name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES ('x')")
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: #"UPDATE player SET name = "Arthur""#)
            }
            #expect(error?.resultCode == .SQLITE_ERROR)
            #expect(error?.message == "no such column: Arthur")
            let name = "Arthur"
            try db.execute(literal: "UPDATE player SET name = \(name)")
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player") == "Arthur")
        }
        var config = Configuration()
        config.acceptsDoubleQuotedStringLiterals = true
        let lenient = try DatabaseQueue(configuration: config)
        #expect(try lenient.read { try String.fetchOne($0, sql: #"SELECT "foo""#) } == "foo")
    }

    @Test func likeWithQuestionMarkInsideTheString() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player(name TEXT)")
            try db.execute(sql: "INSERT INTO player VALUES ('Arthur'), ('Barbara')")
            let error = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT * FROM player WHERE name LIKE '%?%'", arguments: ["rth"])
            }
            #expect(error?.resultCode.rawValue == 21)
            #expect(error?.message?.contains("wrong number of statement arguments") == true)
            let pattern = "%rth%"
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player WHERE name LIKE ?", arguments: [pattern]) == ["Arthur"])
        }
    }
}

// MARK: - Unicode

private struct UniPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let name = Column(CodingKeys.name)
        static let email = Column(CodingKeys.email)
    }
    var name: String
    var email: String
}

@Suite("GRDB documented claims: Unicode")
struct GRDBDocumentedClaimsUnicodeTests {
    @Test func unicodeFunctions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT UPPER('Jérôme')") == "JéRôME")
            let uppercased = DatabaseFunction.uppercase
            #expect(try String.fetchOne(db, sql: "SELECT \(uppercased.name)('Jérôme')") == "JÉRÔME")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.lowercase.name)('JÉRÔME')") == "jérôme")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.capitalize.name)('jérôme durand')") == "Jérôme Durand")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.localizedUppercase.name)('é')") == "É")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.localizedLowercase.name)('É')") == "é")
            #expect(try String.fetchOne(db, sql: "SELECT \(DatabaseFunction.localizedCapitalize.name)('élan')") == "Élan")
            #expect(try String.fetchOne(db, sql: "SELECT \(uppercased.name)(NULL)") == nil)
        }
    }

    @Test func unicodeFunctionsInTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.column("name", .text)
                t.column("email", .text)
            }
            try UniPlayer(name: "jérôme", email: "j@x").insert(db)
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.uppercased }) == "JÉRÔME")
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.capitalized }) == "Jérôme")
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.uppercased.lowercased }) == "jérôme")
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.localizedUppercased }) == "JÉRÔME")
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.localizedLowercased }) == "jérôme")
            #expect(try String.fetchOne(db, UniPlayer.select { $0.name.localizedCapitalized }) == "Jérôme")
        }
    }

    @Test func collations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.column("email", .text).unique().collate(.nocase)
                t.column("name", .text).collate(.localizedCaseInsensitiveCompare)
            }
            try UniPlayer(name: "b", email: "arthur@example.com").insert(db)
            #expect(throws: DatabaseError.self) {
                try UniPlayer(name: "x", email: "ARTHUR@example.com").insert(db)
            }
            try UniPlayer(name: "A", email: "a").insert(db)
            try UniPlayer(name: "é", email: "e").insert(db)
            try UniPlayer(name: "C", email: "c").insert(db)
            #expect(try UniPlayer.order(\.name).fetchAll(db).map(\.name) == ["A", "b", "C", "é"])

            let collation = DatabaseCollation.localizedCaseInsensitiveCompare
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY name COLLATE \(collation.name)") == ["A", "b", "C", "é"])
            #expect(try UniPlayer.order { $0.email.collating(collation) }.fetchAll(db).map(\.email) == ["a", "arthur@example.com", "c", "e"])
        }
    }

    @Test func builtInUnicodeCollations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE f(name TEXT)")
            try db.execute(sql: "INSERT INTO f VALUES ('file10'), ('file2'), ('File1')")
            func sorted(_ c: DatabaseCollation) throws -> [String] {
                try String.fetchAll(db, sql: "SELECT name FROM f ORDER BY name COLLATE \(c.name)")
            }
            #expect(try sorted(.localizedStandardCompare) == ["File1", "file2", "file10"])
            #expect(try sorted(.unicodeCompare) == ["File1", "file10", "file2"])
            #expect(try sorted(.caseInsensitiveCompare) == ["File1", "file10", "file2"])
            #expect(try sorted(.localizedCompare).count == 3)
            #expect(try String.fetchOne(db, sql: "SELECT 'a' = 'A' COLLATE \(DatabaseCollation.caseInsensitiveCompare.name)") == "1")
        }
    }

    @Test func customCollationWithComparisonResult() throws {
        let collation = DatabaseCollation("auditLengthCollation") { (lhs, rhs) -> ComparisonResult in
            lhs.count < rhs.count ? .orderedAscending : lhs.count > rhs.count ? .orderedDescending : .orderedSame
        }
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(collation: collation)
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.read { db throws in
            #expect(try String.fetchAll(db, sql: "SELECT v FROM (SELECT 'ccc' AS v UNION ALL SELECT 'a' UNION ALL SELECT 'bb') ORDER BY v COLLATE auditLengthCollation") == ["a", "bb", "ccc"])
            #expect(try Bool.fetchOne(db, sql: "SELECT 'ab' = 'cd' COLLATE auditLengthCollation") == true)
        }
    }
}

// MARK: - Memory management

@Suite("GRDB documented claims: Memory management")
struct GRDBDocumentedClaimsMemoryTests {
    @Test func releaseMemoryVariants() async throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.releaseMemory()
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-mem-\(UUID().uuidString).sqlite").path
        let dbPool = try DatabasePool(path: path)
        dbPool.releaseMemory()
        dbPool.releaseMemoryEventually()
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            dbQueue.asyncWriteWithoutTransaction { db in
                db.releaseMemory()
                c.resume()
            }
        }
        var config = Configuration()
        config.automaticMemoryManagement = false
        _ = try DatabaseQueue(configuration: config)
        let one = try await dbPool.read { try Int.fetchOne($0, sql: "SELECT 1") }
        #expect(one == 1)
    }
}

// MARK: - FAQ

private struct FAQPlayer: Codable, FetchableRecord, MutablePersistableRecord {
    static let databaseTableName = "player"
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let email = Column(CodingKeys.email)
    }
    var id: Int64?
    var name: String
    var email: String?
    mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
}

@Suite("GRDB documented claims: FAQ")
struct GRDBDocumentedClaimsFAQTests {
    @Test func createDatabaseInItsDirectory() throws {
        let fileManager = FileManager.default
        let directoryURL = fileManager.temporaryDirectory.appendingPathComponent("AuditDB-\(UUID().uuidString)", isDirectory: true)
        try fileManager.createDirectory(at: directoryURL, withIntermediateDirectories: true)
        defer { try? fileManager.removeItem(at: directoryURL) }
        let databaseURL = directoryURL.appendingPathComponent("db.sqlite")
        do {
            let dbQueue = try DatabaseQueue(path: databaseURL.path)
            try dbQueue.write { try $0.execute(sql: "CREATE TABLE t(a)") }
            try dbQueue.close()
        }
        #expect(fileManager.fileExists(atPath: databaseURL.path))
        let reopened = try DatabaseQueue(path: databaseURL.path)
        #expect(try reopened.read { try $0.tableExists("t") })
    }

    @Test func closedConnectionsRefuseAccess() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.close()
        #expect(throws: DatabaseError.self) { try dbQueue.read { try Int.fetchOne($0, sql: "SELECT 1") } }
    }

    @Test func genericParameterWorkarounds() throws {
        let dbQueue = try DatabaseQueue()
        let string = try dbQueue.read { db -> String? in
            let result = try String.fetchOne(db, sql: "SELECT 'a'")
            return result
        }
        let string2 = try dbQueue.read { db throws in
            try String.fetchOne(db, sql: "SELECT 'b'")
        }
        #expect(string == "a" && string2 == "b")
    }

    @Test func insertedInAsyncWrite() async throws {
        let dbWriter: any DatabaseWriter = try DatabaseQueue()
        try await dbWriter.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("email", .text)
            }
        }
        var player = FAQPlayer(id: nil, name: "Arthur")
        player = try await dbWriter.write { [player] db in
            return try player.inserted(db)
        }
        #expect(player.id == 1)
        var saved = FAQPlayer(id: nil, name: "Barbara")
        saved = try await dbWriter.write { [saved] db in try saved.saved(db) }
        #expect(saved.id == 2)
    }

    @Test func printRequestAsSQLWithPublicArguments() throws {
        var config = Configuration()
        config.publicStatementArguments = true
        let log = AuditLog()
        config.prepareDatabase { db in db.trace { log.append("\($0)") } }
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.column("email", .text)
            }
        }
        log.clear()
        _ = try dbQueue.read { db throws in
            try FAQPlayer.filter { $0.email == "arthur@example.com" }.fetchAll(db)
        }
        #expect(log.items.contains(#"SELECT * FROM "player" WHERE "email" = 'arthur@example.com'"#))
    }
}

// MARK: - Codable records: preferred database representations

private struct Money: Codable, Equatable, DatabaseValueConvertible {
    var cents: Int
    // Codable representation differs from the database representation.
    var databaseValue: DatabaseValue { cents.databaseValue }
    static func fromDatabaseValue(_ dbValue: DatabaseValue) -> Money? {
        Int.fromDatabaseValue(dbValue).map { Money(cents: $0) }
    }
}

private struct ReprRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "repr"
    var id: Int64
    var price: Money
    var color: AchievementColor
    var url: URL
    var uuid: UUID
    var data: Data
    var date: Date
    var decimal: Decimal
    var tags: [String]
    var scores: [String: Int]
    var optionalInfo: Achievement?
}

private struct SnakeRecord: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "snakeRecord"
    static let databaseColumnEncodingStrategy = DatabaseColumnEncodingStrategy.convertToSnakeCase
    static let databaseColumnDecodingStrategy = DatabaseColumnDecodingStrategy.convertFromSnakeCase
    var id: Int64
    var teamID: String
    var playerName: String
}

@Suite("GRDB documented claims: Codable representations")
struct GRDBDocumentedClaimsCodableRepresentationTests {
    @Test func propertiesUseTheirPreferredDatabaseRepresentation() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE repr(id INTEGER PRIMARY KEY, price, color, url, uuid, data, date, decimal, tags, scores, optionalInfo)")
            let uuid = UUID()
            let r = ReprRecord(
                id: 1, price: Money(cents: 250), color: .gold,
                url: URL(string: "https://example.com")!, uuid: uuid, data: Data([1, 2, 3]),
                date: Date(timeIntervalSince1970: 0), decimal: Decimal(string: "1.5")!,
                tags: ["a", "b"], scores: ["b": 1, "a": 2], optionalInfo: nil)
            try r.insert(db)
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT typeof(price), price, typeof(color), color, typeof(url), url,
                       typeof(uuid), length(uuid), typeof(data), typeof(date), date,
                       typeof(decimal), decimal, tags, scores, typeof(optionalInfo)
                FROM repr
                """))
            #expect(row[0] as String == "integer" && row[1] as Int == 250)
            #expect(row[2] as String == "text" && row[3] as String == "gold")
            #expect(row[4] as String == "text" && row[5] as String == "https://example.com")
            #expect(row[6] as String == "blob" && row[7] as Int == 16)
            #expect(row[8] as String == "blob")
            #expect(row[9] as String == "text" && row[10] as String == "1970-01-01 00:00:00.000")
            #expect(row[11] as String == "text" && row[12] as String == "1.5")
            #expect(row[13] as String == #"["a","b"]"#)
            #expect(row[14] as String == #"{"a":2,"b":1}"#)
            #expect(row[15] as String == "null")
            let fetched = try #require(try ReprRecord.fetchOne(db))
            #expect(fetched.price == r.price && fetched.uuid == uuid && fetched.scores == r.scores && fetched.optionalInfo == nil)
            #expect(fetched.decimal == r.decimal && fetched.tags == r.tags)
        }
    }

    @Test func snakeCaseColumnStrategies() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE snakeRecord(id INTEGER PRIMARY KEY, team_id TEXT, player_name TEXT)")
            try SnakeRecord(id: 1, teamID: "red", playerName: "Arthur").insert(db)
            #expect(try String.fetchOne(db, sql: "SELECT team_id || player_name FROM snakeRecord") == "redArthur")
            let fetched = try #require(try SnakeRecord.fetchOne(db))
            #expect(fetched.teamID == "red" && fetched.playerName == "Arthur")
        }
    }
}

// MARK: - Configuration: connection options

@Suite("GRDB documented claims: Configuration options")
struct GRDBDocumentedClaimsConfigurationOptionsTests {
    @Test func journalModeAndBusyMode() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-wal-\(UUID().uuidString).sqlite").path
        var config = Configuration()
        config.journalMode = .wal
        config.busyMode = .timeout(1)
        config.persistentReadOnlyConnections = true
        config.allowsUnsafeTransactions = false
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect(try dbQueue.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
        let pool = try DatabasePool(path: path)
        #expect(try pool.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "wal")
    }

    @Test func foreignKeysCanBeDisabled() throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE a(id INTEGER PRIMARY KEY); CREATE TABLE b(aId REFERENCES a(id))")
            try db.execute(sql: "INSERT INTO b VALUES (42)")
            #expect(try Int.fetchOne(db, sql: "PRAGMA foreign_keys") == 0)
        }
    }
}

// MARK: - Extra probes

private let autocommitLog = AuditLog()

private struct AutocommitPicture: Codable, PersistableRecord {
    static let databaseTableName = "pictureFile"
    var path: String
    func willDelete(_ db: Database) {
        db.afterNextTransaction { _ in autocommitLog.append("commit \(path)") }
    }
}

@Suite("GRDB documented claims: Extra probes")
struct GRDBDocumentedClaimsExtraTests {
    @Test func afterNextTransactionOutsideOfAnExplicitTransaction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "pictureFile") { t in t.primaryKey("path", .text) }
            try AutocommitPicture(path: "a").insert(db)
        }
        autocommitLog.clear()
        try dbQueue.writeWithoutTransaction { db throws in
            _ = try AutocommitPicture(path: "a").delete(db)
        }
        #expect(autocommitLog.items == ["commit a"])
    }

    @Test func insertAndFetchWithExplicitIgnore() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text)
                t.column("score", .integer)
            }
            try CmpPlayer(id: 1, name: "A", score: 0).insert(db)
            #expect(throws: RecordError.self) {
                _ = try CmpPlayer(id: 1, name: "B", score: 0).insertAndFetch(db, onConflict: .ignore)
            }
            #expect(try CmpPlayer.find(db, id: 1).name == "A")
        }
    }

    @Test func functionsAndCollationsFromTheConfigurationAreOnEveryPoolConnection() throws {
        let reverse = DatabaseFunction("auditReverse", argumentCount: 1, pure: true) { values in
            String.fromDatabaseValue(values[0]).map { String($0.reversed()) }
        }
        let collation = DatabaseCollation("auditReverseCollation") { lhs, rhs in
            (rhs as NSString).compare(lhs)
        }
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(function: reverse)
            db.add(collation: collation)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("audit-fn-\(UUID().uuidString).sqlite").path
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { db throws in
            try db.create(table: "t") { t in t.column("name", .text).collate(collation) }
            try db.execute(sql: "INSERT INTO t VALUES ('a'), ('c'), ('b')")
        }
        try dbPool.read { db throws in
            #expect(try String.fetchOne(db, sql: "SELECT auditReverse('foo')") == "oof")
            #expect(try String.fetchAll(db, sql: "SELECT name FROM t ORDER BY name") == ["c", "b", "a"])
        }
        let snapshot = try dbPool.makeSnapshot()
        #expect(try snapshot.read { try String.fetchOne($0, sql: "SELECT auditReverse('ab')") } == "ba")
    }

    @Test func errorDescriptionOfAThrowingFunction() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("sqrt", argumentCount: 1, pure: true) { values in
                guard let double = Double.fromDatabaseValue(values[0]) else { return nil }
                guard double >= 0 else { throw DatabaseError(message: "invalid negative number") }
                return Foundation.sqrt(double)
            })
            let error = try #require(throws: DatabaseError.self) { try Double.fetchOne(db, sql: "SELECT sqrt(-1)") }
            // README 7.10: "SQLite error 1 with statement `SELECT sqrt(-1)`: invalid negative number"
            // DatabaseError section format: "SQLite error 1: <message> - while executing `<sql>`"
            #expect(error.description == "SQLite error 1: invalid negative number - while executing `SELECT sqrt(-1)`")
        }
    }

    @Test func replacingAFunctionWithTheSameName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in 1 })
            db.add(function: DatabaseFunction("f", argumentCount: 0) { _ in 2 })
            #expect(try Int.fetchOne(db, sql: "SELECT f()") == 2)
        }
    }
}

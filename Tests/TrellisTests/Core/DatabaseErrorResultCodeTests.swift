import Testing
import Trellis

/// Every code of `ResultCode` is named on `DatabaseError`, for `catch`
/// patterns.
@Suite struct DatabaseErrorResultCodeTests {
    @Test func extendedCodesMatchTheErrorsOfSQLite() throws {
        try DatabaseQueue().write { db in
            try db.execute(sql: "CREATE TABLE t(a INTEGER) STRICT")
            var caught = ""
            do {
                try db.execute(sql: "INSERT INTO t VALUES ('not an integer')")
            } catch DatabaseError.SQLITE_CONSTRAINT_DATATYPE {
                caught = "datatype"
            } catch {
                caught = "other: \(error)"
            }
            #expect(caught == "datatype")
        }
    }

    @Test func theConstantsAreTheResultCodes() {
        #expect(DatabaseError.SQLITE_OK == ResultCode.SQLITE_OK)
        #expect(DatabaseError.SQLITE_FULL.rawValue == 13)
        #expect(DatabaseError.SQLITE_CONSTRAINT_ROWID.rawValue == 19 | (10 << 8))
        #expect(DatabaseError.SQLITE_BUSY_SNAPSHOT.primaryResultCode == .SQLITE_BUSY)
    }
}

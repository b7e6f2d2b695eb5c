import Foundation
import Testing
import Trellis

// Record properties decoded from values of another storage class, as
// GRDB 7 decodes them.

@Suite("Conversions of record properties")
struct RecordValueConversionTests {
    private struct Sample: Codable, FetchableRecord {
        var int8: Int8
        var double: Double
        var string: String
        var bool: Bool
        var float: Float
        var optionalInt: Int?
    }

    @Test("A fetched record converts values of another storage class without a loss")
    func recordDecodingUsesStatementConversions() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let sample = try #require(try Sample.fetchOne(db, sql: """
                SELECT '7' AS int8, '0.25' AS double, 12 AS string, '0' AS bool, 300 AS float, '42' AS optionalInt
                """))
            #expect(sample.int8 == 7)
            #expect(sample.double == 0.25)
            #expect(sample.string == "12")
            #expect(sample.bool == false)
            // GRDB reads 'abc' as false: Trellis refuses a conversion with a loss.
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 1 AS int8, 1 AS double, 'x' AS string, 'abc' AS bool, 1 AS float, NULL AS optionalInt")
            }
            #expect(sample.float == 300)
            #expect(sample.optionalInt == 42)

            // Out of range, or NULL for a non-optional property: an error.
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 300 AS int8, 1 AS double, 'x' AS string, 1 AS bool, 1 AS float, NULL AS optionalInt")
            }
            #expect(throws: RowDecodingError.self) {
                try Sample.fetchOne(db, sql: "SELECT 1 AS int8, 1 AS double, NULL AS string, 1 AS bool, 1 AS float, NULL AS optionalInt")
            }
        }
    }

    @Test("A record built from a copied row converts strictly")
    func copiedRowsConvertStrictly() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { (db: Database) throws in
            let row = try #require(try Row.fetchOne(db, sql: """
                SELECT 1 AS int8, 1.0 AS double, X'FF' AS string, 1 AS bool, 1 AS float, NULL AS optionalInt
                """))
            #expect(throws: RowDecodingError.self) { try Sample(row: row) }
        }
    }
}

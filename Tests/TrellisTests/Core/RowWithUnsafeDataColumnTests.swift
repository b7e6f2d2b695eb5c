import Foundation
import Testing
import Trellis

@Suite struct RowWithUnsafeDataColumnTests {
    @Test func blobsOfColumnsAreReadWithoutACopy() throws {
        try DatabaseQueue().read { db in
            let rows = try Row.fetchCursor(db, sql: "SELECT x'0102' AS data, NULL AS missing, 'ab' AS text")
            let row = try #require(try rows.next())
            #expect(try row.withUnsafeData(at: Column("data")) { $0 } == Data([1, 2]))
            #expect(try row.withUnsafeData(at: Column("missing")) { $0 } == nil)
            #expect(try row.withUnsafeData(at: Column("text")) { $0 } == Data("ab".utf8))
            #expect(throws: RowDecodingError.self) {
                try row.withUnsafeData(at: Column("nope")) { $0 }
            }
        }
    }
}

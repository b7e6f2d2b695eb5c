import Foundation
import Testing
import Trellis
import TrellisPostgres

// The cells of PostgreSQL's answers, read as Trellis values: the common
// types straight from their bytes, the others through postgres-nio.

@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
struct PostgreSQLCellTests {
    @Test func cellsOfTheCommonTypesReadAsTheValuesThatSQLiteStores() async throws {
        let values = try await PostgresTestServer.withDatabase { database in
            try await database.read { db in
                try Row.fetchOne(db, sql: """
                    SELECT (-32768)::int2, 2147483647::int4, (-9223372036854775808)::int8, true, false,
                           1.5::float4, -2.25::float8, 'Zoë'::text, 'b'::varchar, 'c'::char(3), 'd'::name,
                           NULL::int8, NULL::text, ''::text
                    """)?.databaseValues
            }
        }
        let expected: [DatabaseValue] = [
            Int64(-32768).databaseValue, Int64(2_147_483_647).databaseValue, Int64.min.databaseValue,
            Int64(1).databaseValue, Int64(0).databaseValue,
            Double(1.5).databaseValue, Double(-2.25).databaseValue,
            "Zoë".databaseValue, "b".databaseValue, "c  ".databaseValue, "d".databaseValue,
            .null, .null, "".databaseValue,
        ]
        #expect(values == expected)
    }

    @Test func theRowsOfALargeAnswerAreAllRead() async throws {
        let (numbers, texts) = try await PostgresTestServer.withDatabase { database in
            try await database.read { db in
                let rows = try Row.fetchAll(db, sql: "SELECT g, g::text AS t FROM generate_series(1, 20000) AS g")
                return (rows.map { $0["g"] as Int }, rows.map { $0["t"] as String })
            }
        }
        #expect(numbers == Array(1...20000))
        #expect(texts == (1...20000).map(String.init))
    }
}

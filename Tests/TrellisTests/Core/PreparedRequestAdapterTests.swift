import Testing
import Trellis

@Suite struct PreparedRequestAdapterTests {
    @Test func thePreparedRequestExposesTheAdapterOfTheRequest() throws {
        try DatabaseQueue().read { db in
            let request = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: SuffixRowAdapter(fromIndex: 1))
            let prepared = try request.makePreparedRequest(db)
            let adapter = try #require(prepared.adapter)
            let row = try #require(try Row.fetchOne(prepared.statement, adapter: adapter))
            #expect(row == ["b": 2, "c": 3])

            let plain = try SQLRequest<Row>(sql: "SELECT 1 AS a").makePreparedRequest(db)
            #expect(plain.adapter == nil)
        }
    }

    @Test func theAdapterOfAnAdaptedRequestIsTheComposedOne() throws {
        try DatabaseQueue().read { db in
            let request = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b, 3 AS c", adapter: SuffixRowAdapter(fromIndex: 1))
                .adapted { _ in ColumnMapping(["renamed": "c"]) }
            let prepared = try request.makePreparedRequest(db)
            let row = try #require(try Row.fetchOne(prepared.statement, adapter: prepared.adapter))
            #expect(row == ["renamed": 3])
        }
    }

    @Test func theAdapterAppliesToTheColumnsOfItsStatementOnly() throws {
        try DatabaseQueue().read { db in
            let request = SQLRequest<Row>(sql: "SELECT 1 AS a, 2 AS b", adapter: SuffixRowAdapter(fromIndex: 1))
            let adapter = try #require(try request.makePreparedRequest(db).adapter)
            #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, sql: "SELECT 1 AS x", adapter: adapter)
            }
        }
    }
}

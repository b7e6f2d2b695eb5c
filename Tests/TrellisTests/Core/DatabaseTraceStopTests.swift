import Foundation
import Testing
import Trellis

@Suite struct DatabaseTraceStopTests {
    @Test func traceWithoutAClosureStopsTracing() throws {
        final class Events: @unchecked Sendable { var sqls: [String] = [] }
        let events = Events()
        try DatabaseQueue().inDatabase { db in
            db.trace { events.sqls.append($0.description) }
            try db.execute(sql: "SELECT 1")
            db.trace()
            try db.execute(sql: "SELECT 2")
        }
        #expect(events.sqls == ["SELECT 1"])
    }
}

import Foundation
import Testing
import Trellis

// GRDB's README, "SQL Operators": "When the sequence is empty,
// `joined(operator: .add)` returns 0, and `joined(operator: .multiply)`
// returns 1", and "`joined(operator: .concat)` returns the empty string".

@Suite struct ReadmeEmptyJoinedOperatorsDocTests {
    @Test func emptySequencesJoinToTheNeutralElement() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, score INTEGER)")
            try db.execute(sql: "INSERT INTO player (score) VALUES (10)")
            let none: [SQLExpression] = []
            let row = try #require(try Row.fetchOne(db, Table("player").select(
                none.joined(operator: .add),
                none.joined(operator: .multiply),
                none.joined(operator: .concat))))
            #expect(row[0] == 0.databaseValue)
            #expect(row[1] == 1.databaseValue)
            #expect(row[2] == "".databaseValue)

            // One element joins to itself.
            let one = [Column("score")]
            let single = try #require(try Row.fetchOne(db, Table("player").select(
                one.joined(operator: .add),
                one.joined(operator: .multiply),
                one.joined(operator: .and))))
            #expect(single[0] == 10.databaseValue)
            #expect(single[1] == 10.databaseValue)
            #expect(single[2] as Bool == true)
        }
    }
}

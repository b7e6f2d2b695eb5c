import Foundation
import Testing
import Trellis

// User types that adopt the query interface protocols.

/// A selection of its own.
private struct FullName: SQLSelectable {
    var sqlSelection: SQLSelection {
        SQL(sql: "firstName || ' ' || lastName").forKey("fullName")
    }
}

/// An expression that is selected and sorted as its expression.
private struct Doubled: SQLSpecificExpressible, SQLSelectable, SQLOrderingTerm {
    var column: Column
    var sqlExpression: SQLExpression { column * 2 }
}

/// An expression type with its own ordering.
private struct ByLength: SQLOrderingTerm {
    var column: Column
    var sqlOrdering: SQLOrdering { length(column).desc }
}

private struct Person: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var firstName: String
    var lastName: String
    var score: Int
    static var databaseSelection: [any SQLSelectable] { [AllColumns(), FullName()] }
}

@Suite struct CustomSelectableTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "person") { t in
                t.primaryKey("id", .integer)
                t.column("firstName", .text).notNull()
                t.column("lastName", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try db.execute(sql: """
                INSERT INTO person (id, firstName, lastName, score) VALUES (1, 'Ada', 'Lovelace', 3), (2, 'Alan', 'Turing', 1)
                """)
        }
        return dbQueue
    }

    @Test func userSelectableInSelect() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let names = try String.fetchAll(db, Person.select(FullName()).order(Column("id")))
            #expect(names == ["Ada Lovelace", "Alan Turing"])
            let selection: [any SQLSelectable] = [Column("id"), FullName()]
            let rows = try Table("person").select(selection).order(Column("id")).fetchAll(db)
            #expect(rows.first?["fullName"] == "Ada Lovelace")
            let annotated = try Table("person").annotated(with: FullName()).filter(key: 2).fetchOne(db)
            #expect(annotated?["fullName"] == "Alan Turing")
            let person = try Row.fetchOne(db, Person.filter(key: 1))
            #expect(person?["fullName"] == "Ada Lovelace")
        }
    }

    @Test func userExpressionsInSelectOrderAndFilter() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { (db: Database) throws in
            let doubled = Doubled(column: Column("score"))
            #expect(try Int.fetchAll(db, Person.select(doubled).order(doubled)) == [2, 6])
            #expect(try Person.filter(doubled > 4).fetchAll(db).map(\.id) == [1])
            #expect(try Person.order(doubled.desc).fetchAll(db).map(\.id) == [1, 2])
            #expect(try Person.order(ByLength(column: Column("lastName"))).fetchAll(db).map(\.id) == [1, 2])
        }
    }
}

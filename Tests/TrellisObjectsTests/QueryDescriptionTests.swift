import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Walker: Entity {
    var id: Id = 0
    var name = ""
    var age = 0
}

extension Walker {
    static let name = Property<Walker, String>("name")
    static let age = Property<Walker, Int>("age")
}

@Suite struct QueryDescriptionTests {
    @Test func theDebugDescriptionTellsTheConditionsTheOrderAndTheSQL() throws {
        let store = try Store()
        let box = store.box(for: Walker.self)
        let query = try box.query { "minAge" .= Walker.age > 18 && Walker.name.startsWith("A", caseSensitive: false) }
            .ordered(by: Walker.name, flags: .descending)
            .build()
        #expect(query.debugDescription == """
            Query<Walker> where (minAge: Walker.age > 18 AND Walker.name starts with "A" (case insensitive))
            SQL: SELECT * FROM "Walker" WHERE ("age" > ? AND "name" LIKE ? ESCAPE '\\') ORDER BY "name" COLLATE NOCASE DESC NULLS FIRST, "id"
            arguments: [18, "A%"]
            """)
        query.setParameter("minAge", to: 30)
        #expect(query.debugDescription.hasPrefix("Query<Walker> where (minAge: Walker.age > 30 AND"))
    }

    @Test func aQueryOfAllObjectsAndAQueryWithSQLConditions() throws {
        let store = try Store()
        let box = store.box(for: Walker.self)
        #expect(try box.query().build().debugDescription == """
            Query<Walker> of all objects
            SQL: SELECT * FROM "Walker" ORDER BY "id"
            """)
        #expect(box.query { Column("age") < 3 }.debugDescription == """
            Query<Walker> where (SQL conditions)
            SQL: SELECT * FROM "Walker" WHERE "age" < ? ORDER BY "id"
            arguments: [3]
            """)
    }

    @Test func chainsOfConditionsAreFlat() throws {
        let store = try Store()
        let box = store.box(for: Walker.self)
        try box.put([Walker(), Walker()])
        let query = try box.query { (Walker.age == 1 || Walker.age == 2 || Walker.age == 0) && Walker.name == "" && Walker.age < 5 }.build()
        #expect(query.debugDescription.hasPrefix(
            "Query<Walker> where ((Walker.age == 1 OR Walker.age == 2 OR Walker.age == 0) AND Walker.name == \"\" AND Walker.age < 5)"))
        #expect(try query.count() == 2)
        // A chain longer than SQLite accepts is SQLite's error, not a
        // recursion deep enough to overflow the stack.
        var long = Walker.age == -1
        for value in 0..<3_000 { long = long || Walker.age == value }
        let longCondition = long
        #expect(throws: DatabaseError.self) { try box.query { longCondition }.build().count() }
    }

    @Test func aStoreRefusesToCloseFromItsTransactionAndStaysOpen() throws {
        let store = try Store()
        let box = store.box(for: Walker.self)
        #expect(throws: ObjectBoxError.self) {
            try store.runInTransaction { try store.close() }
        }
        try box.put(Walker())
        #expect(try box.count() == 1)
    }

}

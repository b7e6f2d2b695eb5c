import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Hiker: Entity {
    var id: Id = 0
    var name = ""
    var age = 0
    init() {}
    init(_ name: String, _ age: Int) { self.name = name; self.age = age }
}

extension Hiker {
    static let name = Property<Hiker, String>("name")
    static let age = Property<Hiker, Int>("age")
}

@Suite struct QueryBuilderTests {
    private func hikers() throws -> Box<Hiker> {
        let box = try Store().box(for: Hiker.self)
        try box.put([Hiker("Bob", 15), Hiker("Steve", 56), Hiker("Santa", 1000), Hiker("Ann", 30)])
        return box
    }

    @Test func theBuilderAndPropertyConditionTypesOfObjectBox() throws {
        let box = try hikers()
        let adults: PropertyQueryCondition<Hiker, Int> = Hiker.age >= 18
        let builder: QueryBuilder<Hiker> = box.query { adults }
        let query: Query<Hiker> = try builder.ordered(by: Hiker.name).build()
        #expect(try query.find().map(\.name) == ["Ann", "Santa", "Steve"])
    }

    @Test func anAliasedConditionOnAStringCollection() throws {
        let box = try hikers()
        let query = try box.query { "names" .= Hiker.name ∈ ["Bob"] }.build()
        #expect(try query.find().map(\.name) == ["Bob"])
        query.setParameters("names", to: ["Steve", "Santa"])
        #expect(try query.find().map(\.name) == ["Steve", "Santa"])
        let ages = try box.query { "ages" .= Hiker.age ∈ [1] }.build()
        ages.setParameters("ages", to: [15, 56])
        #expect(try ages.find().map(\.name) == ["Bob", "Steve"])
    }
}

import Testing
import Trellis

// Snippets of "The Types of Associations" and "Associations and the
// Database Schema" in GRDB's AssociationsBasics.md: self joins, explicit
// through associations, association keys and aggregate names derived from
// table names (irregular plurals included).

private struct Employee: Codable, FetchableRecord, PersistableRecord, Hashable {
    static let subordinates = hasMany(Employee.self, key: "subordinates")
    static let manager = belongsTo(Employee.self, key: "manager")
    var id: Int64
    var managerId: Int64?
    var name: String
}

private struct Document: Codable, FetchableRecord, PersistableRecord {
    static let sections = hasMany(Section.self)
    static let paragraphs = hasMany(Paragraph.self, through: sections, using: Section.paragraphs)
    static let explicitParagraphs = hasMany(
        Paragraph.self,
        through: Document.hasMany(Section.self),
        using: Section.hasMany(Paragraph.self))
    var id: Int64
}

private struct Section: Codable, FetchableRecord, PersistableRecord {
    static let paragraphs = hasMany(Paragraph.self)
    var id: Int64
    var documentId: Int64
}

private struct Paragraph: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var sectionId: Int64
    var text: String
}

private struct Cage: Codable, FetchableRecord, PersistableRecord {
    static let mice = hasMany(Mouse.self)
    static let people = hasMany(Person.self)
    static let lineItems = hasMany(LineItem.self)
    var id: Int64
}

private struct Mouse: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var cageId: Int64
    var size: Int
}

private struct Person: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var cageId: Int64
}

private struct LineItem: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var cageId: Int64
    var price: Int
}

private struct Writer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "writer"
    var id: Int64
    var name: String
}

private struct Novel: Codable, FetchableRecord, PersistableRecord {
    // Replace the default "writer" association key with "author"
    static let author = belongsTo(Writer.self).forKey("author")
    var id: Int64
    var writerId: Int64
}

@Suite struct GRDBCompatAssociationConventionsTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "employee") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("managerId", .integer).indexed().references("employee", onDelete: .restrict)
                t.column("name", .text).notNull()
            }
            try db.create(table: "document") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "section") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("document").notNull()
            }
            try db.create(table: "paragraph") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("section").notNull()
                t.column("text", .text).notNull()
            }
            try db.create(table: "cage") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "mouse") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("cage").notNull()
                t.column("size", .integer).notNull()
            }
            try db.create(table: "person") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("cage").notNull()
            }
            try db.create(table: "lineItem") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("cage").notNull()
                t.column("price", .integer).notNull()
            }
            try db.create(table: "writer") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "novel") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("writer").notNull()
            }

            try Employee(id: 1, managerId: nil, name: "Boss").insert(db)
            try Employee(id: 2, managerId: 1, name: "Alice").insert(db)
            try Employee(id: 3, managerId: 1, name: "Bob").insert(db)
            try Document(id: 1).insert(db)
            try Section(id: 1, documentId: 1).insert(db)
            try Section(id: 2, documentId: 1).insert(db)
            try Paragraph(id: 1, sectionId: 1, text: "a").insert(db)
            try Paragraph(id: 2, sectionId: 2, text: "b").insert(db)
            try Paragraph(id: 3, sectionId: 2, text: "c").insert(db)
            try Cage(id: 1).insert(db)
            try Mouse(id: 1, cageId: 1, size: 3).insert(db)
            try Mouse(id: 2, cageId: 1, size: 5).insert(db)
            try Person(id: 1, cageId: 1).insert(db)
            try LineItem(id: 1, cageId: 1, price: 10).insert(db)
            try LineItem(id: 2, cageId: 1, price: 32).insert(db)
            try Writer(id: 1, name: "Herman Melville").insert(db)
            try Novel(id: 1, writerId: 1).insert(db)
        }
        return dbQueue
    }

    @Test func selfJoinsWithCustomKeys() throws {
        struct EmployeeInfo: FetchableRecord, Decodable {
            var employee: Employee
            var manager: Employee?
            var subordinates: Set<Employee>
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            let request = Employee
                .including(optional: Employee.manager)
                .including(all: Employee.subordinates)
                .order(Column("id"))
            return try EmployeeInfo.fetchAll(db, request)
        }
        #expect(infos.map(\.manager?.name) == [nil, "Boss", "Boss"])
        #expect(infos.map { Set($0.subordinates.map(\.name)) } == [["Alice", "Bob"], [], []])
    }

    @Test func throughAssociationsShortcutNestedOnes() throws {
        struct DocumentInfo: FetchableRecord, Decodable {
            var document: Document
            var paragraphs: [Paragraph]
        }
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let infos = try Document.including(all: Document.paragraphs.order(Column("id")))
                .asRequest(of: DocumentInfo.self).fetchAll(db)
            #expect(infos.first?.paragraphs.map(\.text) == ["a", "b", "c"])
            let explicit = try Document.including(all: Document.explicitParagraphs.order(Column("id")))
                .asRequest(of: DocumentInfo.self).fetchAll(db)
            #expect(explicit.first?.paragraphs.map(\.text) == ["a", "b", "c"])
            let document = try #require(try Document.fetchOne(db, key: 1))
            #expect(try document.request(for: Document.paragraphs).fetchCount(db) == 3)
        }
    }

    @Test func keysAndAggregateNamesFollowInflections() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let row = try #require(try Row.fetchOne(db, Cage
                .annotated(with:
                    Cage.mice.count,
                    Cage.mice.max(Column("size")),
                    Cage.people.count,
                    Cage.lineItems.sum(Column("price")))
                .including(all: Cage.mice)
                .including(all: Cage.people)
                .including(all: Cage.lineItems)))
            #expect(row["mouseCount"] == 2)
            #expect(row["maxMouseSize"] == 5)
            #expect(row["personCount"] == 1)
            #expect(row["lineItemPriceSum"] == 42)
            #expect(row.prefetchedRows["mice"]?.count == 2)
            #expect(row.prefetchedRows["people"]?.count == 1)
            #expect(row.prefetchedRows["lineItems"]?.count == 2)
        }
    }

    @Test func forKeyReplacesTheDefaultKey() throws {
        struct NovelInfo: Decodable, FetchableRecord {
            var novel: Novel
            var author: Writer
        }
        let dbQueue = try makeDatabase()
        let infos = try dbQueue.read { db in
            try Novel.including(required: Novel.author).asRequest(of: NovelInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.author.name) == ["Herman Melville"])
    }
}

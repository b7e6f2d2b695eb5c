import Foundation
import Testing
import Trellis

// The table a foreign key refers to, inferred by `belongsTo` and
// `references`: a self-reference under a plural table name, and tables
// without an explicit primary key, whose key is the rowid.

private struct Parent: Codable, FetchableRecord, PersistableRecord {
    var name: String
    static let children = hasMany(Child.self)
}

private struct Child: Codable, FetchableRecord, PersistableRecord {
    var name: String
    var parentId: Int64?
    static let parent = belongsTo(Parent.self)
}

/// A table whose link to `parent` is not a foreign key of the schema.
private struct Note: Codable, FetchableRecord, PersistableRecord {
    var text: String
    var parentId: Int64?
    static let parent = belongsTo(Parent.self, using: ForeignKey(["parentId"]))
}

@Suite struct ForeignKeyTargetInferenceTests {
    @Test func belongsToSelfUnderPluralTableName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "employees") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
                t.belongsTo("employee", onDelete: .setNull)
            }
            let foreignKeys = try db.foreignKeys(on: "employees")
            #expect(foreignKeys.count == 1)
            #expect(foreignKeys.first?.destinationTable == "employees")
            #expect(foreignKeys.first?.originColumns == ["employeeId"])
            #expect(foreignKeys.first?.destinationColumns == ["id"])
            try db.execute(sql: "INSERT INTO employees (id, name, employeeId) VALUES (1, 'Boss', NULL), (2, 'Clerk', 1)")
        }
    }

    @Test func belongsToSelfUnderSingularTableName() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "employee") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("employee")
            }
            #expect(try db.foreignKeys(on: "employee").first?.destinationTable == "employee")
        }
    }

    @Test func belongsToTableWithoutPrimaryKeyReferencesRowID() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "parent") { t in
                t.column("name", .text)
            }
            try db.create(table: "child") { t in
                t.column("name", .text)
                t.belongsTo("parent")
            }
            let foreignKey = try #require(try db.foreignKeys(on: "child").first)
            #expect(foreignKey.destinationTable == "parent")
            #expect(foreignKey.originColumns == ["parentId"])
            #expect(foreignKey.destinationColumns == ["rowid"])
            #expect(try db.columns(in: "child").map(\.name) == ["name", "parentId"])
        }
    }

    @Test func referencesToTableWithoutPrimaryKeyReferencesRowID() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "parent") { t in
                t.column("name", .text)
            }
            try db.create(table: "child") { t in
                t.column("name", .text)
                t.column("parentId", .integer).references("parent")
            }
            try db.create(table: "nodes") { t in
                t.column("name", .text)
                t.column("parentId", .integer).references("nodes")
            }
            #expect(try db.foreignKeys(on: "child").first?.destinationColumns == ["rowid"])
            #expect(try db.foreignKeys(on: "nodes").first?.destinationColumns == ["rowid"])
        }
    }

    @Test func associationsToTableWithoutPrimaryKeyJoinOnRowID() throws {
        // Foreign key enforcement is off: SQLite does not accept the rowid
        // as a parent key when it checks foreign keys.
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "parent") { t in
                t.column("name", .text)
            }
            try db.create(table: "child") { t in
                t.column("name", .text)
                t.belongsTo("parent")
            }
            try db.execute(sql: """
                INSERT INTO parent (rowid, name) VALUES (1, 'Arthur'), (2, 'Barbara');
                INSERT INTO child (name, parentId) VALUES ('Craig', 2), ('David', 1);
                """)
            let rows = try Child.annotated(withRequired: Child.parent.select(Column("name").forKey("parentName")))
                .order(Column("name"))
                .asRequest(of: Row.self)
                .fetchAll(db)
            #expect(rows.map { $0["parentName"] as String? } == ["Barbara", "Arthur"])

            try db.create(table: "note") { t in
                t.column("text", .text)
                t.column("parentId", .integer)
            }
            try db.execute(sql: "INSERT INTO note (text, parentId) VALUES ('first', 1), ('second', 2)")
            let notes = try Note.joining(required: Note.parent.filter(Column("name") == "Arthur")).fetchAll(db)
            #expect(notes.map(\.text) == ["first"])
            let parents = try Parent.annotated(with: Parent.children.count).order(Column("name")).asRequest(of: Row.self).fetchAll(db)
            #expect(parents.map { $0["childCount"] as Int? } == [1, 1])
        }
    }

    @Test func selfReferenceWithoutPrimaryKeyJoinsOnRowID() throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "nodes") { t in
                t.column("name", .text)
                t.belongsTo("node")
            }
            #expect(try db.foreignKeys(on: "nodes").first?.destinationColumns == ["rowid"])
            try db.execute(sql: "INSERT INTO nodes (rowid, name, nodeId) VALUES (1, 'root', NULL), (2, 'leaf', 1)")
            let parentName = try Row.fetchOne(db, sql: """
                SELECT parent.name FROM nodes JOIN nodes parent ON parent.rowid = nodes.nodeId
                """)?["name"] as String?
            #expect(parentName == "root")
        }
    }

    @Test func viewsHaveNoUniqueKey() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique()
            }
            try db.create(view: "playerView", as: SQLRequest<Row>(sql: "SELECT * FROM player"))
            #expect(try !db.table("playerView", hasUniqueKey: ["id"]))
            #expect(try !db.table("playerView", hasUniqueKey: ["email"]))
            #expect(try !db.table("playerView", hasUniqueKey: ["rowid"]))
            #expect(try db.table("player", hasUniqueKey: ["id"]))
        }
    }

    private struct ViewKeys: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "playerView" ? ["id"] : nil
        }
    }

    @Test func viewWithSchemaSourcePrimaryKeyHasThatUniqueKey() throws {
        var config = Configuration()
        config.schemaSource = ViewKeys()
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("email", .text).unique()
            }
            try db.create(view: "playerView", as: SQLRequest<Row>(sql: "SELECT * FROM player"))
            #expect(try db.table("playerView", hasUniqueKey: ["id"]))
            #expect(try db.table("playerView", hasUniqueKey: ["id", "email"]))
            #expect(try !db.table("playerView", hasUniqueKey: ["email"]))
        }
    }
}

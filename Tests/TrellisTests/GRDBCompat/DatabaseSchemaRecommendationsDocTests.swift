import Foundation
import Testing
import Trellis

// GRDB's DatabaseSchemaRecommendations.md: its samples, with the SQL and
// the errors that GRDB 7 gives for them (where GRDB stops the process on a
// missing unique index, Trellis throws GRDB's message).

// MARK: Table names should be English, singular, and camelCased

private struct PluralPlayer: Codable, FetchableRecord, PersistableRecord {
    // Required because table name is not 'player'
    static let databaseTableName = "players"
    // Explicit association key because the table name is not 'postalAddress'
    static let postalAddress = belongsTo(PostalAddress.self, key: "postalAddress")
    // Explicit association key because the table name is not 'award'
    static let awards = hasMany(Award.self, key: "awards")
    var id: Int64
    var postalAddressId: Int64
}

private struct PostalAddress: Codable, FetchableRecord, PersistableRecord {
    // Required because table name is not 'postalAddress'
    static let databaseTableName = "postal_address"
    var id: Int64
    var city: String
}

private struct Award: Codable, FetchableRecord, PersistableRecord {
    // Required because table name is not 'award'
    static let databaseTableName = "Auszeichnung"
    var id: Int64
    var playerId: Int64
    var name: String
}

// MARK: Column names should be camelCased

private struct SnakeCasePlayer: Decodable, FetchableRecord, TableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var fullName: String
    var score: Int
    var creationDate: Date

    // Required CodingKeys customization because
    // columns are not named like Swift properties
    enum CodingKeys: String, CodingKey {
        case id, fullName = "full_name", score, creationDate = "creation_date"
    }
}

// MARK: Tables should have explicit primary keys

private struct RowIDPlayer: Codable {
    static let databaseTableName = "player"
    // Uniquely identifies a player.
    var rowid: Int64?
    var name: String
    var score: Int
}

extension RowIDPlayer: FetchableRecord, MutablePersistableRecord {
    // Required because the primary key
    // is the hidden rowid column.
    static var databaseSelection: [any SQLSelectable] {
        [.allColumns, .rowID]
    }

    // Update id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        rowid = inserted.rowID
    }
}

// MARK: Single-column primary keys should be named 'id'

private struct UUIDPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var id: String
    var name: String

    // Required CodingKeys customization because
    // columns are not named like Swift properties
    enum CodingKeys: String, CodingKey {
        case id = "uuid", name
    }
}

private struct UUIDPropertyPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var uuid: String
    var name: String

    // Required because the primary key column is not 'id'
    var id: String { uuid }
}

// MARK: Unique keys and foreign keys

private struct TeamPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    static let team = belongsTo(Team.self)
    var id: Int64
    var teamId: Int64
    var position: Int
    var name: String?

    enum Columns {
        static let teamId = Column("teamId")
        static let position = Column("position")
        static let name = Column("name")
    }
}

private struct Team: Codable, FetchableRecord, PersistableRecord {
    static let players = hasMany(TeamPlayer.self)
    var id: Int64
    var color: String
}

private struct UnlinkedPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    // Required configuration because the database does
    // not declare any foreign key from players to their team.
    static let teamForeignKey = ForeignKey(["teamId"])
    static let team = belongsTo(UnlinkedTeam.self, using: teamForeignKey)
    var id: Int64
    var name: String
    var teamId: Int64
}

private struct UnlinkedTeam: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "team"
    // Required configuration because the database does
    // not declare any foreign key from players to their team.
    static let players = hasMany(UnlinkedPlayer.self, using: UnlinkedPlayer.teamForeignKey)
    var id: Int64
    var color: String
}

@Suite struct DatabaseSchemaRecommendationsDocTests {
    @Test func explicitTableNamesAndAssociationKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "postal_address") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("city", .text).notNull()
            }
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("postalAddress", inTable: "postal_address").notNull()
            }
            try db.create(table: "Auszeichnung") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("player", inTable: "players").notNull()
                t.column("name", .text).notNull()
            }
            try PostalAddress(id: 1, city: "Paris").insert(db)
            try PluralPlayer(id: 1, postalAddressId: 1).insert(db)
            try Award(id: 1, playerId: 1, name: "Gold").insert(db)

            let row = try PluralPlayer
                .including(required: PluralPlayer.postalAddress)
                .including(all: PluralPlayer.awards)
                .asRequest(of: Row.self)
                .fetchOne(db)
            #expect(row?.scopes["postalAddress"]?["city"] == "Paris")
            #expect(row?.prefetchedRows["awards"]?.map { $0["name"] as String } == ["Gold"])
        }
    }

    @Test func codingKeysForSnakeCaseColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("full_name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("creation_date", .datetime).notNull()
            }
            try db.execute(sql: """
                INSERT INTO player (full_name, score, creation_date) VALUES ('Arthur', 100, '2024-01-02 03:04:05')
                """)
            let player = try SnakeCasePlayer.fetchOne(db)
            #expect(player?.fullName == "Arthur")
            #expect(player?.score == 100)
            #expect(player?.creationDate == Date(timeIntervalSince1970: 1_704_164_645))
        }
    }

    @Test func explicitPrimaryKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    // Auto-incremented primary key
                    t.autoIncrementedPrimaryKey("id")
                    t.column("name", .text).notNull()
                }
                try db.create(table: "team") { t in
                    // Single-column primary key
                    t.primaryKey("id", .text)
                    t.column("name", .text).notNull()
                }
                try db.create(table: "membership") { t in
                    // Composite primary key
                    t.primaryKey {
                        t.belongsTo("player")
                        t.belongsTo("team")
                    }
                    t.column("role", .text).notNull()
                }
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "name" TEXT NOT NULL)"#,
                #"CREATE TABLE "team" ("id" TEXT PRIMARY KEY NOT NULL, "name" TEXT NOT NULL)"#,
                #"CREATE TABLE "membership" ("playerId" INTEGER NOT NULL REFERENCES "player"("id"), "teamId" TEXT NOT NULL REFERENCES "team"("id"), "role" TEXT NOT NULL, PRIMARY KEY ("playerId", "teamId"))"#,
            ])
            #expect(try db.primaryKey("membership").columns == ["playerId", "teamId"])
        }
    }

    @Test func recordOfATableWithoutExplicitPrimaryKey() throws {
        final class Log: @unchecked Sendable { var statements: [String] = [] }
        let log = Log()
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            // A table without any explicit primary key
            try db.create(table: "player") { t in
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            var player = RowIDPlayer(name: "Arthur", score: 100)
            try player.insert(db)
            #expect(player.rowid == 1)
        }
        // The article reads with `dbQueue.read` and deletes: GRDB then
        // fails with "attempt to write a readonly database". It also calls
        // `fetchOne(_:id:)`, which needs Identifiable: `key:` is what
        // compiles, in GRDB as in Trellis.
        try dbQueue.write { db in
            db.trace { log.statements.append($0.description) }
            // SELECT *, rowid FROM player WHERE rowid = 1
            if let player = try RowIDPlayer.fetchOne(db, key: 1) {
                #expect(player.rowid == 1)
                #expect(player.name == "Arthur")
                // DELETE FROM player WHERE rowid = 1
                let deleted = try player.delete(db)
                #expect(deleted)
            } else {
                Issue.record("expected a player")
            }
            db.trace(nil)
        }
        #expect(log.statements.filter { $0.hasPrefix("SELECT *") || $0.hasPrefix("DELETE") } == [
            #"SELECT *, "rowid" FROM "player" WHERE "rowid" = ?"#,
            #"DELETE FROM "player" WHERE "rowid" = ?"#,
        ])
        #expect(try dbQueue.read { db in try RowIDPlayer.fetchCount(db) } == 0)
    }

    @Test func primaryKeysNotNamedId() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("uuid", .text)
                t.column("name", .text).notNull()
            }
            try UUIDPlayer(id: "A", name: "Arthur").insert(db)
            try UUIDPropertyPlayer(uuid: "B", name: "Barbara").insert(db)
            #expect(try UUIDPlayer.fetchOne(db, id: "B")?.name == "Barbara")
            #expect(try UUIDPropertyPlayer.fetchOne(db, id: "A")?.name == "Arthur")
            #expect(try UUIDPlayer.deleteOne(db, id: "A"))
            #expect(try UUIDPropertyPlayer.fetchAll(db).map(\.id) == ["B"])
        }
    }

    @Test func uniqueKeysSupportedByUniqueIndexes() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("color", .text).notNull()
            }
            let statements = try SchemaStatementLog.statements(db) {
                try db.create(table: "player") { t in
                    t.autoIncrementedPrimaryKey("id")
                    t.belongsTo("team").notNull()
                    t.column("position", .integer).notNull()
                    // Players must have distinct names
                    t.column("name", .text).unique()
                }
                // One single player at any given position in a team
                try db.create(
                    indexOn: "player",
                    columns: ["teamId", "position"],
                    options: .unique)
            }
            #expect(statements == [
                #"CREATE TABLE "player" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, "teamId" INTEGER NOT NULL REFERENCES "team"("id"), "position" INTEGER NOT NULL, "name" TEXT UNIQUE)"#,
                #"CREATE INDEX "player_on_teamId" ON "player"("teamId")"#,
                #"CREATE UNIQUE INDEX "index_player_on_teamId_position" ON "player"("teamId", "position")"#,
            ])
            try Team(id: 1, color: "red").insert(db)
            try TeamPlayer(id: 1, teamId: 1, position: 1, name: "Arthur").insert(db)
            #expect(throws: DatabaseError.self) {
                try TeamPlayer(id: 2, teamId: 1, position: 1, name: "Barbara").insert(db)
            }
            #expect(try TeamPlayer.fetchOne(db, key: ["teamId": 1, "position": 1])?.name == "Arthur")
            #expect(try TeamPlayer.deleteOne(db, key: ["name": "Arthur"]))

            // The index, unlike the unique constraint, can be dropped.
            try db.drop(indexOn: "player", columns: ["teamId", "position"])
            #expect(try !db.table("player", hasUniqueKey: ["teamId", "position"]))
            #expect(throws: DatabaseError.self) {
                try db.drop(indexOn: "player", columns: ["name"])
            }
        }
    }

    @Test func missingUniqueIndexesAreErrors() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team").notNull()
                t.column("position", .integer).notNull()
                t.column("name", .text)
            }
            // GRDB: "Fatal error: table player has no unique key on column(s) position, teamId"
            do {
                _ = try TeamPlayer.fetchOne(db, key: ["teamId": 42, "position": 1])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "table player has no unique key on column(s) position, teamId")
            }
            do {
                _ = try TeamPlayer.deleteOne(db, key: ["name": "Arthur"])
                Issue.record("expected an error")
            } catch let error as DatabaseError {
                #expect(error.message == "table player has no unique key on column(s) name")
            }

            // Use instead:
            let player = try TeamPlayer
                .filter { $0.teamId == 42 && $0.position == 1 }
                .fetchOne(db)
            #expect(player == nil)
            try TeamPlayer
                .filter { $0.name == "Arthur" }
                .deleteAll(db)
        }
    }

    @Test func foreignKeysConfigureAssociations() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("color", .text).notNull()
            }
            // RECOMMENDED
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                // A player must refer to an existing team
                t.belongsTo("team").notNull()
            }
            try Team(id: 1, color: "red").insert(db)
            try db.execute(sql: "INSERT INTO player (id, name, teamId) VALUES (1, 'Arthur', 1)")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (id, name, teamId) VALUES (2, 'Barbara', 2)")
            }
            let team = try TeamPlayer.including(required: TeamPlayer.team).asRequest(of: Row.self).fetchOne(db)
            #expect(team?.scopes["team"]?["color"] == "red")
            #expect(try Team.annotated(with: Team.players.count).asRequest(of: Row.self).fetchOne(db)?["playerCount"] == 1)
        }
    }

    @Test func associationsWithoutForeignKeysNeedExplicitForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("color", .text).notNull()
            }
            // REQUIRES EXTRA CONFIGURATION
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                // No foreign key
                t.column("teamId", .integer).notNull()
            }
            try UnlinkedTeam(id: 1, color: "red").insert(db)
            try UnlinkedPlayer(id: 1, name: "Arthur", teamId: 1).insert(db)
            let row = try UnlinkedPlayer.including(required: UnlinkedPlayer.team).asRequest(of: Row.self).fetchOne(db)
            #expect(row?.scopes["team"]?["color"] == "red")
            let teams = try UnlinkedTeam.including(all: UnlinkedTeam.players).asRequest(of: Row.self).fetchAll(db)
            #expect(teams.first?.prefetchedRows["players"]?.count == 1)
        }
    }
}

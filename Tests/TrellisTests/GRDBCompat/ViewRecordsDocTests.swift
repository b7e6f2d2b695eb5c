import Foundation
import Testing
import Trellis

// Snippets from GRDB's "View Records" guide, written as the documentation
// writes them.

private struct Team: Codable, Identifiable, FetchableRecord, PersistableRecord, Equatable {
    var id: String
    var name: String
}

private struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var teamId: String?
    var isCaptain: Bool
}

private struct Captain: Decodable, Identifiable, FetchableRecord, Equatable {
    var id: String
    var name: String
    var teamId: String
}

extension Captain {
    // Time to define some columns
    enum Columns {
        static let teamId = Column(CodingKeys.teamId)
    }

    // The captain view has a foreign key to teams,
    // from the teamId column to the team primary key.
    // SQLite does not know about it, so we declare it explicitly:
    static let teamForeignKey = ForeignKey([Columns.teamId])

    // A captain belongs to a team.
    static let team = belongsTo(Team.self, using: teamForeignKey)
}

extension Team {
    // A team has a captain.
    static let captain = hasOne(Captain.self, using: Captain.teamForeignKey)
}

extension Captain: Encodable, PersistableRecord {}

private struct GameSchemaSource: DatabaseSchemaSource {
    /// Returns the names of the columns for the primary key in the
    /// provided database view.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        ["id"]
    }
}

/// Collects what `dumpTables` prints.
private final class DumpOutput: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
}

@Suite struct GRDBCompatViewRecordsTests {
    private func makeMigrator() -> DatabaseMigrator {
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Teams and players") { db throws in
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }

            try db.create(table: "player") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
                t.belongsTo("team", onDelete: .setNull)
                t.column("isCaptain", .boolean).notNull()
            }

            // One unique captain per team
            try db.create(
                indexOn: "player", columns: ["teamId"],
                options: .unique,
                condition: Column("isCaptain"))
        }
        migrator.registerMigration("Read-only captains") { db throws in
            try db.execute(sql: """
                CREATE VIEW captain AS
                SELECT id, name, teamId
                FROM player
                WHERE isCaptain AND teamId IS NOT NULL;
                """)
        }
        return migrator
    }

    private func insertTeamsAndPlayers(_ db: Database) throws {
        try Team(id: "red", name: "Red").insert(db)
        try Team(id: "blue", name: "Blue").insert(db)
        try Player(id: "alice", name: "Alice", teamId: "red", isCaptain: true).insert(db)
        try Player(id: "bob", name: "Bob", teamId: "blue", isCaptain: true).insert(db)
        try Player(id: "craig", name: "Craig", teamId: "blue", isCaptain: false).insert(db)
    }

    private func makeDatabase(writable: Bool) throws -> DatabaseQueue {
        var config = Configuration()
        config.schemaSource = GameSchemaSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        var migrator = makeMigrator()
        if writable {
            migrator.registerMigration("Captain insert") { db throws in
                try db.execute(sql: """
                    -- Insert trigger
                    CREATE TRIGGER captain_insert
                    INSTEAD OF INSERT ON captain
                    BEGIN
                        -- Remove previous captain
                        UPDATE player SET isCaptain = 0
                        WHERE teamId = NEW.teamId AND isCaptain;

                        -- Insert new captain
                        INSERT INTO player(id, name, teamId, isCaptain)
                        VALUES (NEW.id, NEW.name, NEW.teamId, 1);
                    END;
                    """)
            }
            migrator.registerMigration("Captain update") { db throws in
                try db.execute(sql: """
                    -- Update trigger
                    CREATE TRIGGER captain_update
                    INSTEAD OF UPDATE ON captain
                    BEGIN
                        -- Remove previous captain
                        UPDATE player SET isCaptain = 0
                        WHERE teamId = NEW.teamId AND isCaptain AND id <> NEW.id;

                        -- Update captain
                        UPDATE player SET name = NEW.name, teamId = NEW.teamId, isCaptain = 1
                        WHERE id = NEW.id;
                    END;
                    """)
            }
            migrator.registerMigration("Captain delete") { db throws in
                try db.execute(sql: """
                    -- Delete trigger
                    CREATE TRIGGER captain_delete
                    INSTEAD OF DELETE ON captain
                    BEGIN
                        DELETE FROM player WHERE id = OLD.id;
                    END;
                    """)
            }
        }
        try migrator.migrate(dbQueue)
        return dbQueue
    }

    private func dump(_ db: Database) throws -> String {
        let output = DumpOutput()
        try db.dumpTables(["team", "player", "captain"], to: output)
        return output.text
    }

    @Test func readOnlyView() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db throws in
            try insertTeamsAndPlayers(db)

            // OK: Works out of the box
            let captains = try Captain.fetchAll(db)
            #expect(captains.sorted { $0.id < $1.id } == [
                Captain(id: "alice", name: "Alice", teamId: "red"),
                Captain(id: "bob", name: "Bob", teamId: "blue"),
            ])
            let captainCount = try Captain.fetchCount(db)
            #expect(captainCount == 2)

            // KO: Requires extra configuration
            // SQLite error 1: database view captain has no primary key
            let findError = #expect(throws: DatabaseError.self) {
                _ = try Captain.find(db, id: "bob")
            }
            #expect(findError?.resultCode == .SQLITE_ERROR)
            #expect(findError?.message == "database view captain has no primary key")

            // SQLite error 1: cannot modify captain because it is a view
            let bob = Captain(id: "bob", name: "Bobby", teamId: "blue")
            let updateError = #expect(throws: DatabaseError.self) {
                try bob.update(db)
            }
            #expect(updateError?.resultCode == .SQLITE_ERROR)
            #expect(try Captain.fetchAll(db).map(\.name).sorted() == ["Alice", "Bob"])

            // SQLite refuses to modify a view without a trigger.
            let sqlError = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE captain SET name = 'Bobby' WHERE id = 'bob'")
            }
            #expect(sqlError?.message == "cannot modify captain because it is a view")
        }
    }

    @Test func primaryKeyOfAView() throws {
        let dbQueue = try makeDatabase(writable: false)
        try dbQueue.write { db throws in
            try insertTeamsAndPlayers(db)
            let captains = try Captain.orderByPrimaryKey().fetchAll(db)
            #expect(captains.map(\.id) == ["alice", "bob"])
            #expect(try Captain.orderByPrimaryKey().makePreparedRequest(db).statement.sql
                == #"SELECT * FROM "captain" ORDER BY "id""#)
            let alice = try Captain.find(db, id: "alice")
            #expect(alice.name == "Alice")
            #expect(try db.primaryKey("captain").columns == ["id"])
        }
    }

    @Test func associationsBetweenViews() throws {
        let dbQueue = try makeDatabase(writable: false)
        try dbQueue.write { db throws in
            try insertTeamsAndPlayers(db)
            try Team(id: "green", name: "Green").insert(db)

            // All teams with a captain
            let teamsWithCaptain: [Team] = try Team
                .joining(required: Team.captain)
                .order(Column("id"))
                .fetchAll(db)
            #expect(teamsWithCaptain.map(\.id) == ["blue", "red"])

            // All (captain, team) pairs
            struct CaptainWithTeam: Decodable, FetchableRecord {
                var captain: Captain
                var team: Team
            }
            let captainsWithTeam: [CaptainWithTeam] = try Captain
                .including(required: Captain.team)
                .asRequest(of: CaptainWithTeam.self)
                .fetchAll(db)
            #expect(captainsWithTeam.map { "\($0.captain.name) \($0.team.name)" }.sorted() == ["Alice Red", "Bob Blue"])
        }
    }

    @Test func insertIntoAView() throws {
        let dbQueue = try makeDatabase(writable: true)
        try dbQueue.write { db throws in
            try Team(id: "green", name: "Green").insert(db)
            // Diane is the captain
            try Captain(id: "diane", name: "Diane", teamId: "green").insert(db)
            // Well, no: Eugene is the captain
            try Captain(id: "eugene", name: "Eugene", teamId: "green").insert(db)

            // team          player                  captain
            // green|Green   diane|Diane|green|0     eugene|Eugene|green
            //               eugene|Eugene|green|1
            #expect(try dump(db) == """
                team
                green|Green

                player
                diane|Diane|green|0
                eugene|Eugene|green|1

                captain
                eugene|Eugene|green

                """)
        }
    }

    @Test func updateAView() throws {
        let dbQueue = try makeDatabase(writable: true)
        try dbQueue.write { db throws in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)

            // Bob is the Blue captain.
            var bob = Captain(id: "bob", name: "Bob", teamId: "blue")
            try bob.insert(db)

            // Bob is now Bobby, the Red captain.
            // Alice is no longer the Red captain.
            try bob.updateChanges(db) {
                $0.name = "Bobby"
                $0.teamId = "red"
            }

            // team        player              captain
            // blue|Blue   alice|Alice|red|0   bob|Bobby|red
            // red|Red     bob|Bobby|red|1
            #expect(try dump(db) == """
                team
                blue|Blue
                red|Red

                player
                alice|Alice|red|0
                bob|Bobby|red|1

                captain
                bob|Bobby|red

                """)
        }
    }

    @Test func deleteFromAView() throws {
        let dbQueue = try makeDatabase(writable: true)
        try dbQueue.write { db throws in
            try insertTeamsAndPlayers(db)
            try Player(id: "diane", name: "Diane", teamId: nil, isCaptain: false).insert(db)

            // Delete Alice
            try Captain.deleteOne(db, id: "alice")
            #expect(try Player.fetchOne(db, id: "alice") == nil)

            // Delete Bob
            let bob = try Captain.find(db, id: "bob")
            try bob.delete(db)
            #expect(try Player.fetchOne(db, id: "bob") == nil)

            // Delete all captains
            try Player(id: "eugene", name: "Eugene", teamId: "red", isCaptain: true).insert(db)
            try Captain.deleteAll(db)
            #expect(try Player.order(Column("id")).fetchAll(db).map(\.id) == ["craig", "diane"])
        }
    }
}

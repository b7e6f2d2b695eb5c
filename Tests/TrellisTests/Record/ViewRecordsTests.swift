import Testing
import Trellis

// The samples of GRDB's "View Records" article, with its slips fixed:
// `dbQueue.write {` takes `db in`, and `Captain.deleteAll()` takes `db`.
// The results below (errors, dumps, counts) are those of GRDB 7 for the
// same code.

private struct Team: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
}

private struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
    var id: String
    var name: String
    var teamId: String?
    var isCaptain: Bool
}

private struct Captain: Decodable, Identifiable, FetchableRecord {
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

extension Captain: Encodable, PersistableRecord { }

private struct GameSchemaSource: DatabaseSchemaSource {
    /// Returns the names of the columns for the primary key in the
    /// provided database view.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        ["id"]
    }
}

/// Captures what the dump methods print.
private final class Output: TextOutputStream {
    var text = ""
    func write(_ string: String) { text += string }
}

/// The tables of the article, which both shapes of the captain view read.
private func createTeamsAndPlayers(_ db: Database) throws {
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
}

private func makeMigrator() -> DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("Teams and players") { db in
        try createTeamsAndPlayers(db)

        // One unique captain per team
        try db.create(
            indexOn: "player", columns: ["teamId"],
            options: .unique,
            condition: Column("isCaptain"))
    }
    migrator.registerMigration("Read-only captains") { db in
        try db.execute(sql: """
            CREATE VIEW captain AS
            SELECT id, name, teamId
            FROM player
            WHERE isCaptain AND teamId IS NOT NULL;
            """)
    }
    return migrator
}

private func registerTriggers(_ migrator: inout DatabaseMigrator) {
    let triggers = [
        ("Captain insert", """
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
            """),
        ("Captain update", """
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
            """),
        ("Captain delete", """
            -- Delete trigger
            CREATE TRIGGER captain_delete
            INSTEAD OF DELETE ON captain
            BEGIN
                DELETE FROM player WHERE id = OLD.id;
            END;
            """),
    ]
    for (name, sql) in triggers {
        migrator.registerMigration(name) { db in try db.execute(sql: sql) }
    }
}

private func insertTeamsAndPlayers(_ db: Database) throws {
    try Team(id: "red", name: "Red").insert(db)
    try Team(id: "blue", name: "Blue").insert(db)
    try Player(id: "alice", name: "Alice", teamId: "red", isCaptain: true).insert(db)
    try Player(id: "bob", name: "Bob", teamId: "blue", isCaptain: true).insert(db)
    try Player(id: "craig", name: "Craig", teamId: "blue", isCaptain: false).insert(db)
}

/// A database queue whose connection knows the primary key of captains.
private func makeConfiguredQueue(migrator: DatabaseMigrator) throws -> DatabaseQueue {
    var config = Configuration()
    config.schemaSource = GameSchemaSource()
    let dbQueue = try DatabaseQueue(configuration: config)
    try migrator.migrate(dbQueue)
    return dbQueue
}

/// A configured database queue whose captains can be inserted, updated
/// and deleted through the INSTEAD OF triggers of the article.
private func makeQueueWithTriggers() throws -> DatabaseQueue {
    var migrator = makeMigrator()
    registerTriggers(&migrator)
    return try makeConfiguredQueue(migrator: migrator)
}

/// What `dumpTables` prints for the teams, the players and the captains.
private func dumpGame(_ db: Database) throws -> String {
    let output = Output()
    try db.dumpTables(["team", "player", "captain"], to: output)
    return output.text
}

@Suite struct ViewRecordsTests {
    @Test func viewRecordsFetchOutOfTheBox() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)

            let captains = try Captain.fetchAll(db)
            // Prints:
            //  Captain(id: "alice", name: "Alice", teamId: "red")
            //  Captain(id: "bob", name: "Bob", teamId: "blue")
            #expect(Set(captains.map { "\($0.id) \($0.name) \($0.teamId)" }) == ["alice Alice red", "bob Bob blue"])
            let captainCount = try Captain.fetchCount(db)
            #expect(captainCount == 2)
            #expect(try db.columns(in: "captain").map(\.name) == ["id", "name", "teamId"])
        }
    }

    @Test func aViewHasNoPrimaryKeyWithoutASchemaSource() throws {
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            let message = "database view captain has no primary key"
            // KO: Requires extra configuration
            // SQLite error 1: database view captain has no primary key
            for operation in [
                { _ = try Captain.find(db, id: "bob") },
                { _ = try db.primaryKey("captain") },
                { try Captain(id: "bob", name: "Bobby", teamId: "blue").update(db) },
                { try Captain(id: "bob", name: "Bob", teamId: "blue").delete(db) },
                { _ = try Captain.orderByPrimaryKey().fetchAll(db) },
            ] as [() throws -> Void] {
                let error = try #require(throws: DatabaseError.self) { try operation() }
                #expect(error.resultCode == .SQLITE_ERROR)
                #expect(error.message == message)
            }
            // The connection is still usable, and the update changed nothing.
            #expect(try Captain.fetchCount(db) == 2)
            #expect(try Captain.fetchAll(db).map(\.name).sorted() == ["Alice", "Bob"])

            // Without an INSTEAD OF trigger, SQLite itself refuses to modify the view.
            let sqlError = try #require(throws: DatabaseError.self) {
                try db.execute(sql: "UPDATE captain SET name = 'Bobby' WHERE id = 'bob'")
            }
            #expect(sqlError.message == "cannot modify captain because it is a view")
        }
    }

    @Test func aSchemaSourceGivesThePrimaryKeyOfAView() throws {
        let dbQueue = try makeConfiguredQueue(migrator: makeMigrator())
        try dbQueue.write { db in
            // [Insert some teams and players...]
            try insertTeamsAndPlayers(db)
            let request = Captain.orderByPrimaryKey()
            #expect(try request.makePreparedRequest(db).statement.sql == #"SELECT * FROM "captain" ORDER BY "id""#)
            let captains = try request.fetchAll(db)
            #expect(captains.map(\.id) == ["alice", "bob"])
            let alice = try Captain.find(db, id: "alice")
            #expect(alice.name == "Alice")
            let primaryKey = try db.primaryKey("captain")
            #expect(primaryKey.columns == ["id"])
            #expect(primaryKey.rowIDColumn == nil)
            #expect(db.schemaSource is GameSchemaSource)

            // Without an INSTEAD OF trigger, SQLite refuses to modify the view.
            let error = try #require(throws: DatabaseError.self) {
                try Captain(id: "bob", name: "Bobby", teamId: "blue").update(db)
            }
            #expect(error.message == "cannot modify captain because it is a view")
            #expect(error.sql?.hasPrefix(#"UPDATE "captain" SET "name""#) == true)
        }
    }

    @Test func associationsBetweenViews() throws {
        let dbQueue = try makeConfiguredQueue(migrator: makeMigrator())
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            try Team(id: "green", name: "Green").insert(db)

            // All teams with a captain
            let teamsWithCaptain: [Team] = try Team
                .joining(required: Team.captain)
                .fetchAll(db)
            #expect(Set(teamsWithCaptain.map(\.id)) == ["red", "blue"])
            let orderedTeamIds = try Team
                .joining(required: Team.captain)
                .order(Column("id"))
                .fetchAll(db)
                .map(\.id)
            #expect(orderedTeamIds == ["blue", "red"])

            // All (captain, team) pairs
            struct CaptainWithTeam: Decodable, FetchableRecord {
                var captain: Captain
                var team: Team
            }
            let captainsWithTeam: [CaptainWithTeam] = try Captain
                .including(required: Captain.team)
                .asRequest(of: CaptainWithTeam.self)
                .fetchAll(db)
            #expect(Set(captainsWithTeam.map { "\($0.captain.name) \($0.team.name)" }) == ["Alice Red", "Bob Blue"])
        }
    }

    @Test func insertingRowsIntoAView() throws {
        let dbQueue = try makeQueueWithTriggers()
        let dump = try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Team(id: "green", name: "Green").insert(db)
            try Player(id: "alice", name: "Alice", teamId: "red", isCaptain: true).insert(db)
            try Player(id: "bob", name: "Bob", teamId: "blue", isCaptain: true).insert(db)
            // Diane is the captain
            try Captain(id: "diane", name: "Diane", teamId: "green").insert(db)
            // Well, no: Eugene is the captain
            try Captain(id: "eugene", name: "Eugene", teamId: "green").insert(db)

            // Prints:
            // team          player                  captain
            // green|Green   diane|Diane|green|0     eugene|Eugene|green
            //               eugene|Eugene|green|1
            return try dumpGame(db)
        }
        #expect(dump == """
            team
            blue|Blue
            green|Green
            red|Red

            player
            alice|Alice|red|1
            bob|Bob|blue|1
            diane|Diane|green|0
            eugene|Eugene|green|1

            captain
            bob|Bob|blue
            eugene|Eugene|green
            alice|Alice|red

            """)
    }

    @Test func updatingRowsInAView() throws {
        let dbQueue = try makeQueueWithTriggers()
        let dump = try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Captain(id: "alice", name: "Alice", teamId: "red").insert(db)

            // Bob is the Blue captain.
            var bob = Captain(id: "bob", name: "Bob", teamId: "blue")
            try bob.insert(db)

            // Bob is now Bobby, the Red captain.
            // Alice is no longer the Red captain.
            let modified = try bob.updateChanges(db) {
                $0.name = "Bobby"
                $0.teamId = "red"
            }
            #expect(modified)

            // Prints:
            // team        player              captain
            // blue|Blue   alice|Alice|red|0   bob|Bobby|red
            // red|Red     bob|Bobby|red|1
            let text = try dumpGame(db)

            // An update that changes no row of the view is a missing record.
            #expect(throws: RecordError.self) {
                try Captain(id: "nobody", name: "Nobody", teamId: "red").update(db)
            }
            return text
        }
        #expect(dump == """
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

    @Test func deletingRowsFromAView() throws {
        let dbQueue = try makeQueueWithTriggers()
        try dbQueue.write { db in
            try Team(id: "red", name: "Red").insert(db)
            try Team(id: "blue", name: "Blue").insert(db)
            try Player(id: "alice", name: "Alice", teamId: "red", isCaptain: false).insert(db)
            try Player(id: "bob", name: "Bobby", teamId: "red", isCaptain: true).insert(db)
        }
        let dump = try dbQueue.write { db in
            // Delete Alice, who is not a captain: no row of the view
            let aliceDeleted = try Captain.deleteOne(db, id: "alice")
            #expect(aliceDeleted == false)

            // Delete Bob
            let bob = try Captain.find(db, id: "bob")
            let bobDeleted = try bob.delete(db)
            #expect(bobDeleted)

            // Delete all captains
            try Captain.deleteAll(db)
            return try dumpGame(db)
        }
        #expect(dump == """
            team
            blue|Blue
            red|Red

            player
            alice|Alice|red|0

            captain

            """)
    }

    @Test func deletingCaptainsThroughAViewDeletesThoseRowsOfTheTableOnly() throws {
        let dbQueue = try makeQueueWithTriggers()
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            try Player(id: "diane", name: "Diane", teamId: nil, isCaptain: false).insert(db)

            // Alice, a captain, is deleted from the player table.
            #expect(try Captain.deleteOne(db, id: "alice"))
            #expect(try Player.fetchOne(db, id: "alice") == nil)

            // So is Bob, fetched from the view.
            let bob = try Captain.find(db, id: "bob")
            #expect(try bob.delete(db))
            #expect(try Player.fetchOne(db, id: "bob") == nil)

            // Deleting all captains keeps the players who are not in the
            // view: Craig, who is no captain, and Diane, who has no team.
            try Player(id: "eugene", name: "Eugene", teamId: "red", isCaptain: true).insert(db)
            try Captain.deleteAll(db)
            #expect(try Player.order(Column("id")).fetchAll(db).map(\.id) == ["craig", "diane"])
        }
    }

    @Test func schemaSourcesAreCheckedAndCombined() throws {
        struct NoKey: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "captain" ? [] : nil
            }
        }
        struct UnknownColumn: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                ["nope"]
            }
        }
        struct TeamKey: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                #expect(view.schemaID == .main)
                return view.name == "enrolledPlayer" ? ["id"] : nil
            }
        }
        let dbQueue = try DatabaseQueue()
        try makeMigrator().migrate(dbQueue)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE VIEW enrolledPlayer AS
                SELECT id, name, teamId, isCaptain
                FROM player
                WHERE teamId IS NOT NULL;
                """)
            let empty = try #require(throws: DatabaseError.self) {
                try db.withSchemaSource(NoKey()) { try db.primaryKey("captain") }
            }
            #expect(empty.message == "database view captain has no primary key")
            let unknown = try #require(throws: DatabaseError.self) {
                try db.withSchemaSource(UnknownColumn()) { try db.primaryKey("captain") }
            }
            #expect(unknown.message == "No such column in view captain: nope")
            let combined = try db.withSchemaSource(TeamKey().then(GameSchemaSource())) {
                (try db.primaryKey("enrolledPlayer").columns, try db.primaryKey("captain").columns)
            }
            #expect(combined.0 == ["id"])
            #expect(combined.1 == ["id"])
            // Out of `withSchemaSource`, the connection has no schema source again.
            #expect(db.schemaSource == nil)
            #expect(throws: DatabaseError.self) { try db.primaryKey("captain") }
            #expect(DatabaseSchemaID.main.schemaTableName == "sqlite_master")
            #expect(DatabaseSchemaID.temp.schemaTableName == "sqlite_temp_master")
            #expect(DatabaseSchemaID.attached("x").schemaTableName == "x.sqlite_master")
        }
    }

    @Test func aViewWhosePrimaryKeyIsTheTeamId() throws {
        // A refactored `captain` view whose primary key is the team id.
        struct TeamCaptainSource: DatabaseSchemaSource {
            func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
                view.name == "captain" ? ["teamId"] : nil
            }
        }
        struct TeamCaptain: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "captain"
            var teamId: String
            var name: String
        }
        var migrator = DatabaseMigrator()
        migrator.registerMigration("Teams and players") { db in
            try createTeamsAndPlayers(db)
            try db.execute(sql: """
                CREATE VIEW captain AS
                SELECT teamId, name
                FROM player
                WHERE isCaptain AND teamId IS NOT NULL;
                """)
        }
        var config = Configuration()
        config.schemaSource = TeamCaptainSource()
        let dbQueue = try DatabaseQueue(configuration: config)
        try migrator.migrate(dbQueue)
        try dbQueue.write { db in
            try insertTeamsAndPlayers(db)
            #expect(try TeamCaptain.find(db, key: "blue").name == "Bob")
            #expect(try TeamCaptain.fetchOne(db, key: "green") == nil)
        }
    }
}

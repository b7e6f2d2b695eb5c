import Foundation
import Testing
import Trellis

// GRDB's QueryInterfaceOrganization.md ("Query Interface Organization"):
// the types and protocols of the query interface, each sample with the SQL
// GRDB 7 generates for it (checked with GRDB itself).

private struct Team: Codable, FetchableRecord, TableRecord {
    var id: Int64
}

private struct Award: Codable, FetchableRecord, TableRecord {
    var id: Int64
    var playerId: Int64
}

private struct Player: Codable, FetchableRecord, TableRecord, Identifiable {
    static let team = belongsTo(Team.self)
    static let awards = hasMany(Award.self)
    var id: Int64
    var name: String
    var score: Int
    var bonus: Int

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let bonus = Column(CodingKeys.bonus)
        static let createdAt = Column("createdAt")
    }
}

private struct PlayerInfo: Decodable, FetchableRecord {
    var player: Player
    var awards: [Award]
}

private func date(_ value: SQLSpecificExpressible) -> SQLExpression {
    SQL("DATE(\(value))").sqlExpression
}

private func myRequest(_ nameSubquery: SQLSubqueryable) -> SQLRequest<Player> {
    """
    SELECT * FROM player
    WHERE name IN (\(nameSubquery) UNION SELECT 'Zoe')
    """
}

/// A function generic over associations, as the protocols allow.
private func keyed<A: AssociationToMany>(_ association: A, _ key: String) -> A {
    association.forKey(key)
}

private func describe<A: Association>(_ association: A) -> String {
    "\(A.OriginRowDecoder.self) -> \(A.RowDecoder.self)"
}

@Suite struct QueryInterfaceOrganizationDocTests {
    private func makeDatabase(_ trace: StatementTrace = StatementTrace()) throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("firstName", .text)
                t.column("lastName", .text)
                t.column("score", .integer).notNull()
                t.column("bonus", .integer).notNull()
                t.column("createdAt", .text)
                t.belongsTo("team")
            }
            try db.create(table: "award") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("player").notNull()
            }
            try db.execute(sql: """
                INSERT INTO team (id) VALUES (1);
                INSERT INTO player (id, name, firstName, lastName, score, bonus, createdAt, teamId) VALUES
                    (1, 'Arthur', 'Arthur', 'Miller', 100, 10, '2020-01-23 10:00', 1),
                    (2, 'Barbara', 'Barbara', 'Hepworth', 300, 20, '2020-01-22 10:00', NULL),
                    (3, 'O''Brien', 'Flann', 'O''Brien', 200, 0, '2020-01-23 11:00', NULL);
                INSERT INTO award (id, playerId) VALUES (1, 1), (2, 1), (3, 3);
                """)
        }
        _ = trace.take()
        return dbQueue
    }

    private func sql<T>(_ request: some FetchRequest<T>, _ db: Database) throws -> String {
        let statement = try request.makePreparedRequest(db, forSingleResult: false).statement
        return statement.sql + " | " + statement.arguments.description
    }

    // MARK: Association

    @Test func associationProtocols() throws {
        let dbQueue = try makeDatabase()
        let prizes = keyed(Player.awards, "prizes")
        #expect(describe(prizes) == "Player -> Award")
        #expect(describe(Player.team) == "Player -> Team")
        let toOne: any AssociationToOne = Player.team
        let toMany: any AssociationToMany = Player.awards
        #expect(toOne is BelongsToAssociation<Player, Team>)
        #expect(toMany is HasManyAssociation<Player, Award>)
        let rows = try dbQueue.read { db in
            try Player.including(all: prizes).orderByPrimaryKey().asRequest(of: Row.self).fetchAll(db)
        }
        #expect(rows.first?.prefetchedRows["prizes"]?.count == 2)
    }

    // MARK: Column and ColumnExpression

    @Test func columnsAreExpressions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let row = try Row.fetchOne(db, sql: "SELECT 'Arthur' AS name")!
            let name: String = row[Column("name")] // "Arthur"
            #expect(name == "Arthur")
        }
        let column: any ColumnExpression = Column("name")
        #expect(column.name == "name")
        #expect(Column.rowID.name == "rowid")
        #expect(Column("id").name == "id")
    }

    @Test func columnsDefineObservedRegions() throws {
        let dbQueue = try makeDatabase()
        // Regions are made of columns and, for requests limited to known
        // rowids, of rows, as in GRDB: `player(bonus,...,teamId)[1]`. Raw
        // SQL does not tell its rows.
        try dbQueue.read { db throws in
            let allColumns = try Player.all().databaseRegion(db).description
            #expect(allColumns.hasPrefix("player(") && allColumns != "player(*)")
            #expect(try Player.filter(id: 1).databaseRegion(db).description == allColumns + "[1]")
            #expect(try Player.filter { $0.id == 1 }.databaseRegion(db).description == allColumns + "[1]")
            #expect(try SQLRequest<Player>("SELECT * FROM player WHERE id = 1").databaseRegion(db).description == allColumns)
            #expect(try Player.filter(sql: "id = 1").databaseRegion(db).description == allColumns)
        }

        let changes = Counter()
        let observer = DatabaseRegionObservation(tracking: Player.filter(id: 1))
            .start(in: dbQueue, onError: { _ in }, onChange: { _ in changes.add(1) })
        try dbQueue.write { db in try db.execute(sql: "UPDATE team SET id = id") }
        #expect(changes.value == 0)
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET name = 'x' WHERE id = 1") }
        #expect(changes.value == 1)
        observer.cancel()
    }

    @Test func columnsOmitLimitForUniqueKeys() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { db throws in
            // Nicer SQL
            _ = try Player.fetchOne(db, id: 1)
            _ = try Player.filter { $0.id == 1 }.fetchOne(db)
            // Less nice SQL
            _ = try Player.filter(sql: "id = 1").fetchOne(db)
            _ = try Player.all().fetchOne(db)
        }
        #expect(trace.take() == [
            "BEGIN DEFERRED TRANSACTION",
            #"SELECT * FROM "player" WHERE "id" = ?"#,
            #"SELECT * FROM "player" WHERE "id" = ?"#,
            #"SELECT * FROM "player" WHERE id = 1 LIMIT 1"#,
            #"SELECT * FROM "player" LIMIT 1"#,
            "COMMIT TRANSACTION",
        ])
    }

    // MARK: DatabaseRegionConvertible

    @Test func regionObservation() throws {
        let dbQueue = try makeDatabase()
        let changes = Counter()
        let request = Player.all()
        let observation = DatabaseRegionObservation(tracking: request)
        // The article leaves out onError, which GRDB requires too, and
        // writes `try`, which start no longer needs.
        let observer = observation.start(in: dbQueue, onError: { _ in }, onChange: { (db: Database) in
            changes.add(1) // print("Players were changed")
        })
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
        try dbQueue.write { db in try db.execute(sql: "UPDATE team SET id = id") }
        #expect(changes.value == 1)
        observer.cancel()
        try dbQueue.write { db in try db.execute(sql: "UPDATE player SET score = score + 1") }
        #expect(changes.value == 1)

        func region(_ convertible: some DatabaseRegionConvertible) throws -> String {
            try dbQueue.read { db in try convertible.databaseRegion(db).description }
        }
        #expect(try region(Player.select(Column("name"))) == "player(name)")
    }

    // MARK: DatabaseValue and DatabaseValueConvertible

    @Test func databaseValues() throws {
        #expect(1.databaseValue == DatabaseValue(value: 1))
        #expect("Hello".databaseValue.description == #""Hello""#)
        #expect(DatabaseValue.null.isNull)
        #expect(Int.fromDatabaseValue(1.databaseValue) == 1)
        #expect(Int.fromDatabaseValue("Hello".databaseValue) == nil)

        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SQL: firstName || ' ' || lastName
            let fullname = [
                Column("firstName"),
                " ".databaseValue,
                Column("lastName"),
            ].joined(operator: .concat)
            let request = Player.select(fullname, as: String.self)
            #expect(try sql(request, db) == #"SELECT "firstName" || ? || "lastName" FROM "player" | [" "]"#)
            #expect(try request.fetchAll(db) == ["Arthur Miller", "Barbara Hepworth", "Flann O'Brien"])
        }
    }

    // MARK: DerivableRequest

    @Test func derivableRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.all().distinct().reversed().aliased(TableAlias(name: "p")).groupByPrimaryKey()
            #expect(try sql(request, db) == #"SELECT DISTINCT "p".* FROM "player" "p" GROUP BY "p"."id" | []"#)
            let cte = CommonTableExpression(named: "best", request: Player.filter { $0.score > 150 })
            let bestCount = try Player.all()
                .with(cte)
                .filter(literal: "\(Column("id")) IN (SELECT id FROM \(cte))")
                .fetchCount(db)
            #expect(bestCount == 2)
        }
    }

    // MARK: FetchRequest

    @Test func fetchRequests() throws {
        let trace = StatementTrace()
        let dbQueue = try makeDatabase(trace)
        try dbQueue.read { db throws in
            let row: Row? = try SQLRequest<Row>("SELECT * FROM player").fetchOne(db)
            #expect(row?["name"] == "Arthur")
            let players: [Player] = try Player.all().fetchAll(db)
            #expect(players.count == 3)

            let request = Player.all()
            #expect(try request.fetchCount(db) == 3)
            // The article calls makePreparedRequest(db), which GRDB does not
            // compile: forSingleResult has no default there (it has one here).
            let preparedRequest = try request.makePreparedRequest(db, forSingleResult: false)
            #expect(preparedRequest.statement.sql == #"SELECT * FROM "player""#) // SELECT * FROM player
        }
        _ = trace.take()
        let playerInfos = try dbQueue.read { db in
            try Player
                .including(all: Player.awards)
                .asRequest(of: PlayerInfo.self)
                .fetchAll(db)
        }
        #expect(playerInfos.map(\.awards.count) == [2, 0, 1])
        let statements = trace.take()
        #expect(statements.count == 4)
        #expect(statements[1] == #"SELECT * FROM "player""#)
        // "Those supplementary SQL queries are an implementation detail":
        // the awards of the fetched players, by their ids.
        #expect(statements[2].hasPrefix(#"SELECT *, "playerId" AS "#))
        #expect(statements[2].hasSuffix(#"FROM "award" WHERE "playerId" IN (?, ?, ?)"#))
    }

    // MARK: Int, String, Date… and QueryInterfaceRequest

    @Test func valuesAndQueryInterfaceRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT * FROM player WHERE name = 'O''Brien'
            let request = Player.filter { $0.name == "O'Brien" }
            #expect(try sql(request, db) == #"SELECT * FROM "player" WHERE "name" = ? | ["O\'Brien"]"#)

            // QueryInterfaceRequest<Player>
            let playerRequest = Player.all()
            // QueryInterfaceRequest<String>
            let nameRequest = Player.select(Column("name"), as: String.self)
            // QueryInterfaceRequest<PlayerInfo>
            let playerInfoRequest = Player
                .including(all: Player.awards)
                .asRequest(of: PlayerInfo.self)

            let players: [Player] = try playerRequest.fetchAll(db)
            let names: [String] = try nameRequest.fetchAll(db)
            let infos: [PlayerInfo] = try playerInfoRequest.fetchAll(db)
            #expect(players.map(\.id) == [1, 2, 3])
            #expect(names == ["Arthur", "Barbara", "O'Brien"])
            #expect(infos.map(\.player.id) == [1, 2, 3])
        }
    }

    // MARK: SQL

    @Test func sqlLiterals() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let literal: SQL = "SELECT * FROM player"
            let request = SQLRequest<Player>(literal: literal)
            let players: [Player] = try request.fetchAll(db)
            #expect(players.count == 3)

            let condition: SQL = "name = \("O'Brien")"
            let filtered = Player.filter(condition)
            #expect(try sql(filtered, db) == #"SELECT * FROM "player" WHERE name = ? | ["O\'Brien"]"#)
            #expect(try filtered.fetchAll(db).map(\.id) == [3])

            // SQLExpression, SQLOrdering, SQLSelection, SQLRequest, SQLSubquery
            let expression: SQLExpression = SQL("name = \("O'Brien")").sqlExpression
            let ordering: SQLOrdering = SQL("name DESC").sqlOrdering
            let selection: SQLSelection = SQL("score + bonus AS total").sqlSelection
            let star: SQLSelection = SQL("*").sqlSelection
            let sqlRequest = SQLRequest<Player>(literal: "SELECT * FROM player")
            let subquery: SQLSubquery = SQLRequest<Player>(literal: "SELECT * FROM player").sqlSubquery
            #expect(try sql(Player.filter(expression), db) == #"SELECT * FROM "player" WHERE name = ? | ["O\'Brien"]"#)
            #expect(try sql(Player.order(ordering), db) == #"SELECT * FROM "player" ORDER BY name DESC | []"#)
            #expect(try sql(Player.select(selection), db) == #"SELECT score + bonus AS total FROM "player" | []"#)
            #expect(try sql(Player.select(star), db) == #"SELECT * FROM "player" | []"#)
            #expect(try sqlRequest.fetchCount(db) == 3)
            #expect(try sql(Player.filter(subquery.exists()), db) == #"SELECT * FROM "player" WHERE EXISTS (SELECT * FROM player) | []"#)
            #expect(try Player.select(selection, as: Int.self).fetchAll(db) == [110, 320, 200])
        }
    }

    // MARK: SQLExpression and SQLExpressible

    @Test func sqlExpressions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT * FROM player WHERE LENGTH(name) > 0
            let request = Player.filter {
                length($0.name) > 0 // SQLExpression
            }
            #expect(try sql(request, db) == #"SELECT * FROM "player" WHERE LENGTH("name") > ? | [0]"#)

            // SELECT * FROM player WHERE DATE(createdAt) = '2020-01-23'
            let dayRequest = Player.filter { date($0.createdAt) == "2020-01-23" }
            #expect(try sql(dayRequest, db) == #"SELECT * FROM "player" WHERE (DATE("createdAt")) = ? | ["2020-01-23"]"#)
            #expect(try dayRequest.fetchAll(db).map(\.id) == [1, 3])

            let joinedRequest = Player
                .filter { date($0.createdAt) == "2020-01-23" }
                .including(required: Player.team)
            #expect(try sql(joinedRequest, db) == #"SELECT "player".*, "team".* FROM "player" JOIN "team" ON "team"."id" = "player"."teamId" WHERE (DATE("player"."createdAt")) = ? | ["2020-01-23"]"#)

            // OK
            #expect(try sql(Player.filter(id: 1), db) == #"SELECT * FROM "player" WHERE "id" = ? | [1]"#)
            // Odd, but OK
            #expect(try sql(Player.filter(1.databaseValue), db) == #"SELECT * FROM "player" WHERE ? | [1]"#)
            #expect(try sql(Player.select(1.databaseValue), db) == #"SELECT ? FROM "player" | [1]"#)
            #expect(try sql(Player.order(Column("name")), db) == #"SELECT * FROM "player" ORDER BY "name" | []"#)
            #expect(try sql(Player.select(length(Column("name"))), db) == #"SELECT LENGTH("name") FROM "player" | []"#)
            #expect(try sql(Player.order(Column("name").desc), db) == #"SELECT * FROM "player" ORDER BY "name" DESC | []"#)
        }
    }

    // MARK: SQLOrderingTerm and SQLOrdering

    @Test func orderingTerms() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let request = Player.order(
                Column("score").desc,
                Column("name").collating(.localizedCaseInsensitiveCompare))
            #expect(try sql(request, db) == #"SELECT * FROM "player" ORDER BY "score" DESC, "name" COLLATE swiftLocalizedCaseInsensitiveCompare | []"#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 3, 1])

            // Order according to a column
            #expect(try sql(Player.order(Column("name")), db) == #"SELECT * FROM "player" ORDER BY "name" | []"#)
            // Order according to a constant string (why not)
            #expect(try sql(Player.order("name".databaseValue), db) == #"SELECT * FROM "player" ORDER BY ? | ["name"]"#)

            // SELECT * FROM player ORDER BY score DESC
            let ordering = Column("score").desc // SQLOrdering
            #expect(try sql(Player.order(ordering), db) == #"SELECT * FROM "player" ORDER BY "score" DESC | []"#)
            let plainOrdering = Column("score").sqlOrdering // SQLOrdering
            #expect(try sql(Player.order(plainOrdering), db) == #"SELECT * FROM "player" ORDER BY "score" | []"#)
        }
    }

    // MARK: SQLRequest

    @Test func sqlRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let rowRequest = SQLRequest(sql: "SELECT * FROM player")             // SQLRequest<Row>
            let playerRequest = SQLRequest<Player>(sql: "SELECT * FROM player")  // SQLRequest<Player>
            let nameRequest = SQLRequest<String>(sql: "SELECT name FROM player") // SQLRequest<String>
            #expect(type(of: rowRequest) == SQLRequest<Row>.self)

            #expect(try rowRequest.fetchAll(db).count == 3)               // [Row]
            #expect(try playerRequest.fetchAll(db).map(\.id) == [1, 2, 3]) // [Player]
            #expect(try nameRequest.fetchAll(db) == ["Arthur", "Barbara", "O'Brien"]) // [String]

            #expect(try rowRequest.fetchOne(db)?["id"] == 1)   // Row?
            #expect(try playerRequest.fetchOne(db)?.id == 1)   // Player?
            #expect(try nameRequest.fetchOne(db) == "Arthur")  // String?

            // SELECT * FROM player WHERE name = 'O''Brien'
            let interpolatedRequest: SQLRequest<Player> = """
                SELECT * FROM player WHERE name = \("O'Brien")
                """
            #expect(try interpolatedRequest.fetchAll(db).map(\.id) == [3])
        }
    }

    // MARK: SQLSelectable and SQLSelection

    @Test func selections() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            #expect(try sql(Player.select(.allColumns), db) == #"SELECT * FROM "player" | []"#)
            #expect(try sql(Player.select(Column("name"), Column("score")), db) == #"SELECT "name", "score" FROM "player" | []"#)
            // SELECT MAX(score) AS maxScore FROM player
            let maxRequest = Player.select(max(Column("score")).forKey("maxScore"))
            #expect(try sql(maxRequest, db) == #"SELECT MAX("score") AS "maxScore" FROM "player" | []"#)
            #expect(try Row.fetchOne(db, maxRequest) == ["maxScore": 300])
            // Selects a constant string (why not)
            #expect(try sql(Player.select("name".databaseValue), db) == #"SELECT ? FROM "player" | ["name"]"#)

            // SELECT (score + bonus) AS total
            let selection = (Column("score") + Column("bonus")).forKey("total") // SQLSelection
            #expect(try sql(Player.select(selection), db) == #"SELECT "score" + "bonus" AS "total" FROM "player" | []"#)
        }
    }

    // MARK: SQLSubquery and SQLSubqueryable

    @Test func subqueries() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            // SELECT * FROM player
            // WHERE score >= (SELECT AVG(score) FROM player)
            let averageScore = Player.select(average(Column("score")))
            let request = Player.filter { $0.score >= averageScore }
            // GRDB writes `(SELECT AVG("score") FROM "player")`; Trellis gives
            // the inner table its own alias, which reads the same rows.
            #expect(try sql(request, db) == #"SELECT * FROM "player" WHERE "score" >= (SELECT AVG("player1"."score") FROM "player" "player1") | []"#)
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])

            let awarded = Player.filter { Award.select(Column("playerId")).contains($0.id) }
            #expect(try sql(awarded, db) == #"SELECT * FROM "player" WHERE "id" IN (SELECT "playerId" FROM "award") | []"#)
            #expect(try awarded.fetchAll(db).map(\.id) == [1, 3])
            #expect(try sql(Player.filter(Award.all().exists()), db) == #"SELECT * FROM "player" WHERE EXISTS (SELECT * FROM "award") | []"#)

            let fromSQL = myRequest(SQLRequest<String>("SELECT 'Arthur'"))
            #expect(try sql(fromSQL, db) == "SELECT * FROM player\nWHERE name IN (SELECT 'Arthur' UNION SELECT 'Zoe') | []")
            #expect(try fromSQL.fetchAll(db).map(\.id) == [1])
            let fromQueryInterface = myRequest(Player.select(Column("name")).filter { $0.score > 150 })
            #expect(try sql(fromQueryInterface, db) == "SELECT * FROM player\nWHERE name IN (SELECT \"name\" FROM \"player\" WHERE \"score\" > ? UNION SELECT 'Zoe') | [150]")
            #expect(try fromQueryInterface.fetchAll(db).map(\.id) == [2, 3])
        }
    }
}

private final class Counter: @unchecked Sendable {
    private var count = 0
    private let lock = NSLock()
    func add(_ value: Int) { lock.lock(); count += value; lock.unlock() }
    var value: Int { lock.lock(); defer { lock.unlock() }; return count }
}

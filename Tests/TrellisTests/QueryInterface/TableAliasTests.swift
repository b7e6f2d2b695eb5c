import Foundation
import Testing
import Trellis

// Table aliases in SQL literals and selections, and foreign keys that
// do not match their table.

@Suite("Table aliases and foreign keys")
struct TableAliasTests {
    struct Player: TableRecord, FetchableRecord, Decodable {
        static let databaseTableName = "player"
        static var databaseSelection: [any SQLSelectable] {
            [Column("id"), (Column("score") * 2).forKey("double"), SQL("upper(\(Column("name")))").sqlExpression.forKey("up")]
        }
        static let team = belongsTo(Team.self)
        var id: Int
    }

    struct Team: TableRecord {
        static let databaseTableName = "team"
    }

    func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE team(id INTEGER PRIMARY KEY, name TEXT, score INT);
                CREATE TABLE player(id INTEGER PRIMARY KEY, teamId INT REFERENCES team(id), name TEXT, score INT);
                INSERT INTO team VALUES (1, 'red', 100);
                INSERT INTO player VALUES (1, 1, 'p', 10);
                """)
        }
        return dbQueue
    }

    @Test("A named TableAlias qualifies its columns in raw SQL with its name")
    func namedAliasInRawSQL() throws {
        try makeDatabase().read { (db: Database) throws in
            let alias = TableAlias(name: "pl")
            let sql: SQL = "SELECT \(alias[Column("name")]), \(alias.rowID) FROM player pl"
            #expect(try sql.build(db).sql == #"SELECT "pl"."name", "pl".rowid FROM player pl"#)
            let row = try #require(try SQLRequest<Row>(literal: sql).fetchOne(db))
            #expect(row[0] as String == "p")
            #expect(row[1] as Int == 1)
            // An anonymous alias that no request includes is still an error.
            let anonymous = TableAlias()
            let misuse: SQLRequest<Row> = "SELECT \(anonymous[Column("name")]) FROM player"
            #expect(throws: DatabaseError.self) { try misuse.fetchOne(db) }
        }
    }

    @Test("alias[AllColumns()] selects the columns of the aliased table")
    func aliasAllColumns() throws {
        try makeDatabase().read { (db: Database) throws in
            let teamAlias = TableAlias()
            let row = try Row.fetchOne(db, Player
                .joining(required: Player.team.aliased(teamAlias))
                .select(Column("name"), teamAlias[AllColumns()]))
            #expect(row == ["name": "p", "id": 1, "name": "red", "score": 100])
            let name = try String.fetchOne(db, Player
                .joining(required: Player.team.aliased(teamAlias))
                .select(teamAlias[Column("name")]))
            #expect(name == "red")
        }
    }

    @Test("columnsOf: qualifies the columns inside selected expressions")
    func columnsOfQualifiesExpressions() throws {
        try makeDatabase().read { (db: Database) throws in
            // team has score and name too: unqualified, they are ambiguous.
            let request: SQLRequest<Row> = "SELECT \(columnsOf: Player.self, tableAlias: "p") FROM player p JOIN team t ON t.id = p.teamId"
            #expect(try request.fetchOne(db) == ["id": 1, "double": 20, "up": "P"])
            let plain: SQLRequest<Row> = "SELECT \(columnsOf: Player.self) FROM player JOIN team ON team.id = player.teamId"
            #expect(try plain.fetchOne(db) == ["id": 1, "double": 20, "up": "P"])
        }
    }

    @Test("A foreign key that does not match the primary key of its table is a clear error")
    func foreignKeyMismatch() throws {
        struct User: TableRecord { static let databaseTableName = "user" }
        struct Mismatch: TableRecord {
            static let databaseTableName = "mismatch"
            static let user = belongsTo(User.self)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { (db: Database) throws in
            try db.execute(sql: """
                CREATE TABLE user(id INTEGER PRIMARY KEY);
                CREATE TABLE mismatch(id INTEGER PRIMARY KEY, a INT, b INT, FOREIGN KEY(a, b) REFERENCES user);
                """)
            let error = try #require(throws: DatabaseError.self) { try Row.fetchAll(db, Mismatch.including(required: Mismatch.user)) }
            #expect(error.message?.contains("foreign key mismatch") == true)
            #expect(error.message?.contains("(a, b)") == true)
            // The connection is still usable.
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM mismatch") == 0)
        }
    }
}

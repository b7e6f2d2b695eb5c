import Testing
import Trellis

// Snippets of GRDB's CommonTableExpressions.md.

private struct Player: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int
}

private struct Chat: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var name: String
}

private struct Message: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var chatID: Int64
    var date: Int
    var text: String
}

private struct ChatInfo: Decodable, FetchableRecord {
    var chat: Chat
    var latestMessage: Message?
}

@Suite struct GRDBCompatCommonTableExpressionTests {
    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 100).insert(db)
            try Player(id: 2, name: "O'Brien", score: 200).insert(db)
            try Player(id: 3, name: "Barbara", score: 300).insert(db)
        }
        return dbQueue
    }

    private func counterRequest(range: ClosedRange<Int>) -> QueryInterfaceRequest<Int> {
        let counter = CommonTableExpression<Int>(
            recursive: true,
            named: "counter",
            columns: ["x"],
            literal: """
                VALUES(\(range.lowerBound)) \
                UNION ALL \
                SELECT x+1 FROM counter WHERE x < \(range.upperBound)
                """)
        return counter.all().with(counter)
    }

    @Test func definitionsFromSQLLiteralsAndRequests() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let name = "O'Brien"
            let literalCTE = CommonTableExpression<Void>(named: "playerName", literal: "SELECT \(name)")
            let sqlCTE = CommonTableExpression<Void>(named: "playerName", sql: "SELECT ?", arguments: [name])
            let nameRequest: SQLRequest<String> = "SELECT \(name)"
            let requestCTE = CommonTableExpression<Void>(named: "playerName", request: nameRequest)
            for cte in [literalCTE, sqlCTE, requestCTE] {
                let request = Player
                    .with(cte)
                    .filter(Column("name") == cte.all())
                #expect(try request.fetchAll(db).map(\.id) == [2])
                #expect(try request.fetchCount(db) == 1)
            }

            let namesCTE = CommonTableExpression<Void>(
                named: "playerName",
                request: Player.select(Column("name")).filter(Column("score") >= 200))
            let request = Player.all().with(namesCTE).filter(namesCTE.contains(Column("name"))).order(Column("id"))
            #expect(try request.fetchAll(db).map(\.id) == [2, 3])
            // `with` replaces a definition with the same name.
            #expect(try Player.with(literalCTE).with(namesCTE).filter(namesCTE.contains(Column("name"))).fetchCount(db) == 2)

            let pairCTE = CommonTableExpression<Void>(named: "pair", columns: ["a", "b"], sql: "SELECT 1, 2")
            let rows = try pairCTE.all().with(pairCTE).asRequest(of: Row.self).fetchAll(db)
            #expect(rows == [["a": 1, "b": 2]])
        }
    }

    @Test func commonTableExpressionsOfRowsNeedNoType() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let name = "O'Brien"
            let bestScore = CommonTableExpression(named: "bestScore", sql: "SELECT MAX(score) FROM player")
            let playerName = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
            let bestPlayer = CommonTableExpression(named: "bestPlayer", request: Player.order(Column("score").desc).limit(1))
            #expect(try bestScore.all().with(bestScore).fetchAll(db) == [["MAX(score)": 300]])
            #expect(try Player.with(playerName).filter(Column("name") == playerName.all()).fetchAll(db).map(\.id) == [2])
            #expect(try bestPlayer.all().with(bestPlayer).fetchOne(db)?["name"] == "Barbara")
        }
    }

    @Test func recursiveCommonTableExpressions() throws {
        let dbQueue = try makeDatabase()
        let values = try dbQueue.read { db in try counterRequest(range: 3...7).fetchAll(db) }
        #expect(values == [3, 4, 5, 6, 7])
        let filtered = try dbQueue.read { db in
            try counterRequest(range: 1...10).filter(Column("x") > 8).fetchAll(db)
        }
        #expect(filtered == [9, 10])
    }

    @Test func interpolatedDefinitions() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.read { db throws in
            let name = "O'Brien"
            let playerNameCTE = CommonTableExpression<Void>(named: "playerName", literal: "SELECT \(name)")
            let request: SQLRequest<String> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT name FROM player
                WHERE name = (SELECT * FROM \(playerNameCTE))
                """
            #expect(try request.fetchAll(db) == ["O'Brien"])
        }
    }

    @Test func commonTableExpressionsInBatchOperations() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let best = CommonTableExpression<Void>(named: "best", request: Player.select(max(Column("score"))))
            #expect(try Player.with(best).filter(best.contains(Column("score"))).updateAll(db, Column("name").set(to: "Champion")) == 1)
            #expect(try String.fetchOne(db, sql: "SELECT name FROM player WHERE id = 3") == "Champion")
            #expect(try Player.with(best).filter(best.contains(Column("score"))).deleteAll(db) == 1)
            #expect(try Player.fetchCount(db) == 2)
        }
    }

    // "Embed Common Table Expressions in Requests": the notes on `with(_:)`,
    // and the CTE used as a value in batch updates and deletes.
    @Test func withReplacesACommonTableExpressionOfTheSameName() throws {
        let dbQueue = try makeDatabase()
        try dbQueue.write { db throws in
            let name = "O'Brien"
            let playerNameCTE = CommonTableExpression(named: "playerName", literal: "SELECT \(name)")
            let otherCTE = CommonTableExpression(named: "playerName", literal: "SELECT \("Arthur")")
            let request = Player.with(playerNameCTE).filter(Column("name") == playerNameCTE.all())
            #expect(try request.fetchAll(db).map(\.id) == [2])
            // The last definition of a name wins.
            #expect(try request.with(otherCTE).fetchAll(db).map(\.id) == [1])
            #expect(try Player.with(otherCTE).with(playerNameCTE)
                .filter(Column("name") == playerNameCTE.all()).fetchAll(db).map(\.id) == [2])

            // Several CTEs, and `with` called after other methods.
            let minScore = CommonTableExpression(named: "minScore", literal: "SELECT \(150)")
            let twoCTEs = Player
                .filter(Column("score") > minScore.all())
                .with(minScore)
                .filter(Column("name") != playerNameCTE.all())
                .with(playerNameCTE)
            #expect(try twoCTEs.fetchAll(db).map(\.id) == [3])

            let literalRequest: SQLRequest<Player> = """
                WITH \(definitionFor: playerNameCTE)
                SELECT * FROM player
                WHERE name = (\(playerNameCTE.all()))
                """
            #expect(try literalRequest.fetchAll(db).map(\.id) == [2])

            #expect(try Player.with(otherCTE).filter(key: 3)
                .updateAll(db) { _ in Column("name").set(to: otherCTE.all()) } == 1)
            #expect(try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") == ["Arthur", "O'Brien", "Arthur"])
            #expect(try Player.with(otherCTE).filter(Column("name") == otherCTE.all()).deleteAll(db) == 2)
            #expect(try Player.fetchAll(db).map(\.id) == [2])
        }
    }

    // MARK: Associations to common table expressions

    private func makeChatDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "chat") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "message") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("chatID", .integer).notNull().references("chat")
                t.column("date", .integer).notNull()
                t.column("text", .text).notNull()
            }
            try Chat(id: 1, name: "Family").insert(db)
            try Chat(id: 2, name: "Work").insert(db)
            try Chat(id: 3, name: "Empty").insert(db)
            try Message(id: 1, chatID: 1, date: 10, text: "hello").insert(db)
            try Message(id: 2, chatID: 1, date: 30, text: "dinner?").insert(db)
            try Message(id: 3, chatID: 2, date: 20, text: "meeting").insert(db)
            try Message(id: 4, chatID: 2, date: 15, text: "report").insert(db)
        }
        return dbQueue
    }

    @Test func latestMessageOfEachChat() throws {
        let dbQueue = try makeChatDatabase()
        let latestMessageRequest = Message
            .annotated(with: max(Column("date")))
            .group(Column("chatID"))
        let latestMessageCTE = CommonTableExpression<Void>(
            named: "latestMessage",
            request: latestMessageRequest)
        let latestMessage = Chat.association(
            to: latestMessageCTE,
            on: { chat, latestMessage in
                chat[Column("id")] == latestMessage[Column("chatID")]
            })
            .order(Column("date").desc)
        let request = Chat
            .with(latestMessageCTE)
            .including(optional: latestMessage)
            .asRequest(of: ChatInfo.self)
        let chatInfos: [ChatInfo] = try dbQueue.read(request.fetchAll)
        #expect(chatInfos.map(\.chat.id) == [1, 2, 3])
        #expect(chatInfos.map(\.latestMessage?.text) == ["dinner?", "meeting", nil])

        let required = try dbQueue.read { db in
            try Chat.with(latestMessageCTE).joining(required: latestMessage).fetchCount(db)
        }
        #expect(required == 2)
    }

    @Test func associationsBetweenCommonTableExpressionsAndRecords() throws {
        enum Recent {}
        let dbQueue = try makeChatDatabase()
        let recentCTE = CommonTableExpression<Recent>(
            named: "recent", sql: "SELECT * FROM message WHERE date >= ?", arguments: [20])
        let chat = recentCTE.association(to: Chat.self) { recent, chat in
            recent[Column("chatID")] == chat[Column("id")]
        }
        let rows = try dbQueue.read { db in
            try recentCTE.all()
                .with(recentCTE)
                .including(required: chat)
                .order(Column("date"))
                .asRequest(of: Row.self)
                .fetchAll(db)
        }
        #expect(rows.map { $0["text"] as String } == ["meeting", "dinner?"])
        #expect(rows.map { $0.scopes["chat"]?["name"] as String? } == ["Work", "Family"])
    }

    @Test func associationsToCommonTableExpressionsAreToOne() throws {
        let dbQueue = try makeChatDatabase()
        let cte = CommonTableExpression<Message>(named: "recent", sql: "SELECT * FROM message")
        let recent = Chat.association(to: cte) { chat, recent in chat[Column("id")] == recent[Column("chatID")] }
        try dbQueue.read { db throws in
            let chat = try #require(try Chat.fetchOne(db, key: 1))
            #expect(throws: DatabaseError.self) { try chat.request(for: recent).fetchAll(db) }
            #expect(try Chat.fetchCount(db) == 3)
        }
    }
}

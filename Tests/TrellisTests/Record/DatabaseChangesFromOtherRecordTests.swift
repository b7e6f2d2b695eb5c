import Testing
import Trellis

private struct Player: Codable, PersistableRecord {
    var id: Int64
    var name: String
    var score: Int
}

/// Another type of the same table, which encodes fewer columns.
private struct PartialPlayer: Codable, PersistableRecord {
    static let databaseTableName = "player"
    var id: Int64
    var name: String
}

@Suite struct DatabaseChangesFromOtherRecordTests {
    @Test func changesFromARecordOfTheSameType() throws {
        // README, "The databaseChanges and hasDatabaseChanges Methods".
        let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
        let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
        #expect(try newPlayer.databaseChanges(from: oldPlayer) == ["score": 100.databaseValue])
        #expect(try newPlayer.databaseChanges(from: newPlayer).isEmpty)
    }

    @Test func changesFromARecordOfAnotherType() throws {
        let player = Player(id: 1, name: "Arthur", score: 1000)
        // The columns that the other record does not encode compare as NULL.
        #expect(try player.databaseChanges(from: PartialPlayer(id: 1, name: "Arthur")) == ["score": .null])
        #expect(try player.databaseChanges(from: PartialPlayer(id: 2, name: "Barbara"))
            == ["id": 2.databaseValue, "name": "Barbara".databaseValue, "score": .null])
        // Only the columns of the receiver are compared.
        #expect(try PartialPlayer(id: 1, name: "Arthur").databaseChanges(from: player).isEmpty)
    }
}

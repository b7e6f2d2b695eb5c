import Foundation
import Testing
import Trellis

@Suite struct DatabaseQueueCopyTests {
    private func makeFile() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString + ".sqlite").path
        let dbQueue = try DatabaseQueue(path: path)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player (name TEXT); INSERT INTO player VALUES ('Arthur'), ('Barbara')")
        }
        try dbQueue.close()
        return path
    }

    @Test func anInMemoryCopyChangesWithoutWritingTheFile() throws {
        let path = try makeFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: path)
        #expect(copy.path == ":memory:" || copy.path.isEmpty)
        try copy.write { db in try db.execute(sql: "DELETE FROM player WHERE name = 'Arthur'") }
        #expect(try copy.read { try String.fetchAll($0, sql: "SELECT name FROM player") } == ["Barbara"])
        let original = try DatabaseQueue(path: path)
        #expect(try original.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func aReadOnlyCopyRefusesWrites() throws {
        let path = try makeFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.readonly = true
        let copy = try DatabaseQueue.inMemoryCopy(fromPath: path, configuration: configuration)
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
        #expect(throws: DatabaseError.self) {
            try copy.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
        }
    }

    @Test func aMissingFileIsAnError() throws {
        #expect(throws: DatabaseError.self) {
            try DatabaseQueue.inMemoryCopy(fromPath: "/nonexistent/\(UUID().uuidString).sqlite")
        }
    }

    @Test func aTemporaryCopyLivesInATemporaryFileAndLeavesTheOriginalAlone() throws {
        let path = try makeFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let copy = try DatabaseQueue.temporaryCopy(fromPath: path)
        #expect(copy.path == "")
        // A database in memory would answer "memory".
        #expect(try copy.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") } == "delete")
        try copy.write { db in try db.execute(sql: "INSERT INTO player VALUES ('Craig')") }
        #expect(try copy.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 3)
        let original = try DatabaseQueue(path: path)
        #expect(try original.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM player") } == 2)
    }

    @Test func aReadOnlyTemporaryCopyRefusesWrites() throws {
        let path = try makeFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        var configuration = Configuration()
        configuration.readonly = true
        let copy = try DatabaseQueue.temporaryCopy(fromPath: path, configuration: configuration)
        #expect(try copy.read { try String.fetchAll($0, sql: "SELECT name FROM player ORDER BY name") } == ["Arthur", "Barbara"])
        let error = #expect(throws: DatabaseError.self) {
            try copy.writeWithoutTransaction { db in try db.execute(sql: "DELETE FROM player") }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    @Test func theTemporaryCopyOfAMissingFileIsAnError() throws {
        let error = #expect(throws: DatabaseError.self) {
            try DatabaseQueue.temporaryCopy(fromPath: "/nonexistent/\(UUID().uuidString).sqlite")
        }
        #expect(error?.resultCode == .SQLITE_CANTOPEN)
    }
}

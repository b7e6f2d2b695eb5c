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
}

import Foundation
import Testing
import Trellis
import TrellisObjects

@Entity
private final class ReshapedNote {
    static let entityName = "ReshapedNote"
    var id: Id = 0
    var first = ""
    var middle = ""
    var last = ""
    init() {}
}

private final class ReshapedCodableNote: Entity {
    static let entityName = "ReshapedCodableNote"
    var id: Id = 0
    var first = ""
    var middle = ""
    var last = ""
    init() {}
}

/// Another connection changes the table of a box between two reads: the
/// box's statements are prepared again by SQLite, and the columns they
/// read move. The reads must follow them.
@Suite struct SchemaChangedElsewhereTests {
    private static func temporaryPath() -> String {
        NSTemporaryDirectory() + "trellis-reshaped-" + UUID().uuidString + ".sqlite"
    }

    @Test func aMacroEntityReadsTheColumnsLeftAfterAnotherConnectionDropsOne() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(queue: try DatabaseQueue(path: path))
        let box = store.box(for: ReshapedNote.self)
        let note = ReshapedNote()
        (note.first, note.middle, note.last) = ("A", "B", "C")
        let id = try box.put(note)
        let before = try #require(try box.get(id))
        #expect([before.first, before.middle, before.last] == ["A", "B", "C"])
        #expect(try box.all().map(\.last) == ["C"])

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE ReshapedNote DROP COLUMN middle") }
        try other.close()

        let after = try #require(try box.get(id))
        #expect([after.first, after.middle, after.last] == ["A", "", "C"])
        #expect(try box.all().map { [$0.first, $0.middle, $0.last] } == [["A", "", "C"]])
    }

    @Test func aCodableEntityReadsTheColumnsLeftAfterAnotherConnectionDropsOne() throws {
        let path = Self.temporaryPath()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let store = Store(queue: try DatabaseQueue(path: path))
        let box = store.box(for: ReshapedCodableNote.self)
        let note = ReshapedCodableNote()
        (note.first, note.middle, note.last) = ("A", "B", "C")
        let id = try box.put(note)
        let before = try #require(try box.get(id))
        #expect([before.first, before.middle, before.last] == ["A", "B", "C"])

        let other = try DatabaseQueue(path: path)
        try other.write { db in try db.execute(sql: "ALTER TABLE ReshapedCodableNote DROP COLUMN middle") }
        try other.close()

        let after = try #require(try box.get(id))
        #expect([after.first, after.middle, after.last] == ["A", "", "C"])
    }
}

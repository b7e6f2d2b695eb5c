import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Node: Entity {
    var id: Id = 0
    var label = ""
    var next: ToOne<Node> = nil
    init() {}
    init(_ label: String) { self.label = label }
}

// A put of an object graph that does not fit in `maxDbSizeInKByte` throws
// SQLITE_FULL and stores none of the graph; the store stays usable.

@Suite struct StoreDiskFullTests {
    @Test func aGraphThatDoesNotFitIsNotStoredAtAll() throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("store-full-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let store = try Store(directoryPath: directory, maxDbSizeInKByte: 64)
        let box = store.box(for: Node.self)

        let committed = Node("committed")
        try box.put(committed)

        // A chain of objects, put from its head: the targets go first.
        let head = Node(String(repeating: "h", count: 2_000))
        var tail = head
        for index in 0..<200 {
            let node = Node(String(repeating: "\(index % 10)", count: 2_000))
            tail.next.target = node
            tail = node
        }
        let error = #expect(throws: DatabaseError.self) { try box.put(head) }
        #expect(error?.resultCode == .SQLITE_FULL)

        #expect(try box.count() == 1)
        #expect(try box.all().map(\.label) == ["committed"])
        let integrity = try store.queue.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        #expect(integrity == "ok")

        // The store goes on: a small object fits.
        try box.put(Node("after"))
        #expect(try box.count() == 2)
    }
}

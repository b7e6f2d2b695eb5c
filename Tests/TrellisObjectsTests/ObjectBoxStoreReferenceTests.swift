import Foundation
import Testing
import TrellisObjects

// The Store page of ObjectBox Swift's API reference: the initializer its
// generator writes, with all its parameters, and the version properties.

@Entity
private final class Note {
    var id: Id = 0
    var text = ""
}

@Suite struct ObjectBoxStoreReferenceTests {
    @Test func theGeneratedInitializerTakesEveryParameter() throws {
        let folder = NSTemporaryDirectory() + "trellis-store-reference-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Store(directoryPath: folder, maxDbSizeInKByte: 1024 * 1024, fileMode: 0o644, maxReaders: 1)
        let box = store.box(for: Note.self)
        let note = Note()
        note.text = "kept"
        try box.put(note)
        // Nested reads join the one transaction: one reader, within the bound.
        let texts = try store.runInReadOnlyTransaction {
            try store.runInReadOnlyTransaction { try box.all().map(\.text) }
        }
        #expect(texts == ["kept"])
        try store.close()

        let reader = try Store(directoryPath: folder, maxReaders: 126, readOnly: true)
        #expect(try reader.box(for: Note.self).all().map(\.text) == ["kept"])
        #expect(throws: ObjectBoxError.self) { try reader.box(for: Note.self).put(Note()) }
        try reader.close()
    }

    @Test func theLibraryAndCoreVersionsNameSQLite() throws {
        let store = try Store()
        let sqlite = try #require(try store.queue.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") })
        let sourceId = try #require(try store.queue.read { db in try String.fetchOne(db, sql: "SELECT sqlite_source_id()") })
        #expect(Store.versionLib == "SQLite \(sqlite)")
        #expect(Store.versionCore == "SQLite \(sqlite) (\(sourceId))")
    }
}

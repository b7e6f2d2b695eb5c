import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Memo: Entity {
    var id: Id = 0
    var text = ""
    init() {}
    init(_ text: String) { self.text = text }
}

private func temporaryFolder() -> String {
    NSTemporaryDirectory() + "trellis-store-instances-" + UUID().uuidString
}

@Suite struct StoreInstancesTests {
    @Test func theVersionsNameTrellisAndTheSQLiteLibrary() throws {
        let store = try Store()
        let sqlite = try #require(try store.queue.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") })
        #expect(Store.version == "development")
        #expect(Store.versionAll == "Trellis development (SQLite \(sqlite))")
        #expect(Store.versionFullInfo.hasPrefix("Trellis development: an ObjectBox-style object store on SQLite \(sqlite) (source "))
        #expect(Store.versionFullInfo.hasSuffix("; not ObjectBox's database"))
    }

    @Test func aCloneSharesTheObjectsAndOutlivesTheOriginal() throws {
        let store = try Store(directoryPath: Store.inMemoryPrefix + UUID().uuidString)
        try store.box(for: Memo.self).put(Memo("first"))
        let clone = try store.clone()
        #expect(clone.directoryPath == store.directoryPath)
        #expect(try clone.box(for: Memo.self).all().map(\.text) == ["first"])
        // One transaction, whichever instance the boxes come from.
        #expect(throws: ObjectBoxError.self) {
            try clone.runInTransaction {
                try store.box(for: Memo.self).put(Memo("rolled back"))
                try clone.box(for: Memo.self).put(Memo("rolled back too"))
                throw ObjectBoxError.illegalState(message: "stop")
            }
        }
        #expect(try store.box(for: Memo.self).count() == 1)

        try store.close()
        #expect { try store.box(for: Memo.self).count() } throws: { error in
            "\(error)" == "the store \(store.directoryPath) is closed"
        }
        try clone.box(for: Memo.self).put(Memo("second"))
        #expect(try clone.box(for: Memo.self).all().map(\.text) == ["first", "second"])
        try clone.close()
        #expect(throws: (any Error).self) { try clone.box(for: Memo.self).count() }
        #expect(throws: ObjectBoxError.self) { try clone.clone() }
    }

    @Test func nestedTransactionsOfTwoStoresEachJoinTheirOwnStore() throws {
        let first = try Store(directoryPath: Store.inMemoryPrefix + UUID().uuidString)
        let second = try Store(directoryPath: Store.inMemoryPrefix + UUID().uuidString)
        #expect(throws: ObjectBoxError.self) {
            try first.runInTransaction {
                try first.box(for: Memo.self).put(Memo("rolled back"))
                try second.runInTransaction {
                    try second.box(for: Memo.self).put(Memo("committed"))
                    // The first store's box joins the first store's transaction.
                    try first.box(for: Memo.self).put(Memo("rolled back too"))
                }
                #expect(try first.box(for: Memo.self).count() == 2)
                throw ObjectBoxError.illegalState(message: "stop")
            }
        }
        #expect(try first.box(for: Memo.self).count() == 0)
        #expect(try second.box(for: Memo.self).all().map(\.text) == ["committed"])
    }

    @Test func neitherAStoreNorItsCloneClosesFromItsTransaction() throws {
        let store = try Store(directoryPath: Store.inMemoryPrefix + UUID().uuidString)
        let clone = try store.clone()
        try store.runInTransaction {
            #expect(throws: ObjectBoxError.self) { try store.close() }
            #expect(throws: ObjectBoxError.self) { try clone.close() }
        }
        try store.box(for: Memo.self).put(Memo("still open"))
        #expect(try clone.box(for: Memo.self).count() == 1)
    }

    @Test func attachToFindsTheStoreOpenInAFolder() throws {
        let folder = temporaryFolder()
        #expect(try !Store.isOpen(directory: folder))
        #expect { try Store.attachTo(directory: folder) } throws: { error in
            "\(error)" == "attachTo: no store is open in \(folder)"
        }
        let store = try Store(directoryPath: folder)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(try Store.isOpen(directory: folder))
        #expect(try Store.isOpen(directory: folder + "/"))
        try store.box(for: Memo.self).put(Memo("kept"))
        let attached = try Store.attachTo(directory: folder)
        #expect(try attached.box(for: Memo.self).all().map(\.text) == ["kept"])
        try attached.close()
        #expect(try Store.isOpen(directory: folder))   // the original is still open
        try store.close()
        #expect(try !Store.isOpen(directory: folder))
    }

    @Test func aReadOnlyStoreReadsAndRefusesWrites() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: ObjectBoxError.self) {
            try Store(directoryPath: folder, readOnly: true)
        }
        #expect(!FileManager.default.fileExists(atPath: folder))
        let writer = try Store(directoryPath: folder)
        try writer.box(for: Memo.self).put(Memo("written"))
        try writer.close()

        let reader = try Store(directoryPath: folder, maxDbSizeInKByte: 1024, fileMode: 0o644, readOnly: true)
        #expect(try reader.box(for: Memo.self).all().map(\.text) == ["written"])
        #expect {
            try reader.box(for: Memo.self).put(Memo("refused"))
        } throws: { error in
            if case ObjectBoxError.cannotWriteWhileReading = error { return true }
            return false
        }
        #expect(try reader.box(for: Memo.self).count() == 1)
        try reader.close()
    }

    @Test func theLargestSizeLimitLeavesTheStoreUnlimited() throws {
        let folder = temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let store = try Store(directoryPath: folder, maxDbSizeInKByte: UInt64.max)
        try store.box(for: Memo.self).put(Memo("kept"))
        #expect(try store.box(for: Memo.self).all().map(\.text) == ["kept"])
        try store.close()
    }

    @Test func anAverageThatDoesNotFitInAnIntThrows() throws {
        final class Reading: Entity {
            var id: Id = 0
            var value: Int64 = 0
            var ratio: Double = 0
            init() {}
        }
        let store = try Store(directoryPath: Store.inMemoryPrefix + UUID().uuidString)
        let box = store.box(for: Reading.self)
        let big = Reading()
        big.value = .max
        big.ratio = .infinity
        let small = Reading()
        small.value = 1
        try box.put([big, small])
        let query = try box.query().build()
        #expect(throws: ObjectBoxError.self) { try query.property(Property<Reading, Double>("ratio")).averageInt() }
        // SQLite averages integers as doubles: Int64.max / 2 rounds up to 2^62.
        #expect(try query.property(Property<Reading, Int64>("value")).averageInt() == 1 << 62)
        let huge = Reading()
        huge.value = .max
        try box.put(huge)
        try box.remove(small)
        #expect(throws: ObjectBoxError.self) { try query.property(Property<Reading, Int64>("value")).averageInt() }
    }

}

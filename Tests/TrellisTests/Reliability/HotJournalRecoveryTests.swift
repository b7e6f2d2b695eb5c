import Foundation
import Testing
import Trellis

// A process that dies in the middle of a write leaves a hot rollback journal
// and a database file holding pages of the unfinished transaction. The next
// connection rolls the journal back: the file holds the committed state only.

@Suite struct HotJournalRecoveryTests {
    private func temporaryPath(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(name)-\(UUID().uuidString).sqlite").path
    }

    private func fileSize(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.size] as? NSNumber)?.intValue ?? 0
    }

    @Test func theNextConnectionRollsBackAnInterruptedTransaction() throws {
        let livePath = temporaryPath("hot-journal-live")
        let crashedPath = temporaryPath("hot-journal-crashed")
        defer {
            for path in [livePath, crashedPath] {
                for suffix in ["", "-journal"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            }
        }

        let dbQueue = try DatabaseQueue(path: livePath)
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item (id INTEGER PRIMARY KEY, payload BLOB NOT NULL)")
            for index in 0..<100 {
                try db.execute(sql: "INSERT INTO item (payload) VALUES (?)", arguments: [Data(repeating: UInt8(index), count: 100)])
            }
        }
        let committedSize = try fileSize(livePath)

        // The copy taken in the middle of a transaction is the file a killed
        // process leaves behind: a tiny page cache makes SQLite write pages of
        // the transaction to the database file before the commit.
        struct Crash: Error {}
        #expect(throws: Crash.self) {
            try dbQueue.writeWithoutTransaction { db in
                try db.execute(sql: "PRAGMA cache_size = 2")
                try db.inTransaction {
                    try db.execute(sql: "UPDATE item SET payload = zeroblob(100)")
                    for _ in 0..<500 {
                        try db.execute(sql: "INSERT INTO item (payload) VALUES (?)", arguments: [Data(repeating: 0xFF, count: 1_000)])
                    }
                    try FileManager.default.copyItem(atPath: livePath, toPath: crashedPath)
                    try FileManager.default.copyItem(atPath: livePath + "-journal", toPath: crashedPath + "-journal")
                    throw Crash()
                }
            }
        }
        #expect(try fileSize(crashedPath) > committedSize)
        #expect(try fileSize(crashedPath + "-journal") > 0)

        let recovered = try DatabaseQueue(path: crashedPath)
        try recovered.read { db in
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") == 100)
            let payloads = try Data.fetchAll(db, sql: "SELECT payload FROM item ORDER BY id")
            #expect(payloads == (0..<100).map { Data(repeating: UInt8($0), count: 100) })
            #expect(try String.fetchOne(db, sql: "PRAGMA integrity_check") == "ok")
        }
        #expect(FileManager.default.fileExists(atPath: crashedPath + "-journal") == false)
    }
}

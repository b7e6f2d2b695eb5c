// A writer for the crash-consistency tests: it commits transactions of
// three rows each and prints "ack N" once transaction N is committed, until
// it is killed.
//
//     TrellisCrashWriter PATH [--ack-before-commit]
//
// With --ack-before-commit it is the faulty writer that the tests must
// catch: it acknowledges each transaction before its commit, and takes a
// few milliseconds to commit, as a slow disk would.

import Foundation
import Trellis

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    FileHandle.standardError.write(Data("usage: TrellisCrashWriter PATH [--ack-before-commit]\n".utf8))
    exit(2)
}
let acknowledgesBeforeCommit = arguments.dropFirst(2).contains("--ack-before-commit")

func acknowledge(_ transaction: Int) {
    FileHandle.standardOutput.write(Data("ack \(transaction)\n".utf8))
}

do {
    let dbQueue = try DatabaseQueue(path: arguments[1])
    try dbQueue.write { db in
        try db.execute(sql: """
            CREATE TABLE IF NOT EXISTS entry (
                id INTEGER PRIMARY KEY,
                txn INTEGER NOT NULL,
                payload BLOB NOT NULL)
            """)
    }
    var transaction = try dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT MAX(txn) FROM entry") } ?? 0
    while true {
        transaction += 1
        let current = transaction
        try dbQueue.write { db in
            for part in 0..<3 {
                try db.execute(
                    sql: "INSERT INTO entry (txn, payload) VALUES (?, ?)",
                    arguments: [current, Data(repeating: UInt8(truncatingIfNeeded: current &+ part), count: 2_000)])
            }
            if acknowledgesBeforeCommit {
                acknowledge(current)
                usleep(20_000)
            }
        }
        if !acknowledgesBeforeCommit { acknowledge(current) }
    }
} catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    exit(1)
}

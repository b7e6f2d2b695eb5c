import Foundation
import Testing
import Trellis
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

// A writer process is killed with SIGKILL at random points, again and again,
// on one database file. After each kill, every transaction it acknowledged is
// on disk, none is there in part, and `integrity_check` is ok.
//
// TRELLIS_CRASH_ITERATIONS sets the number of kills (5 by default; 100 or more
// for a full run).

@Suite(.serialized) struct CrashConsistencyTests {
    private static var iterations: Int {
        ProcessInfo.processInfo.environment["TRELLIS_CRASH_ITERATIONS"].flatMap(Int.init) ?? 5
    }

    /// The writer's executable, built beside the test bundle.
    private static var writerURL: URL? {
        var directory = Bundle.main.bundleURL
        for _ in 0..<3 {
            let candidate = directory.appendingPathComponent("TrellisCrashWriter")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            directory.deleteLastPathComponent()
        }
        return nil
    }

    /// What the check of a database found after a kill.
    struct Violations: Equatable {
        var lostAcknowledged: [Int] = []
        var partial: [Int] = []
        var integrity = "ok"

        var isEmpty: Bool { lostAcknowledged.isEmpty && partial.isEmpty && integrity == "ok" }
    }

    /// Runs the writer until it has acknowledged `acknowledgements` more
    /// transactions, kills it, and returns every transaction it acknowledged.
    private func runWriterAndKill(
        path: String, acknowledgements: Int, faulty: Bool) throws -> Set<Int>
    {
        let writerURL = try #require(Self.writerURL, "TrellisCrashWriter is built with the tests")
        let process = Process()
        process.executableURL = writerURL
        process.arguments = faulty ? [path, "--ack-before-commit"] : [path]
        let output = Pipe()
        process.standardOutput = output
        try process.run()

        var acknowledged = Set<Int>()
        var pending = ""
        func absorb(_ data: Data) {
            pending += String(decoding: data, as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                if line.hasPrefix("ack "), let number = Int(line.dropFirst(4)) { acknowledged.insert(number) }
            }
        }
        var fresh = 0
        while fresh < acknowledgements {
            let data = output.fileHandleForReading.availableData
            if data.isEmpty { break } // the writer ended on its own: its error is on standard error
            let before = acknowledged.count
            absorb(data)
            fresh += acknowledged.count - before
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // Acknowledgements written before the kill count too.
        absorb(output.fileHandleForReading.readDataToEndOfFile())
        return acknowledged
    }

    private func check(path: String, acknowledged: Set<Int>) throws -> Violations {
        let dbQueue = try DatabaseQueue(path: path)
        defer { try? dbQueue.close() }
        return try dbQueue.read { db in
            var violations = Violations()
            let counts = try Row.fetchAll(db, sql: "SELECT txn, COUNT(*) AS n FROM entry GROUP BY txn")
            var stored = Set<Int>()
            for row in counts {
                let txn: Int = row["txn"]
                let count: Int = row["n"]
                if count == 3 { stored.insert(txn) } else { violations.partial.append(txn) }
            }
            violations.lostAcknowledged = acknowledged.subtracting(stored).sorted()
            violations.integrity = try String.fetchOne(db, sql: "PRAGMA integrity_check") ?? "?"
            return violations
        }
    }

    private func killRepeatedly(faulty: Bool, iterations: Int) throws -> [Violations] {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("crash-\(UUID().uuidString).sqlite").path
        defer {
            for suffix in ["", "-journal", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        var acknowledged = Set<Int>()
        var results: [Violations] = []
        for _ in 0..<iterations {
            acknowledged.formUnion(try runWriterAndKill(
                path: path, acknowledgements: Int.random(in: 1...8), faulty: faulty))
            results.append(try check(path: path, acknowledged: acknowledged))
        }
        return results
    }

    @Test func everyAcknowledgedTransactionSurvivesAKill() throws {
        let results = try killRepeatedly(faulty: false, iterations: Self.iterations)
        #expect(results.count == Self.iterations)
        for violations in results {
            #expect(violations.isEmpty, "\(violations)")
        }
    }

    @Test func theCheckCatchesAWriterThatAcknowledgesBeforeItCommits() throws {
        let results = try killRepeatedly(faulty: true, iterations: 3)
        #expect(results.contains { !$0.lostAcknowledged.isEmpty })
        // The faulty writer loses transactions, but SQLite still never leaves one in part.
        #expect(results.allSatisfy { $0.partial.isEmpty && $0.integrity == "ok" })
    }
}

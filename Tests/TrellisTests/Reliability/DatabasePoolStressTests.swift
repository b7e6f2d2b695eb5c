import Foundation
import Testing
import Trellis

/// What the threads of a stress run saw, shared between them.
private final class StressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var violations: [String] = []
    private(set) var reads = 0
    private(set) var transfers = 0
    private(set) var rollbacks = 0

    func violation(_ message: String) { lock.withLock { if violations.count < 20 { violations.append(message) } } }
    func read() { lock.withLock { reads += 1 } }
    func transfer() { lock.withLock { transfers += 1 } }
    func rollback() { lock.withLock { rollbacks += 1 } }
    var recordedViolations: [String] { lock.withLock { violations } }
}

/// The failure a writer throws half-way through a transfer.
private struct AbandonedTransfer: Error {}

/// Eight threads read and write a `DatabasePool` at once: writers move
/// money between accounts, some of them failing half-way, and readers
/// check that the total never changes and that the version they see never
/// goes back. The run lasts `TRELLIS_STRESS_SECONDS` seconds (2 by default;
/// the reliability figures come from a run of 60).
@Suite struct DatabasePoolStressTests {
    static let seconds = ProcessInfo.processInfo.environment["TRELLIS_STRESS_SECONDS"].flatMap(Double.init) ?? 2
    static let accountCount = 20
    static let initialBalance = 1_000
    static let total = accountCount * initialBalance

    @Test func transfersKeepTheSumAndReadersSeeConsistentMonotonicStates() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stress-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        var config = Configuration()
        config.maximumReaderCount = 4
        let dbPool = try DatabasePool(path: path, configuration: config)
        try dbPool.write { db in
            try db.execute(sql: """
                CREATE TABLE account(id INTEGER PRIMARY KEY, balance INTEGER NOT NULL);
                CREATE TABLE meta(version INTEGER NOT NULL);
                INSERT INTO meta VALUES (0);
                """)
            for id in 1...Self.accountCount {
                try db.execute(sql: "INSERT INTO account VALUES (?, ?)", arguments: [id, Self.initialBalance])
            }
        }
        let log = StressLog()
        let deadline = Date(timeIntervalSinceNow: Self.seconds)
        let finished = DispatchGroup()
        for thread in 0..<8 {
            finished.enter()
            let worker = Thread {
                defer { finished.leave() }
                if thread < 4 {
                    Self.write(dbPool, log: log, until: deadline, seed: UInt64(thread))
                } else {
                    Self.read(dbPool, log: log, until: deadline)
                }
            }
            worker.start()
        }
        finished.wait()

        #expect(log.recordedViolations == [])
        #expect(log.reads > 0)
        #expect(log.transfers > 0)
        #expect(log.rollbacks > 0)
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT sum(balance) FROM account") } == Self.total)
        // Each committed transfer counted once, each rolled back one not at all.
        #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT version FROM meta") } == log.transfers)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") } == "ok")
    }

    private static func write(_ dbPool: DatabasePool, log: StressLog, until deadline: Date, seed: UInt64) {
        var generator = SplitMix(seed: seed)
        var count = 0
        // A few transfers however slow the machine: the first one of
        // each writer commits, the second one fails half-way.
        while count < 3 || Date() < deadline {
            count += 1
            let from = Int(generator.next() % UInt64(accountCount)) + 1
            let to = Int(generator.next() % UInt64(accountCount)) + 1
            let amount = Int(generator.next() % 100)
            let abandons = count % 10 == 2
            do {
                try dbPool.write { db in
                    try db.execute(sql: "UPDATE account SET balance = balance - ? WHERE id = ?", arguments: [amount, from])
                    if abandons { throw AbandonedTransfer() }
                    try db.execute(sql: "UPDATE account SET balance = balance + ? WHERE id = ?", arguments: [amount, to])
                    try db.execute(sql: "UPDATE meta SET version = version + 1")
                }
                log.transfer()
            } catch is AbandonedTransfer {
                log.rollback()
            } catch {
                log.violation("a transfer failed: \(error)")
            }
        }
    }

    private static func read(_ dbPool: DatabasePool, log: StressLog, until deadline: Date) {
        var lastVersion = 0
        repeat {
            do {
                let (sum, rowSum, version) = try dbPool.read { db in
                    let sum = try Int.fetchOne(db, sql: "SELECT sum(balance) FROM account") ?? -1
                    // A second statement of the same read sees the same state.
                    let rowSum = try Int.fetchAll(db, sql: "SELECT balance FROM account").reduce(0, +)
                    let version = try Int.fetchOne(db, sql: "SELECT version FROM meta") ?? -1
                    return (sum, rowSum, version)
                }
                log.read()
                if sum != total || rowSum != total {
                    log.violation("a reader saw the sums \(sum) and \(rowSum) instead of \(total)")
                }
                if version < lastVersion {
                    log.violation("a reader saw version \(version) after \(lastVersion)")
                }
                lastVersion = version
            } catch {
                log.violation("a read failed: \(error)")
            }
        } while Date() < deadline
    }
}

/// A seeded random number generator: each writer moves its own sequence of
/// amounts between its own sequence of accounts.
private struct SplitMix: RandomNumberGenerator {
    var state: UInt64

    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

import Foundation
import Testing
import Trellis

// Samples and claims of GRDB 7.10.0's Concurrency,
// SwiftConcurrency, DatabaseSharing, DatabaseConnections, DatabaseQueue,
// DatabasePool, FullTextSearch, FTS5Tokenizers, GRDB7MigrationGuide,
// DatabaseSchema(Recommendations), and DatabaseObservation documents.

private final class AuditCBox<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T { lock.withLock { storage } }
    func mutate(_ body: (inout T) -> Void) { lock.withLock { body(&storage) } }
}

private func auditCPath() throws -> String {
    let dir = FileManager.default.temporaryDirectory
        .appendingPathComponent("GRDBDocumentedConnections-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    return dir.appendingPathComponent("db.sqlite").path
}

private struct AuditCPlayer: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "player"
    var name: String
}

private func auditCSetUp(_ writer: some DatabaseWriter) throws {
    try writer.write { db in
        try db.create(table: "player") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text).notNull()
        }
        try db.create(table: "team") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("name", .text)
        }
    }
}

// MARK: - Concurrency

@Suite("GRDB documented connections and search: Concurrency")
struct GRDBDocumentedConnectionsConcurrencyTests {
    // "Inside a read access, all attempts to write raise an error."
    @Test func readsForbidWritesInQueuesAndPools() throws {
        let dbQueue = try DatabaseQueue()
        let dbPool = try DatabasePool(path: auditCPath())
        for writer in [dbQueue as any DatabaseWriter, dbPool] {
            try auditCSetUp(writer)
            let error = #expect(throws: DatabaseError.self) {
                try writer.read { db in try AuditCPlayer(name: "Arthur").insert(db) }
            }
            #expect(error?.resultCode == .SQLITE_READONLY)
            #expect(try writer.read { db in try AuditCPlayer.fetchCount(db) } == 0)
        }
    }

    // "The Forbidden Writes guarantee can only be lifted with DatabaseQueue.
    // It can be restored with PRAGMA query_only."
    @Test func queueUnsafeReadAllowsWritesUntilQueryOnly() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        try dbQueue.unsafeRead { db in
            try AuditCPlayer(name: "Arthur").insert(db)
            try db.execute(sql: "PRAGMA query_only = 1")
            #expect(throws: DatabaseError.self) { try AuditCPlayer(name: "Barbara").insert(db) }
            try db.execute(sql: "PRAGMA query_only = 0")
        }
        #expect(try dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 1)
    }

    // "Read outside of any transaction": unsafeRead lifts Isolated Reads;
    // a pool's unsafeRead still forbids writes.
    @Test func unsafeReadsAreOutsideOfTransactions() throws {
        let dbQueue = try DatabaseQueue()
        let dbPool = try DatabasePool(path: auditCPath())
        for writer in [dbQueue as any DatabaseWriter, dbPool] {
            try auditCSetUp(writer)
            #expect(try writer.unsafeRead { db in db.isInsideTransaction } == false)
            #expect(try writer.read { db in db.isInsideTransaction } == true)
        }
        #expect(throws: DatabaseError.self) {
            try dbPool.unsafeRead { db in try AuditCPlayer(name: "Arthur").insert(db) }
        }
    }

    // "try dbQueue.writeWithoutTransaction { db in try db.inTransaction { ... } }"
    @Test func writeWithoutTransactionThenExplicitTransaction() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        try dbQueue.writeWithoutTransaction { db in
            #expect(!db.isInsideTransaction)
            try db.inTransaction {
                #expect(db.isInsideTransaction)
                try AuditCPlayer(name: "Arthur").insert(db)
                return .rollback
            }
            try db.inTransaction {
                try AuditCPlayer(name: "Barbara").insert(db)
                return .commit
            }
            #expect(!db.isInsideTransaction)
        }
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Barbara"])
    }

    // unsafeReentrantWrite: reentrant write, outside of any transaction.
    @Test func unsafeReentrantWriteIsReentrant() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        try dbQueue.unsafeReentrantWrite { db in
            #expect(!db.isInsideTransaction)
            try dbQueue.unsafeReentrantWrite { db in
                try AuditCPlayer(name: "Arthur").insert(db)
            }
        }
        try dbQueue.write { _ in
            try dbQueue.unsafeReentrantWrite { db in
                try AuditCPlayer(name: "Barbara").insert(db)
            }
        }
        #expect(try dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 2)
    }

    // unsafeReentrantRead: reentrant read.
    @Test func unsafeReentrantReadIsReentrant() throws {
        let dbQueue = try DatabaseQueue()
        let dbPool = try DatabasePool(path: auditCPath())
        for writer in [dbQueue as any DatabaseWriter, dbPool] {
            try auditCSetUp(writer)
            let count = try writer.unsafeReentrantRead { _ in
                try writer.unsafeReentrantRead { db in try AuditCPlayer.fetchCount(db) }
            }
            #expect(count == 0)
        }
        let count = try dbQueue.read { _ in
            try dbQueue.unsafeReentrantRead { db in try AuditCPlayer.fetchCount(db) }
        }
        #expect(count == 0)
    }

    // GRDB7MigrationGuide: "The only SQL statement that can execute in a
    // cancelled database access is ROLLBACK."
    @Test func cancelledAccessBeforeStartExecutesNoStatementButRollback() async throws {
        let statements = AuditCBox<[String]>([])
        let recording = AuditCBox(false)
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in
                if recording.value { statements.mutate { $0.append("\(event)") } }
            }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try auditCSetUp(dbQueue)
        recording.mutate { $0 = true }
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        recording.mutate { $0 = false }
        #expect(statements.value.allSatisfy { $0.uppercased().hasPrefix("ROLLBACK") }, "\(statements.value)")
        #expect(try await dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 0)
    }

    @Test func cancelledAccessDuringWriteOnlyRollsBack() async throws {
        let statements = AuditCBox<[String]>([])
        let recording = AuditCBox(false)
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in
                if recording.value { statements.mutate { $0.append("\(event)") } }
            }
        }
        let dbQueue = try DatabaseQueue(configuration: config)
        try auditCSetUp(dbQueue)
        let inserted = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let task = Task {
            try await dbQueue.write { db in
                try AuditCPlayer(name: "Arthur").insert(db)
                inserted.signal()
                resume.wait()
                recording.mutate { $0 = true }
                try AuditCPlayer(name: "Barbara").insert(db)
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                inserted.wait()
                continuation.resume()
            }
        }
        task.cancel()
        resume.signal()
        await #expect(throws: CancellationError.self) { try await task.value }
        recording.mutate { $0 = false }
        #expect(!statements.value.isEmpty)
        #expect(statements.value.allSatisfy { $0.uppercased().hasPrefix("ROLLBACK") }, "\(statements.value)")
        #expect(try await dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 0)
    }

    // "Once an async Task is cancelled, reads and writes throw CancellationError"
    @Test func cancelledAsyncReadsThrowCancellationError() async throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await dbPool.read { db in try AuditCPlayer.fetchCount(db) }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
    }

    // GRDB7MigrationGuide: "Other asynchronous database accesses, such as
    // methods accepting a completion blocks (asyncRead, etc.) ... do not
    // handle cancellation and will proceed to completion by default."
    @Test func completionBlockAccessesIgnoreTaskCancellation() async throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let count: Int = try await withCheckedThrowingContinuation { continuation in
                dbQueue.asyncWrite({ db -> Int in
                    try AuditCPlayer(name: "Arthur").insert(db)
                    return try AuditCPlayer.fetchCount(db)
                }, completion: { _, result in continuation.resume(with: result) })
            }
            let readCount: Int = try await withCheckedThrowingContinuation { continuation in
                dbQueue.asyncRead { dbResult in
                    continuation.resume(with: Result { try AuditCPlayer.fetchCount(dbResult.get()) })
                }
            }
            return [count, readCount]
        }
        #expect(try await task.value == [1, 1])
    }

    // GRDB7MigrationGuide: wrap the access in an unstructured Task to
    // ignore cancellation of the current task.
    @Test func unstructuredTaskCompletesDespiteCancellation() async throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let outer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            let task = Task {
                try await dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
            }
            try await task.value
        }
        try await outer.value
        #expect(try await dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 1)
    }

    // "Types that conform to TransactionObserver can also use
    // [asyncConcurrentRead] in their databaseDidCommit(_:) method"
    private final class CommitReader: TransactionObserver, @unchecked Sendable {
        let dbPool: DatabasePool
        let counts: AuditCBox<[Int]>
        let done: DispatchSemaphore
        init(dbPool: DatabasePool, counts: AuditCBox<[Int]>, done: DispatchSemaphore) {
            self.dbPool = dbPool
            self.counts = counts
            self.done = done
        }
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { }
        func databaseDidCommit(_ db: Database) {
            let counts = counts
            let done = done
            dbPool.asyncConcurrentRead { dbResult in
                let count = (try? dbResult.get()).flatMap { try? AuditCPlayer.fetchCount($0) } ?? -1
                counts.mutate { $0.append(count) }
                done.signal()
            }
        }
        func databaseDidRollback(_ db: Database) { }
    }

    @Test func asyncConcurrentReadFromDatabaseDidCommit() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let counts = AuditCBox<[Int]>([])
        let done = DispatchSemaphore(value: 0)
        let observer = CommitReader(dbPool: dbPool, counts: counts, done: done)
        dbPool.add(transactionObserver: observer, extent: .nextTransaction)
        try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(counts.value == [1])
    }

    // asyncConcurrentRead "blocks until it can guarantee its closure argument
    // an isolated access to the database, in the exact state left by the
    // last transaction."
    @Test func asyncConcurrentReadSeesTheStateOfTheLastTransaction() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let start = DispatchSemaphore(value: 0)
        let done = DispatchSemaphore(value: 0)
        let count = AuditCBox<Int?>(nil)
        try dbPool.writeWithoutTransaction { db in
            try db.inTransaction {
                try AuditCPlayer(name: "Arthur").insert(db)
                return .commit
            }
            dbPool.asyncConcurrentRead { dbResult in
                start.wait()
                let value = try? AuditCPlayer.fetchCount(dbResult.get())
                count.mutate { $0 = value }
                done.signal()
            }
            try db.inTransaction {
                try AuditCPlayer(name: "Barbara").insert(db)
                return .commit
            }
        }
        start.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(count.value == 1)
        #expect(try dbPool.read { db in try AuditCPlayer.fetchCount(db) } == 2)
    }

    // "reads can even run during write operations" and are isolated.
    @Test func poolReadsRunDuringWrites() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let count = AuditCBox<Int?>(nil)
        try dbPool.write { db in
            try AuditCPlayer(name: "Arthur").insert(db)
            let done = DispatchSemaphore(value: 0)
            DispatchQueue.global().async {
                let value = try? dbPool.read { db in try AuditCPlayer.fetchCount(db) }
                count.mutate { $0 = value }
                done.signal()
            }
            #expect(done.wait(timeout: .now() + 10) == .success)
        }
        #expect(count.value == 0)
    }

    // "DatabasePool ... all reads can run in parallel"
    @Test func poolReadsRunInParallel() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let semaphores = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
        let results = AuditCBox<[Bool]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { index in
            let ok = (try? dbPool.read { _ in
                semaphores[index].signal()
                return semaphores[1 - index].wait(timeout: .now() + 10) == .success
            }) ?? false
            results.mutate { $0.append(ok) }
        }
        #expect(results.value == [true, true])
    }
}

// MARK: - DatabaseQueue, DatabasePool, Database Connections

@Suite("GRDB documented connections and search: connections")
struct GRDBDocumentedConnectionsConnectionsTests {
    // "SQLite creates the database file if it does not already exist."
    @Test func queuesAndPoolsCreateTheirFile() throws {
        let queuePath = try auditCPath()
        let poolPath = try auditCPath()
        _ = try DatabaseQueue(path: queuePath)
        _ = try DatabasePool(path: poolPath)
        #expect(FileManager.default.fileExists(atPath: queuePath))
        #expect(FileManager.default.fileExists(atPath: poolPath))
    }

    // "DatabasePool opens your SQLite database in the WAL mode."
    @Test func poolsUseTheWALMode() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
        #expect(try dbPool.write { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }

    // "Unless Configuration.readonly, the database is set to the WAL mode."
    @Test func readOnlyPoolsDoNotChangeTheJournalMode() throws {
        let path = try auditCPath()
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try auditCSetUp(dbQueue)
            try dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        }
        var config = Configuration()
        config.readonly = true
        let dbPool = try DatabasePool(path: path, configuration: config)
        #expect(try dbPool.read { db in try AuditCPlayer.fetchCount(db) } == 1)
        #expect(try dbPool.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "delete")
        #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
    }

    // DatabaseSharing: a read-only pool on a missing file throws, and
    // creates no file.
    @Test func readOnlyPoolOnAMissingFileThrows() throws {
        let path = try auditCPath()
        var config = Configuration()
        config.readonly = true
        #expect(throws: (any Error).self) { try DatabasePool(path: path, configuration: config) }
        #expect(!FileManager.default.fileExists(atPath: path))
    }

    // "In order to create several connections to the same in-memory
    // database, give this database a name"
    @Test func namedInMemoryDatabasesAreShared() throws {
        let name = "auditC-\(UUID().uuidString)"
        let dbQueue1 = try DatabaseQueue(named: name)
        let dbQueue2 = try DatabaseQueue(named: name)
        let other = try DatabaseQueue(named: name + "-other")
        try auditCSetUp(dbQueue1)
        try dbQueue1.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(try dbQueue2.read { db in try AuditCPlayer.fetchCount(db) } == 1)
        #expect(try other.read { db in try db.tableExists("player") } == false)
    }

    @Test func inMemoryAndTemporaryCopies() throws {
        let path = try auditCPath()
        do {
            let dbQueue = try DatabaseQueue(path: path)
            try auditCSetUp(dbQueue)
            try dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        }
        let memoryCopy = try DatabaseQueue.inMemoryCopy(fromPath: path)
        let temporaryCopy = try DatabaseQueue.temporaryCopy(fromPath: path)
        for copy in [memoryCopy, temporaryCopy] {
            #expect(try copy.read { db in try AuditCPlayer.fetchCount(db) } == 1)
            try copy.write { db in try AuditCPlayer(name: "Barbara").insert(db) }
            #expect(try copy.read { db in try AuditCPlayer.fetchCount(db) } == 2)
        }
        #expect(temporaryCopy.path != path)
        let original = try DatabaseQueue(path: path)
        #expect(try original.read { db in try AuditCPlayer.fetchCount(db) } == 1)
    }

    @Test func queueInDatabaseAndInTransaction() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        try dbQueue.inDatabase { db in
            #expect(!db.isInsideTransaction)
            try AuditCPlayer(name: "Arthur").insert(db)
        }
        try dbQueue.inTransaction { db in
            try AuditCPlayer(name: "Barbara").insert(db)
            return .rollback
        }
        try dbQueue.inTransaction(.exclusive) { db in
            try AuditCPlayer(name: "Craig").insert(db)
            return .commit
        }
        #expect(try dbQueue.read { db in try String.fetchAll(db, sql: "SELECT name FROM player ORDER BY id") }
            == ["Arthur", "Craig"])
    }

    @Test func poolWriteInTransaction() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        try dbPool.writeInTransaction { db in
            try AuditCPlayer(name: "Arthur").insert(db)
            return .rollback
        }
        try dbPool.writeInTransaction(.immediate) { db in
            try AuditCPlayer(name: "Barbara").insert(db)
            return .commit
        }
        #expect(try dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Barbara"])
    }

    // "On the first unhandled error, all changes are reverted ... and the
    // error is rethrown."
    @Test func poolWriteRollsBackOnError() throws {
        struct Oops: Error {}
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        #expect(throws: Oops.self) {
            try dbPool.write { db in
                try AuditCPlayer(name: "Arthur").insert(db)
                throw Oops()
            }
        }
        #expect(try dbPool.read { db in try AuditCPlayer.fetchCount(db) } == 0)
    }

    @Test func memoryManagementMethodsKeepConnectionsUsable() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        dbQueue.releaseMemory()
        #expect(try dbQueue.read { db in try AuditCPlayer.fetchCount(db) } == 0)

        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        _ = try dbPool.read { db in try AuditCPlayer.fetchCount(db) }
        dbPool.releaseMemory()
        dbPool.releaseMemoryEventually()
        dbPool.invalidateReadOnlyConnections()
        try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(try dbPool.read { db in try AuditCPlayer.fetchCount(db) } == 1)
    }

    @Test func snapshotsDoNotSeeLaterWrites() throws {
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        let snapshot = try dbPool.makeSnapshot()
        let snapshotPool = try dbPool.makeSnapshotPool()
        try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(try snapshot.read { db in try AuditCPlayer.fetchCount(db) } == 0)
        #expect(try snapshotPool.read { db in try AuditCPlayer.fetchCount(db) } == 0)
        #expect(try dbPool.read { db in try AuditCPlayer.fetchCount(db) } == 1)
    }

    // "HOW TO open a read-only connection to a database resource"
    @Test func readOnlyQueueRefusesWrites() throws {
        let path = try auditCPath()
        do { try auditCSetUp(DatabaseQueue(path: path)) }
        var config = Configuration()
        config.readonly = true
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        let error = #expect(throws: DatabaseError.self) {
            try dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        }
        #expect(error?.resultCode == .SQLITE_READONLY)
    }

    // "Database connections are automatically closed when DatabaseQueue or
    // DatabasePool instances are deinitialized." A closed pool lets
    // another connection switch the journal mode back.
    @Test func deinitializedPoolsCloseTheirConnections() throws {
        let path = try auditCPath()
        do {
            let dbPool = try DatabasePool(path: path)
            try auditCSetUp(dbPool)
            _ = try dbPool.read { db in try AuditCPlayer.fetchCount(db) }
        }
        let dbQueue = try DatabaseQueue(path: path)
        let mode = try dbQueue.writeWithoutTransaction { db in
            try String.fetchOne(db, sql: "PRAGMA journal_mode = DELETE")
        }
        #expect(mode == "delete")
    }
}

// MARK: - Database Sharing

@Suite("GRDB documented connections and search: database sharing")
struct GRDBDocumentedConnectionsSharingTests {
    // "Post Database.suspendNotification ... you will get SQLITE_INTERRUPT
    // (code 9) or SQLITE_ABORT (code 4) errors"; "Post resumeNotification in
    // order to resume suspended databases."
    @Test func suspendedDatabasesRefuseWritesUntilResumed() throws {
        var configuration = Configuration()
        configuration.observesSuspensionNotifications = true
        let dbPool = try DatabasePool(path: auditCPath(), configuration: configuration)
        try auditCSetUp(dbPool)
        NotificationCenter.default.post(name: Database.suspendNotification, object: nil)
        var caught = false
        do {
            try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        } catch DatabaseError.SQLITE_INTERRUPT, DatabaseError.SQLITE_ABORT {
            caught = true
        }
        #expect(caught)
        NotificationCenter.default.post(name: Database.resumeNotification, object: nil)
        try dbPool.write { db in try AuditCPlayer(name: "Barbara").insert(db) }
        #expect(try dbPool.read { db in try String.fetchAll(db, sql: "SELECT name FROM player") } == ["Barbara"])
    }

    // "Notify changes made to the "player" and "team" tables only"
    @Test func regionObservationOfTwoTables() throws {
        struct Team: TableRecord {}
        let dbPool = try DatabasePool(path: auditCPath())
        try auditCSetUp(dbPool)
        try dbPool.write { db in try db.create(table: "other") { t in t.column("a") } }
        let count = AuditCBox(0)
        let observation = DatabaseRegionObservation(tracking: AuditCPlayer.all(), Team.all())
        let observer = observation.start(in: dbPool) { error in
            Issue.record(error)
        } onChange: { _ in
            count.mutate { $0 += 1 }
        }
        try dbPool.write { db in try db.execute(sql: "INSERT INTO other VALUES (1)") }
        #expect(count.value == 0)
        try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(count.value == 1)
        try dbPool.write { db in try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')") }
        #expect(count.value == 2)
        observer.cancel()
    }

    // "It is also possible to use a DatabaseQueue, with the .wal journalMode."
    @Test func walQueue() throws {
        var config = Configuration()
        config.journalMode = .wal
        let path = try auditCPath()
        let dbQueue = try DatabaseQueue(path: path, configuration: config)
        #expect(try dbQueue.read { db in try String.fetchOne(db, sql: "PRAGMA journal_mode") } == "wal")
    }
}

// MARK: - Full-Text Search

private struct AuditCDocument: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "document"
    var content: String
    enum Columns {
        static let content = Column(CodingKeys.content)
    }
}

private final class AuditCSynonymsTokenizer: FTS5WrapperTokenizer {
    static let name = "synonyms"
    let wrappedTokenizer: any FTS5Tokenizer
    let synonyms: [Set<String>] = [["first", "1st"]]

    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }

    func synonyms(for token: String) -> Set<String>? {
        synonyms.first { $0.contains(token) }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if tokenization.contains(.query) {
            try tokenCallback(token, flags)
            return
        }
        guard let synonyms = synonyms(for: token) else {
            try tokenCallback(token, flags)
            return
        }
        for (index, synonym) in synonyms.enumerated() {
            let synonymFlags = (index == 0) ? flags : flags.union(.colocated)
            try tokenCallback(synonym, synonymFlags)
        }
    }
}

// "Choosing the Wrapped Tokenizer"
private final class AuditCChoosingTokenizer: FTS5WrapperTokenizer {
    static let name = "custom"
    let wrappedTokenizer: any FTS5Tokenizer

    init(db: Database, arguments: [String]) throws {
        if arguments.isEmpty {
            wrappedTokenizer = try db.makeTokenizer(.unicode61())
        } else {
            let descriptor = FTS5TokenizerDescriptor(components: arguments)
            wrappedTokenizer = try db.makeTokenizer(descriptor)
        }
    }

    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token, flags)
    }
}

// A stop-word tokenizer ("Prevent "the" and other stop words from matching
// any document")
private final class AuditCStopWordsTokenizer: FTS5WrapperTokenizer {
    static let name = "stopwords"
    let wrappedTokenizer: any FTS5Tokenizer
    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }
    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        if ["the", "and"].contains(token) { return }
        try tokenCallback(token, flags)
    }
}

// "Example: Latin Script" without Foundation's applyingTransform.
private final class AuditCLatinAsciiTokenizer: FTS5WrapperTokenizer {
    static let name = "latinascii"
    let wrappedTokenizer: any FTS5Tokenizer
    init(db: Database, arguments: [String]) throws {
        wrappedTokenizer = try db.makeTokenizer(.unicode61())
    }
    func accept(token: String, flags: FTS5TokenFlags, for tokenization: FTS5Tokenization, tokenCallback: FTS5WrapperTokenCallback) throws {
        try tokenCallback(token.replacingOccurrences(of: "ß", with: "ss"), flags)
    }
}

@Suite("GRDB documented connections and search: full-text search")
struct GRDBDocumentedConnectionsFullTextTests {
    private func makeQueue() throws -> DatabaseQueue {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: AuditCSynonymsTokenizer.self)
            db.add(tokenizer: AuditCChoosingTokenizer.self)
            db.add(tokenizer: AuditCStopWordsTokenizer.self)
        }
        return try DatabaseQueue(configuration: config)
    }

    // FTS5Tokenizers.md, "Example: Synonyms"
    @Test func synonymsTokenizerOutputsColocatedTokensForDocumentsOnly() throws {
        let dbQueue = try makeQueue()
        try dbQueue.read { db in
            let tokenizer = try db.makeTokenizer(AuditCSynonymsTokenizer.tokenizerDescriptor())
            let document = try tokenizer.tokenize(document: "I won first place")
            #expect(Set(document.map(\.token)) == ["i", "won", "first", "1st", "place"])
            #expect(document.count == 5)
            #expect(document.filter { $0.flags.contains(.colocated) }.count == 1)
            let query = try tokenizer.tokenize(query: "first")
            #expect(query.map(\.token) == ["first"])
        }
    }

    @Test func synonymsMatchInFullTextTables() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = AuditCSynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.execute(sql: "INSERT INTO document VALUES (?)", arguments: ["I won first place"])
            try AuditCDocument(content: "I won 1st place").insert(db)
            try AuditCDocument(content: "Second").insert(db)
            let pattern = FTS5Pattern(matchingAnyTokenIn: "1st")
            #expect(try AuditCDocument.matching(pattern).fetchCount(db) == 2)
            #expect(try AuditCDocument.matching(FTS5Pattern(matchingAnyTokenIn: "first")).fetchCount(db) == 2)
        }
    }

    // FTS5Tokenizers.md, "Choosing the Wrapped Tokenizer"
    @Test func wrappedTokenizerChosenFromArguments() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "unicode", using: FTS5()) { t in
                // Wraps the default unicode61
                t.tokenizer = AuditCChoosingTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try db.create(virtualTable: "ascii", using: FTS5()) { t in
                // Wraps ascii
                let ascii = FTS5TokenizerDescriptor.ascii()
                t.tokenizer = AuditCChoosingTokenizer.tokenizerDescriptor(arguments: ascii.components)
                t.column("content")
            }
            try db.create(virtualTable: "porter", using: FTS5()) { t in
                let porter = FTS5TokenizerDescriptor.porter(.ascii())
                t.tokenizer = AuditCChoosingTokenizer.tokenizerDescriptor(arguments: porter.components)
                t.column("content")
            }
            for table in ["unicode", "ascii", "porter"] {
                try db.execute(sql: "INSERT INTO \(table) VALUES ('Jérôme databases')")
            }
            let jerome = FTS5Pattern(matchingPhrase: "Jerome")
            let database = FTS5Pattern(matchingPhrase: "database")
            #expect(try Table("unicode").matching(jerome).fetchCount(db) == 1)
            #expect(try Table("ascii").matching(jerome).fetchCount(db) == 0)
            #expect(try Table("ascii").matching(database).fetchCount(db) == 0)
            #expect(try Table("porter").matching(database).fetchCount(db) == 1)
            #expect(try Table("porter").matching(jerome).fetchCount(db) == 0)
        }
    }

    @Test func stopWordsMatchNothing() throws {
        let dbQueue = try makeQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = AuditCStopWordsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try AuditCDocument(content: "The cat and the dog").insert(db)
            #expect(try AuditCDocument.matching(FTS5Pattern(matchingAnyTokenIn: "cat")).fetchCount(db) == 1)
            #expect(try AuditCDocument.matching(FTS5Pattern(matchingAnyTokenIn: "the")).fetchCount(db) == 0)
        }
    }

    // "Register the custom tokenizer into the database" with prepareDatabase:
    // every connection of a pool knows the tokenizer, readers included.
    @Test func poolReadersKnowTokenizersRegisteredInPrepareDatabase() throws {
        var config = Configuration()
        config.prepareDatabase { db in
            db.add(tokenizer: AuditCSynonymsTokenizer.self)
        }
        let dbPool = try DatabasePool(path: auditCPath(), configuration: config)
        try dbPool.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.tokenizer = AuditCSynonymsTokenizer.tokenizerDescriptor()
                t.column("content")
            }
            try AuditCDocument(content: "I won first place").insert(db)
        }
        let count = try dbPool.read { db in
            try AuditCDocument.matching(FTS5Pattern(matchingAnyTokenIn: "1st")).fetchCount(db)
        }
        #expect(count == 1)
    }

    // FTS5Tokenizers.md, "Example: Latin Script":
    // dbQueue.add(tokenizer: LatinAsciiTokenizer.self) // or dbPool.add
    @Test func registeringATokenizerOnADatabaseWriter() throws {
        let dbQueue = try DatabaseQueue()
        dbQueue.add(tokenizer: AuditCLatinAsciiTokenizer.self)
        try dbQueue.inDatabase { db in
            try db.create(virtualTable: "documents", using: FTS5()) { t in
                t.tokenizer = AuditCLatinAsciiTokenizer.tokenizerDescriptor()
                t.column("authors")
                t.column("title")
                t.column("body")
            }
            try db.execute(sql: "INSERT INTO documents VALUES ('Großmann', 'x', 'y')")
            #expect(try Table("documents").matching(FTS5Pattern(matchingAnyTokenIn: "Grossmann")).fetchCount(db) == 1)
        }
    }

    // FullTextSearch.md, "FTS5 Tokenization"
    @Test func fts5Tokenization() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.read { db in
            let ascii = try db.makeTokenizer(.ascii())
            #expect(try ascii.tokenize(query: "SQLite database").map(\.token) == ["sqlite", "database"])
            #expect(try ascii.tokenize(document: "SQLite database").map(\.token) == ["sqlite", "database"])
            let unicode61 = try db.makeTokenizer(.unicode61())
            #expect(try unicode61.tokenize(document: "Jérôme DORÉ").map(\.token) == ["jerome", "dore"])
            let porter = try db.makeTokenizer(.porter())
            #expect(try porter.tokenize(document: "database engines").map(\.token) == ["databas", "engin"])
        }
    }

    // FullTextSearch.md, FTS3Pattern: "Search in a specific column"
    @Test func fts3PatternsInSQLAndInAColumn() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.column("content")
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO document (content, title) VALUES ('SQLite database', 'database')")
            try db.execute(sql: "INSERT INTO document (content, title) VALUES ('Other', 'SQLite')")
            let pattern = try #require(FTS3Pattern(matchingAllTokensIn: "SQLite"))
            let sqlDocuments = try AuditCDocument.fetchAll(db,
                sql: "SELECT * FROM document WHERE content MATCH ?",
                arguments: [pattern])
            #expect(sqlDocuments.map(\.content) == ["SQLite database"])
            let all = try AuditCDocument.matching(pattern).fetchAll(db)
            #expect(all.count == 2)
            let documents = try AuditCDocument.filter { $0.content.match(pattern) }.fetchAll(db)
            #expect(documents.map(\.content) == ["SQLite database"])
            let columnDocuments = try AuditCDocument.filter(AuditCDocument.Columns.content.match(pattern)).fetchAll(db)
            #expect(columnDocuments.map(\.content) == ["SQLite database"])
        }
    }

    // FTS5: "Search in a specific column", "Sorting by relevance"
    @Test func fts5PatternsInAColumnAndRank() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
                t.column("title")
            }
            try db.execute(sql: "INSERT INTO document (content, title) VALUES ('database', 'SQLite')")
            try db.execute(sql: "INSERT INTO document (content, title) VALUES ('SQLite SQLite SQLite', 'x')")
            let pattern = try #require(FTS5Pattern(matchingAnyTokenIn: "SQLite"))
            let documents = try AuditCDocument.filter { $0.content.match(pattern) }.fetchAll(db)
            #expect(documents.map(\.content) == ["SQLite SQLite SQLite"])
            let ranked = try AuditCDocument.matching(pattern).order(Column.rank).fetchAll(db)
            #expect(ranked.count == 2)
            let sqlRanked = try AuditCDocument.fetchAll(db,
                sql: "SELECT * FROM document WHERE document MATCH ? ORDER BY rank",
                arguments: [pattern])
            #expect(sqlRanked.map(\.content) == ranked.map(\.content))
        }
    }

    // "The eventual content already present in the regular table is indexed,
    // and every insert, update or delete that happens in the regular table is
    // automatically applied to the full-text index."
    @Test func synchronizedTablesIndexExistingContent() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("author", .text)
                t.column("title", .text)
                t.column("content", .text)
                t.column("year", .integer)
            }
            try db.execute(sql: "INSERT INTO book (author, title, content, year) VALUES ('Melville', 'Moby-Dick', 'Call me Ishmael', 1851)")
            for module in ["fts4", "fts5"] {
                let name = "book_\(module)"
                if module == "fts4" {
                    try db.create(virtualTable: name, using: FTS4()) { t in
                        t.synchronize(withTable: "book")
                        t.column("author")
                        t.column("title")
                        t.column("content")
                    }
                } else {
                    try db.create(virtualTable: name, using: FTS5()) { t in
                        t.synchronize(withTable: "book")
                        t.column("author")
                        t.column("title")
                        t.column("content")
                    }
                }
                let sql = """
                    SELECT book.title
                    FROM book
                    JOIN \(name)
                        ON \(name).rowid = book.rowid
                        AND \(name) MATCH ?
                    """
                #expect(try String.fetchAll(db, sql: sql, arguments: ["ishmael"]) == ["Moby-Dick"], "\(module)")
            }
            try db.execute(sql: "UPDATE book SET content = 'Whale' WHERE id = 1")
            #expect(try Table("book_fts4").matching(FTS3Pattern(matchingAnyTokenIn: "ishmael")).fetchCount(db) == 0)
            #expect(try Table("book_fts5").matching(FTS5Pattern(matchingAnyTokenIn: "whale")).fetchCount(db) == 1)
            try db.execute(sql: "DELETE FROM book")
            #expect(try Table("book_fts4").matching(FTS3Pattern(matchingAnyTokenIn: "whale")).fetchCount(db) == 0)
            #expect(try Table("book_fts5").matching(FTS5Pattern(matchingAnyTokenIn: "whale")).fetchCount(db) == 0)
        }
    }

    // "Deleting Synchronized Full-Text Tables" with FTS5.
    @Test func droppingFTS5SynchronizationTriggers() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "book") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
            }
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            try db.drop(table: "book_ft")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            }
            try db.dropFTS5SynchronizationTriggers(forTable: "book_ft")
            try db.dropFTS5SynchronizationTriggers(forTable: "book") // Support for GRDB <= 2.3.1
            try db.execute(sql: "INSERT INTO book (title) VALUES ('Moby-Dick')")
            try db.create(virtualTable: "book_ft", using: FTS5()) { t in
                t.synchronize(withTable: "book")
                t.column("title")
            }
            #expect(try Table("book_ft").matching(FTS5Pattern(matchingAnyTokenIn: "moby")).fetchCount(db) == 1)
        }
    }

    // "They return nil when no pattern could be built from the input string"
    @Test func patternsFromEmptyInputsAreNil() {
        for input in ["", "*", "  ", "\"", "()"] {
            #expect(FTS3Pattern(matchingAnyTokenIn: input) == nil, "\(input)")
            #expect(FTS3Pattern(matchingAllTokensIn: input) == nil, "\(input)")
            #expect(FTS3Pattern(matchingAllPrefixesIn: input) == nil, "\(input)")
            #expect(FTS3Pattern(matchingPhrase: input) == nil, "\(input)")
            #expect(FTS5Pattern(matchingAnyTokenIn: input) == nil, "\(input)")
            #expect(FTS5Pattern(matchingAllTokensIn: input) == nil, "\(input)")
            #expect(FTS5Pattern(matchingAllPrefixesIn: input) == nil, "\(input)")
            #expect(FTS5Pattern(matchingPhrase: input) == nil, "\(input)")
            #expect(FTS5Pattern(matchingPrefixPhrase: input) == nil, "\(input)")
        }
    }

    // FTS5 prefix phrase: "Matches documents that start with "SQLite database""
    @Test func prefixPhraseMatchesDocumentStarts() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in t.column("content") }
            for content in ["SQLite database engine", "The SQLite database", "SQLite databases"] {
                try AuditCDocument(content: content).insert(db)
            }
            let pattern = FTS5Pattern(matchingPrefixPhrase: "SQLite database")
            // Token-wise prefix: "SQLite databases" does not start with the
            // tokens "sqlite database".
            #expect(try AuditCDocument.matching(pattern).fetchAll(db).map(\.content)
                == ["SQLite database engine"])
        }
    }

    // FTS4 "options" sample: the table accepts rows with a language id and
    // unindexed columns.
    @Test func fts4OptionsSampleIsUsable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS4()) { t in
                t.prefixes = [2, 4]
                t.column("content")
                t.column("uuid").notIndexed()
                t.column("lid").asLanguageId()
            }
            try db.execute(sql: "INSERT INTO document (content, uuid, lid) VALUES ('SQLite database', 'abc', 0)")
            #expect(try Table("document").matching(FTS3Pattern(matchingAnyTokenIn: "abc")).fetchCount(db) == 0)
            #expect(try Table("document").matching(FTS3Pattern(matchingAllPrefixesIn: "da")).fetchCount(db) == 1)
            #expect(try db.columns(in: "document").map(\.name) == ["content", "uuid"])
        }
    }

    // FTS5 options sample: uuid UNINDEXED is stored but not searchable.
    @Test func fts5UnindexedColumns() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(virtualTable: "document", using: FTS5()) { t in
                t.column("content")
                t.column("uuid").notIndexed()
                t.prefixes = [2, 4]
                t.columnSize = 0
                t.detail = "column"
            }
            try db.execute(sql: "INSERT INTO document (content, uuid) VALUES ('SQLite database', 'abc')")
            #expect(try Table("document").matching(FTS5Pattern(matchingAnyTokenIn: "abc")).fetchCount(db) == 0)
            #expect(try Table("document").matching(FTS5Pattern(matchingAnyTokenIn: "sqlite")).fetchCount(db) == 1)
            #expect(try String.fetchOne(db, sql: "SELECT uuid FROM document") == "abc")
        }
    }
}

// MARK: - GRDB 7 migration guide

private struct AuditCLens: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "lens"
    var id: Int64
    var cameraId: Int64
}

private struct AuditCCamera: Codable, FetchableRecord, PersistableRecord {
    static let databaseTableName = "camera"
    var id: Int64
    static let lenses = hasMany(AuditCLens.self)
    static let lensesGRDB6 = hasMany(AuditCLens.self).forKey("lens")
}

@Suite("GRDB documented connections and search: GRDB 7 migration guide")
struct GRDBDocumentedConnectionsMigrationGuideTests {
    private func makeCameras() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "camera") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "lens") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("camera").notNull()
            }
            try AuditCCamera(id: 1).insert(db)
            try AuditCLens(id: 1, cameraId: 1).insert(db)
            try AuditCLens(id: 2, cameraId: 1).insert(db)
        }
        return dbQueue
    }

    @Test func lensesAreProperlyPluralized() throws {
        struct CameraWithLenses: Decodable, FetchableRecord {
            var camera: AuditCCamera
            var lenses: [AuditCLens]
        }
        struct CameraWithLens: Decodable, FetchableRecord {
            var camera: AuditCCamera
            var lens: [AuditCLens]
        }
        let dbQueue = try makeCameras()
        try dbQueue.read { db in
            let results = try AuditCCamera
                .including(all: AuditCCamera.lenses)
                .asRequest(of: CameraWithLenses.self)
                .fetchAll(db)
            #expect(results.map(\.lenses.count) == [2])
            let old = try AuditCCamera
                .including(all: AuditCCamera.lensesGRDB6)
                .asRequest(of: CameraWithLens.self)
                .fetchAll(db)
            #expect(old.map(\.lens.count) == [2])
            // Singular key of the to-one association
            let row = try AuditCLens.including(required: AuditCLens.belongsTo(AuditCCamera.self)).asRequest(of: Row.self).fetchOne(db)
            #expect(row?.scopes["camera"] != nil)
        }
    }

    // Per-column coding strategies
    @Test func perColumnCodingStrategies() throws {
        struct Event: Codable, FetchableRecord, PersistableRecord {
            var id: UUID
            var start: Date
            var end: Date
            static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
                column == "start" ? .timeIntervalSince1970 : .deferredToDate
            }
            static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
                column == "start" ? .timeIntervalSince1970 : .deferredToDate
            }
            static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
                .lowercaseString
            }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "event") { t in
                t.column("id", .text)
                t.column("start")
                t.column("end")
            }
            let date = Date(timeIntervalSince1970: 1_000_000)
            let uuid = UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")!
            try Event(id: uuid, start: date, end: date).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT * FROM event"))
            #expect(row["start"] as Double? == 1_000_000)
            #expect(row["end"] as String? == "1970-01-12 13:46:40.000")
            #expect(row["id"] as String? == "61626364-6566-6768-696a-6b6c6d6e6f70")
            let event = try #require(try Event.fetchOne(db))
            #expect(event.start == date)
            #expect(event.end == date)
            #expect(event.id == uuid)
        }
    }

    // "You can opt-out of the main actor with a specific scheduler such as
    // .async(onQueue:)"
    @Test func valueObservationOnAQueue() async throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let queue = DispatchQueue(label: "auditC")
        let key = DispatchSpecificKey<Int>()
        queue.setSpecific(key: key, value: 42)
        let observation = ValueObservation.tracking { db in try AuditCPlayer.fetchCount(db) }
        let cancellableBox = AuditCBox<AnyDatabaseCancellable?>(nil)
        let (count, onQueue): (Int, Bool) = await withCheckedContinuation { continuation in
            let once = AuditCBox(false)
            let cancellable = observation.start(
                in: dbQueue,
                scheduling: .async(onQueue: queue))
            { error in
                Issue.record(error)
            } onChange: { value in
                var first = false
                once.mutate { if !$0 { $0 = true; first = true } }
                if first { continuation.resume(returning: (value, DispatchQueue.getSpecific(key: key) == 42)) }
            }
            cancellableBox.mutate { $0 = cancellable }
        }
        #expect(count == 0)
        #expect(onQueue)
        cancellableBox.value?.cancel()
    }

    // "Reads use DEFERRED transactions, and writes use IMMEDIATE transactions."
    @Test func defaultTransactionKinds() throws {
        let statements = AuditCBox<[String]>([])
        var config = Configuration()
        config.prepareDatabase { db in
            db.trace { event in statements.mutate { $0.append("\(event)") } }
        }
        let dbPool = try DatabasePool(path: auditCPath(), configuration: config)
        try auditCSetUp(dbPool)
        statements.mutate { $0 = [] }
        try dbPool.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(statements.value.contains { $0.uppercased().hasPrefix("BEGIN IMMEDIATE") }, "\(statements.value)")
        statements.mutate { $0 = [] }
        _ = try dbPool.read { db in try AuditCPlayer.fetchCount(db) }
        #expect(statements.value.contains { $0.uppercased().hasPrefix("BEGIN DEFERRED") || $0.uppercased() == "BEGIN" || $0.uppercased().hasPrefix("BEGIN TRANSACTION") }, "\(statements.value)")
        #expect(!statements.value.contains { $0.uppercased().hasPrefix("BEGIN IMMEDIATE") })
    }
}

// MARK: - Database schema recommendations

@Suite("GRDB documented connections and search: schema recommendations")
struct GRDBDocumentedConnectionsSchemaTests {
    // "If the database table does not define any explicit primary key"
    @Test func rowidRecords() throws {
        struct Player: Codable, FetchableRecord, MutablePersistableRecord {
            var rowid: Int64?
            var name: String
            var score: Int
            static var databaseSelection: [any SQLSelectable] { [.allColumns, .rowID] }
            mutating func didInsert(_ inserted: InsertionSuccess) { rowid = inserted.rowID }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            var player = Player(rowid: nil, name: "Arthur", score: 10)
            try player.insert(db)
            #expect(player.rowid == 1)
            // Doc sample: `Player.fetchOne(db, id: 1)`, which needs Identifiable
            // (GRDB's own sample type is not Identifiable).
            let fetched = try #require(try Player.fetchOne(db, key: 1))
            #expect(fetched.rowid == 1)
            #expect(fetched.name == "Arthur")
            var updated = fetched
            updated.score = 20
            try updated.update(db)
            #expect(try Int.fetchOne(db, sql: "SELECT score FROM player") == 20)
            let deleted = try fetched.delete(db)
            #expect(deleted)
            #expect(try Player.fetchCount(db) == 0)
        }
    }

    // "Identifiable record types will need a custom CodingKeys enum, or an
    // extra property"
    @Test func identifiableWithCustomPrimaryKeyName() throws {
        struct CodingKeysPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "player"
            var id: String
            var name: String
            enum CodingKeys: String, CodingKey { case id = "uuid", name }
        }
        struct ExtraPropertyPlayer: Codable, Identifiable, FetchableRecord, PersistableRecord {
            static let databaseTableName = "player"
            var uuid: String
            var name: String
            var id: String { uuid }
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("uuid", .text)
                t.column("name", .text).notNull()
            }
            try CodingKeysPlayer(id: "a", name: "Arthur").insert(db)
            try ExtraPropertyPlayer(uuid: "b", name: "Barbara").insert(db)
            #expect(try CodingKeysPlayer.fetchOne(db, id: "b")?.name == "Barbara")
            #expect(try ExtraPropertyPlayer.fetchOne(db, id: "a")?.name == "Arthur")
            #expect(try ExtraPropertyPlayer.find(db, id: "b").name == "Barbara")
            #expect(try ExtraPropertyPlayer.fetchAll(db, ids: ["a", "b"]).count == 2)
            #expect(try CodingKeysPlayer.deleteOne(db, id: "a"))
            #expect(try ExtraPropertyPlayer.exists(db, id: "b"))
            #expect(try ExtraPropertyPlayer.deleteAll(db, ids: ["b"]) == 1)
        }
    }

    // "Composite primary key"
    @Test func compositePrimaryKeyMadeOfForeignKeys() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
            }
            try db.create(table: "team") { t in
                t.primaryKey("id", .text)
                t.column("name", .text).notNull()
            }
            try db.create(table: "membership") { t in
                t.primaryKey {
                    t.belongsTo("player")
                    t.belongsTo("team")
                }
                t.column("role", .text).notNull()
            }
            #expect(try db.primaryKey("membership").columns == ["playerId", "teamId"])
            #expect(try db.foreignKeys(on: "membership").map(\.destinationTable).sorted() == ["player", "team"])
            try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            try db.execute(sql: "INSERT INTO team (id, name) VALUES ('reds', 'Reds')")
            try db.execute(sql: "INSERT INTO membership (playerId, teamId, role) VALUES (1, 'reds', 'captain')")
            #expect(try Row.fetchOne(db, Table("membership").filter(key: ["playerId": 1, "teamId": "reds"]))?["role"] == "captain")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO membership (playerId, teamId, role) VALUES (2, 'reds', 'x')")
            }
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO membership (playerId, teamId, role) VALUES (NULL, 'reds', 'x')")
            }
        }
    }

    // "Unique keys should be supported by unique indexes"
    @Test func uniqueIndexesSupportKeyedMethods() throws {
        struct Player: Codable, FetchableRecord, PersistableRecord {
            var id: Int64?
            var teamId: Int64
            var position: Int
            var name: String?
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text)
            }
            try db.create(indexOn: "team", columns: ["name"], options: .unique)
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team").notNull()
                t.column("position", .integer).notNull()
                t.column("name", .text).unique()
            }
            try db.create(indexOn: "player", columns: ["teamId", "position"], options: .unique)
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
            try Player(id: nil, teamId: 1, position: 1, name: "Arthur").insert(db)
            try Player(id: nil, teamId: 1, position: 2, name: "Barbara").insert(db)
            #expect(try Player.fetchOne(db, key: ["teamId": 1, "position": 2])?.name == "Barbara")
            #expect(try Player.deleteOne(db, key: ["name": "Arthur"]))
            #expect(try Player.fetchCount(db) == 1)
            #expect(throws: DatabaseError.self) {
                try Player(id: nil, teamId: 1, position: 2, name: "Craig").insert(db)
            }
            // "Unique index on team(name) can be dropped."
            try db.drop(indexOn: "team", columns: ["name"])
            try db.execute(sql: "INSERT INTO team (name) VALUES ('Reds')")
            #expect(try Table("team").fetchCount(db) == 2)
            // "Unique constraint on player(name) can not be dropped."
            let autoIndex = try #require(try db.indexes(on: "player").first { $0.columns == ["name"] })
            #expect(throws: DatabaseError.self) { try db.drop(index: autoIndex.name) }
        }
    }

    // Tables and columns that do not follow the naming conventions
    @Test func explicitTableNamesAndKeys() throws {
        struct PostalAddress: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "postal_address"
            var id: Int64
            var city: String
        }
        struct Award: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "Auszeichnung"
            var id: Int64
            var title: String
        }
        struct Player: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "players"
            static let postalAddress = belongsTo(PostalAddress.self, key: "postalAddress")
            static let awards = hasMany(Award.self, key: "awards")
            var id: Int64
            var fullName: String
            enum CodingKeys: String, CodingKey {
                case id, fullName = "full_name"
            }
        }
        struct PlayerInfo: Decodable, FetchableRecord {
            var player: Player
            var postalAddress: PostalAddress
            var awards: [Award]
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "postal_address") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("city", .text)
            }
            try db.create(table: "players") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("full_name", .text)
                t.column("postalAddressId", .integer).references("postal_address")
            }
            try db.create(table: "Auszeichnung") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("title", .text)
                t.column("playerId", .integer).references("players")
            }
            try db.execute(sql: """
                INSERT INTO postal_address (city) VALUES ('Paris');
                INSERT INTO players (full_name, postalAddressId) VALUES ('Arthur Miller', 1);
                INSERT INTO Auszeichnung (title, playerId) VALUES ('Gold', 1);
                """)
            let infos = try Player
                .including(required: Player.postalAddress)
                .including(all: Player.awards)
                .asRequest(of: PlayerInfo.self)
                .fetchAll(db)
            #expect(infos.count == 1)
            #expect(infos.first?.player.fullName == "Arthur Miller")
            #expect(infos.first?.postalAddress.city == "Paris")
            #expect(infos.first?.awards.map(\.title) == ["Gold"])
        }
    }

    // "If a foreign key is not declared in the schema"
    @Test func associationsWithoutForeignKeysInTheSchema() throws {
        struct Team: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var color: String
            static let players = hasMany(Player.self, using: Player.teamForeignKey)
        }
        struct Player: Codable, FetchableRecord, TableRecord {
            var id: Int64
            var name: String
            var teamId: Int64
            static let teamForeignKey = ForeignKey(["teamId"])
            static let team = belongsTo(Team.self, using: teamForeignKey)
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "team") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("color", .text).notNull()
            }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("teamId", .integer).notNull()
            }
            try db.execute(sql: """
                INSERT INTO team (color) VALUES ('red'), ('blue');
                INSERT INTO player (name, teamId) VALUES ('Arthur', 2), ('Barbara', 2), ('Craig', 1);
                """)
            let colors = try Row.fetchAll(db, Player.including(required: Player.team.select(Column("color").forKey("teamColor"))).order(Column("id")))
            #expect(colors.map { $0.scopes["team"]?["teamColor"] as String? } == ["blue", "blue", "red"])
            let counts = try Row.fetchAll(db, Team.annotated(with: Team.players.count).order(Column("id")))
            #expect(counts.map { $0["playerCount"] as Int? } == [1, 2])
        }
    }

    // DatabaseSchema.md overview sample
    @Test func schemaOverviewSample() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
            }
            #expect(try db.primaryKey("player").rowIDColumn == "id")
            #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO player (name) VALUES ('Arthur')")
            }
            let columns = try db.columns(in: "player")
            #expect(columns.map(\.name) == ["id", "name", "score"])
            #expect(columns.map(\.isNotNull) == [false, true, true] || columns.map(\.isNotNull) == [true, true, true])
        }
    }

    // DatabaseSchemaIntegrityChecks: checkForeignKeys / foreignKeyViolations
    @Test func foreignKeyIntegrityChecks() throws {
        var config = Configuration()
        config.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.create(table: "team") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("team")
            }
            try db.execute(sql: "INSERT INTO player (teamId) VALUES (42)")
            let violations = try Array(db.foreignKeyViolations())
            #expect(violations.count == 1)
            #expect(violations.first?.originTable == "player")
            #expect(violations.first?.destinationTable == "team")
            #expect(violations.first?.originRowID == 1)
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys() }
            #expect(throws: DatabaseError.self) { try db.checkForeignKeys(in: "player") }
            try db.checkForeignKeys(in: "team")
            #expect(try Array(db.foreignKeyViolations(in: "team")).isEmpty)
        }
    }
}

// MARK: - Database observation

@Suite("GRDB documented connections and search: database observation")
struct GRDBDocumentedConnectionsObservationTests {
    @Test func afterNextTransactionHandlesOneTransactionOnly() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let events = AuditCBox<[String]>([])
        try dbQueue.writeWithoutTransaction { db in
            db.afterNextTransaction { _ in
                events.mutate { $0.append("commit") }
            } onRollback: { _ in
                events.mutate { $0.append("rollback") }
            }
            try db.inTransaction {
                try AuditCPlayer(name: "Arthur").insert(db)
                return .rollback
            }
            try db.inTransaction {
                try AuditCPlayer(name: "Barbara").insert(db)
                return .commit
            }
            db.afterNextTransaction { _ in events.mutate { $0.append("commit2") } }
            try db.inTransaction {
                try AuditCPlayer(name: "Craig").insert(db)
                return .commit
            }
        }
        #expect(events.value == ["rollback", "commit2"])
    }

    private final class Counter: TransactionObserver, @unchecked Sendable {
        let commits = AuditCBox(0)
        func observes(eventsOfKind eventKind: DatabaseEventKind) -> Bool { true }
        func databaseDidChange(with event: DatabaseEvent) { }
        func databaseDidCommit(_ db: Database) { commits.mutate { $0 += 1 } }
        func databaseDidRollback(_ db: Database) { }
    }

    @Test func writerAddAndRemoveTransactionObservers() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let nextOnly = Counter()
        let lifetime = Counter()
        dbQueue.add(transactionObserver: nextOnly, extent: .nextTransaction)
        dbQueue.add(transactionObserver: lifetime)
        try dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        try dbQueue.write { db in try AuditCPlayer(name: "Barbara").insert(db) }
        dbQueue.remove(transactionObserver: lifetime)
        try dbQueue.write { db in try AuditCPlayer(name: "Craig").insert(db) }
        #expect(nextOnly.commits.value == 1)
        #expect(lifetime.commits.value == 2)
    }

    // TransactionObservationExtent: .databaseLifetime retains the observer,
    // .observerLifetime (the default) does not.
    @Test func observationExtents() throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let retained: AuditCBox<Int>
        let weak: AuditCBox<Int>
        do {
            let counter = Counter()
            retained = counter.commits
            dbQueue.add(transactionObserver: counter, extent: .databaseLifetime)
        }
        do {
            let counter = Counter()
            weak = counter.commits
            dbQueue.add(transactionObserver: counter)
        }
        try dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(retained.value == 1)
        #expect(weak.value == 0)
    }

    // Database/registerAccess(to:)
    @Test func registerAccessExtendsTheObservedRegion() async throws {
        let dbQueue = try DatabaseQueue()
        try auditCSetUp(dbQueue)
        let observation = ValueObservation.tracking { db -> Int in
            try db.registerAccess(to: AuditCPlayer.all())
            return try Int.fetchOne(db, sql: "SELECT 1")!
        }
        var iterator = observation.values(in: dbQueue).makeAsyncIterator()
        #expect(try await iterator.next() == 1)
        try await dbQueue.write { db in try AuditCPlayer(name: "Arthur").insert(db) }
        #expect(try await iterator.next() == 1)
    }
}

// MARK: - Swift concurrency

@Suite("GRDB documented connections and search: Swift concurrency")
struct GRDBDocumentedConnectionsSwiftConcurrencyTests {
    struct Player: Codable, Identifiable, FetchableRecord, PersistableRecord {
        var id: Int64
        var name: String
        var score: Int
        enum Columns {
            static let id = Column("id")
            static let name = Column("name")
            static let score = Column("score")
        }
        static var databaseSelection: [any SQLSelectable] {
            [Columns.id, Columns.name, Columns.score]
        }
    }

    private func makeWriter() throws -> any DatabaseWriter {
        let dbPool = try DatabasePool(path: auditCPath())
        try dbPool.write { db in
            try db.create(table: "player") { t in
                t.autoIncrementedPrimaryKey("id")
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("extra", .text)
            }
        }
        return dbPool
    }

    @Test func readWriteObserveWithAnyWriter() async throws {
        let writer = try makeWriter()
        let newPlayerCount = try await writer.write { db in
            try Player(id: 1, name: "Arthur", score: 10).insert(db)
            return try Player.fetchCount(db)
        }
        #expect(newPlayerCount == 1)
        let player = try await writer.read { db in try Player.fetchOne(db, id: 1) }
        #expect(player?.name == "Arthur")
        let observation = ValueObservation.tracking { db in try Player.fetchAll(db) }
        for try await players in observation.values(in: writer) {
            #expect(players.map(\.name) == ["Arthur"])
            break
        }
        // Shorthand notation
        let count = try await writer.read(Player.fetchCount)
        #expect(count == 1)
        let all = try await writer.read(Player.fetchAll)
        #expect(all.count == 1)
        // Selected columns only
        let columnNames = try await writer.read { db in try Row.fetchOne(db, Player.all())?.columnNames.map { $0 } }
        #expect(columnNames == ["id", "name", "score"])
    }
}

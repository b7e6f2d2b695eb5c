import Foundation
import Testing
import Trellis
import TrellisSQLite

// GRDB's GRDB7MigrationGuide.md ("Migrating From GRDB 6 to GRDB 7"): the
// APIs and behaviours it names as GRDB 7's, with the statements GRDB 7
// runs (checked with GRDB itself).

/// The article's `struct Player { static func database...Strategy(for:) }`.
private struct Portrait: Codable, FetchableRecord, PersistableRecord {
    var id: UUID
    var name: String
    var score: Int
    var photo: Data
    var createdAt: Date

    static func databaseDataDecodingStrategy(for column: String) -> DatabaseDataDecodingStrategy {
        .deferredToData
    }

    static func databaseDateDecodingStrategy(for column: String) -> DatabaseDateDecodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseDataEncodingStrategy(for column: String) -> DatabaseDataEncodingStrategy {
        .deferredToData
    }

    static func databaseDateEncodingStrategy(for column: String) -> DatabaseDateEncodingStrategy {
        .timeIntervalSince1970
    }

    static func databaseUUIDEncodingStrategy(for column: String) -> DatabaseUUIDEncodingStrategy {
        .uppercaseString
    }
}

private struct Lens: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var cameraId: Int64
}

private struct Camera: Codable, FetchableRecord, PersistableRecord {
    // GRDB 7: proper inflections for bias, focus, gas, and lens.
    static let lenses = hasMany(Lens.self)
    var id: Int64
}

private struct LegacyCamera: Codable, FetchableRecord, TableRecord {
    static let databaseTableName = "camera"
    // Use "lens" instead of "lenses" for GRDB 6 compatibility.
    static let lenses = hasMany(Lens.self, using: ForeignKey(["cameraId"])).forKey("lens")
    var id: Int64
}

// GRDB 7, alternative 1
private struct CameraWithLenses: Decodable, FetchableRecord {
    var camera: Camera
    var lenses: [Lens] // <- fixed pluralization
}

private struct LegacyCameraWithLenses: Decodable, FetchableRecord {
    var legacyCamera: LegacyCamera
    var lens: [Lens]
}

private struct Bias: Codable, FetchableRecord, PersistableRecord {
    var id: Int64
    var gasId: Int64
}

private struct Gas: Codable, FetchableRecord, PersistableRecord {
    static let biases = hasMany(Bias.self)
    var id: Int64
}

@Suite struct GRDB7MigrationGuideDocTests {
    // MARK: Column Coding Strategies

    @Test func columnCodingStrategiesAreMethods() throws {
        let dbQueue = try DatabaseQueue()
        let id = UUID(uuidString: "61626364-6566-6768-696A-6B6C6D6E6F70")!
        try dbQueue.write { db in
            try db.create(table: "portrait") { t in
                t.column("id", .text).primaryKey()
                t.column("name", .text)
                t.column("score", .integer)
                t.column("photo", .blob)
                t.column("createdAt", .double)
            }
            try Portrait(id: id, name: "Arthur", score: 1, photo: Data([1]), createdAt: Date(timeIntervalSince1970: 12)).insert(db)
            let row = try #require(try Row.fetchOne(db, sql: "SELECT id, createdAt FROM portrait"))
            #expect(row["id"] == "61626364-6566-6768-696A-6B6C6D6E6F70")
            #expect(row["createdAt"] == 12.0)
            let player = try #require(try Portrait.fetchOne(db))
            #expect(player.id == id)
            #expect(player.createdAt == Date(timeIntervalSince1970: 12))
        }
    }

    // MARK: Cancellable Async Database Accesses

    @Test func cancelledAccessesOnlyRollBack() async throws {
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        _ = trace.take()

        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            try await dbQueue.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
        }
        await #expect(throws: CancellationError.self) { try await task.value }
        #expect(trace.take() == [])

        let inserted = DispatchSemaphore(value: 0)
        let resume = DispatchSemaphore(value: 0)
        let cancelledDuringAccess = Task {
            try await dbQueue.write { db in
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                inserted.signal()
                resume.wait()
                try db.execute(sql: "INSERT INTO t VALUES (2)")
            }
        }
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                inserted.wait()
                continuation.resume()
            }
        }
        cancelledDuringAccess.cancel()
        resume.signal()
        await #expect(throws: CancellationError.self) { try await cancelledDuringAccess.value }
        #expect(trace.take() == ["BEGIN IMMEDIATE TRANSACTION", "INSERT INTO t VALUES (1)", "ROLLBACK TRANSACTION"])
        #expect(try await dbQueue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 0)
    }

    @Test func unstructuredTasksCompleteTheirAccesses() async throws {
        let writer = try DatabaseQueue()
        try await writer.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let outer = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            // Create a new Task in order to ignore
            // cancellation of the current task, and
            // make sure database changes are always
            // committed to disk.
            let task = Task {
                try await writer.write { db in try db.execute(sql: "INSERT INTO t VALUES (1)") }
            }
            // If needed, wait for the database job to complete:
            try await task.value
        }
        try await outer.value
        #expect(try await writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") } == 1)
    }

    // MARK: Associations to record types named Bias, Focus, Gas, and Lens

    @Test func fixedInflections() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "camera") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "lens") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("camera")
            }
            try db.create(table: "gas") { t in t.autoIncrementedPrimaryKey("id") }
            try db.create(table: "bias") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("gas")
            }
            try Camera(id: 1).insert(db)
            try Lens(id: 1, cameraId: 1).insert(db)
            try Lens(id: 2, cameraId: 1).insert(db)
            try Gas(id: 1).insert(db)
            try Bias(id: 1, gasId: 1).insert(db)

            let results = try Camera
                .including(all: Camera.lenses)
                .asRequest(of: CameraWithLenses.self)
                .fetchAll(db)
            #expect(results.map(\.lenses.count) == [2])

            // GRDB 7, alternative 2
            let legacyResults = try LegacyCamera
                .including(all: LegacyCamera.lenses)
                .asRequest(of: LegacyCameraWithLenses.self)
                .fetchAll(db)
            #expect(legacyResults.map(\.lens.count) == [2])

            let gasRows = try Gas.including(all: Gas.biases).asRequest(of: Row.self).fetchAll(db)
            #expect(gasRows.first?.prefetchedRows["biases"]?.count == 1)
        }
    }

    // MARK: Default Transaction Kind

    @Test func transactionKinds() throws {
        let trace = StatementTrace()
        let dbQueue = try DatabaseQueue(configuration: trace.configuration())
        try dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        try dbQueue.read { db in _ = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") }
        // You can still specify a transaction kind explicitly when necessary.
        try dbQueue.writeWithoutTransaction { db in
            try db.inTransaction(.exclusive) {
                try db.execute(sql: "INSERT INTO t VALUES (1)")
                return .commit
            }
        }
        #expect(trace.take() == [
            "BEGIN IMMEDIATE TRANSACTION", "CREATE TABLE t(a)", "COMMIT TRANSACTION",
            "BEGIN DEFERRED TRANSACTION", "SELECT COUNT(*) FROM t", "COMMIT TRANSACTION",
            "BEGIN EXCLUSIVE TRANSACTION", "INSERT INTO t VALUES (1)", "COMMIT TRANSACTION",
        ])
    }

    // MARK: ValueObservation and the Main Actor

    @Test func observationOnADispatchQueue() async throws {
        let dbQueue = try DatabaseQueue()
        try await dbQueue.write { db in try db.execute(sql: "CREATE TABLE t(a)") }
        let observation = ValueObservation.tracking { db in
            try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM t") ?? 0
        }
        let queue = DispatchQueue(label: "observation")
        let count: Int = try await withCheckedThrowingContinuation { continuation in
            let delivered = DeliveryOnce(continuation)
            let cancellable = observation.start(
                in: dbQueue,
                scheduling: .async(onQueue: queue))
            { error in
                // Called on the specified dispatch queue.
                delivered.resume(throwing: error)
            } onChange: { value in
                // Called on the specified dispatch queue.
                dispatchPrecondition(condition: .onQueue(queue))
                delivered.resume(returning: value)
            }
            delivered.keep(cancellable)
        }
        #expect(count == 0)
    }

    // MARK: Access to SQLite C functions

    @Test func sqliteCFunctions() throws {
        // GRDB 7: `import SQLite3` (or GRDBSQLite); Trellis: `import TrellisSQLite`.
        let sqliteVersion = sqlite3_libversion_number()
        let dbQueue = try DatabaseQueue()
        let version = try dbQueue.read { db in try String.fetchOne(db, sql: "SELECT sqlite_version()") }
        let parts = try #require(version?.split(separator: ".").compactMap { Int32($0) })
        #expect(sqliteVersion == parts[0] * 1_000_000 + parts[1] * 1_000 + (parts.count > 2 ? parts[2] : 0))
    }

    // MARK: The Record Base Class is Discouraged

    @Test func structRecords() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.create(table: "player") { t in
                t.primaryKey("id", .blob)
                t.column("name", .text)
                t.column("score", .integer)
            }
            let player = Player(id: UUID(), name: "Arthur", score: 100)
            try player.insert(db)
            #expect(try Player.fetchOne(db)?.id == player.id)
        }
    }
}

// GRDB 7
private struct Player: Codable {
    var id: UUID
    var name: String
    var score: Int
}

extension Player: FetchableRecord, PersistableRecord { }

/// Resumes a continuation once, and keeps the observation alive until then.
private final class DeliveryOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?
    private var cancellable: AnyDatabaseCancellable?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    func keep(_ cancellable: AnyDatabaseCancellable) {
        lock.lock(); defer { lock.unlock() }
        if continuation == nil { cancellable.cancel() } else { self.cancellable = cancellable }
    }

    func resume(returning value: T) { take()?.resume(returning: value) }
    func resume(throwing error: any Error) { take()?.resume(throwing: error) }

    private func take() -> CheckedContinuation<T, any Error>? {
        lock.lock(); defer { lock.unlock() }
        let taken = continuation
        continuation = nil
        cancellable?.cancel()
        cancellable = nil
        return taken
    }
}

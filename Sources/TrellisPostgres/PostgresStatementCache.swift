import Foundation
import PostgresNIO
import Trellis

/// The statements that Trellis prepared on one postgres-nio connection,
/// under names of its own (`trellis_1`...), so that a statement that runs
/// again is neither parsed nor planned again by the server.
///
/// The cache belongs to the connection, not to an access: `PostgresClient`
/// pools its connections, and a server app makes one short access per
/// request, so a cache of the access would prepare its statements again at
/// each request, for nothing. A prepared statement of PostgreSQL lives as
/// long as its session, and a rolled-back transaction keeps it, so the
/// cache and the server agree for the connection's whole life. See
/// ``PostgresStatementCache/of(_:)``.
///
/// A statement is prepared the second time it runs on the connection, when
/// its first run returned few rows: a statement that runs once (a
/// migration, a rare report) costs no more than before, where preparing it
/// would cost a round trip, and neither does one of many rows (see
/// ``PostgresStatementCache/preparedRowLimit``). The cache keeps at
/// most `capacity` statements, and deallocates the least recently used.
///
/// A connection is leased to one access at a time, which uses the cache on
/// its own thread: the cache needs no lock, but the registry of the caches
/// does.
final class PostgresStatementCache: @unchecked Sendable {
    /// A statement prepared on the server.
    struct Entry {
        var name: String
        /// The number of the last run, for the eviction of the least
        /// recently used.
        var lastUse: Int
    }

    /// The prepared statements, by the key of their SQL (see
    /// ``PostgresStatementCache/key(sql:values:)``).
    private var entries: [String: Entry] = [:]

    /// The statements that ran once, unnamed, with few rows: they are
    /// prepared at their next run.
    private var candidates: Set<String> = []

    /// The names of statements that exist on the server and are no longer
    /// used: they are deallocated once no transaction is open, where a
    /// failing `DEALLOCATE` can not abort the transaction of the caller.
    private(set) var namesToDeallocate: [String] = []

    /// The number of runs so far.
    private var clock = 0

    /// The number of names given so far: a name is never given twice.
    private var nameCount = 0

    /// The most statements that the cache keeps prepared; 0 prepares none.
    var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// The key of a statement: its SQL, and the parameters sent as `bytea`,
    /// whose type the prepared statement declares.
    static func key(sql: String, values: [DatabaseValue]) -> String {
        guard values.contains(where: \.isBlob) else { return sql }
        return sql + "\u{0}" + String(values.map { $0.isBlob ? "b" : "u" })
    }

    /// Whether statements may run prepared, by their SQL, as `decide`
    /// said: reading the words of a statement at each run would cost more
    /// than preparing saves.
    private var decisions: [String: Bool] = [:]

    /// Whether the statement of `sql` may run prepared, as `decide` says
    /// the first time.
    func isPreparable(_ sql: String, decide: () -> Bool) -> Bool {
        if let decision = decisions[sql] { return decision }
        if decisions.count >= 4 * capacity { decisions.removeAll(keepingCapacity: true) }
        let decision = decide()
        decisions[sql] = decision
        return decision
    }

    /// The name of the prepared statement of `key`, if any, now used.
    func preparedName(for key: String) -> String? {
        guard var entry = entries[key] else { return nil }
        clock += 1
        entry.lastUse = clock
        entries[key] = entry
        return entry.name
    }

    /// Whether the statement of `key` should be prepared: it ran once
    /// before on the connection, unnamed, and returned few rows (see
    /// `didRunUnnamed(_:rowCount:)`).
    func shouldPrepare(_ key: String) -> Bool {
        guard capacity > 0, nameCount < nameBudget else { return false }
        return candidates.remove(key) != nil
    }

    /// The most rows of a statement worth preparing. postgres-nio hands the
    /// rows of a named statement over one by one, through an async
    /// sequence, where those of an unnamed one come at once: past a few
    /// dozen rows, this costs more than the parsing and planning that
    /// preparing saves.
    static let preparedRowLimit = 32

    /// Remembers that the statement of `key` ran unnamed and returned
    /// `rowCount` rows: a statement of few rows is prepared at its next
    /// run.
    func didRunUnnamed(_ key: String, rowCount: Int) {
        guard rowCount <= Self.preparedRowLimit else { return }
        // The statements that ran once are only a hint: forgetting them
        // bounds the memory that an app of ever-changing SQL takes.
        if candidates.count >= 4 * capacity { candidates.removeAll(keepingCapacity: true) }
        candidates.insert(key)
    }

    /// Forgets a prepared statement that returned many rows: it runs
    /// unnamed from now on. `newName` is its name when this run prepared
    /// it, which the cache did not record yet.
    func didReturnManyRows(_ key: String, sql: String, newName: String?) {
        forget(key, deallocate: true)
        if let newName { namesToDeallocate.append(newName) }
        decisions[sql] = false
    }

    /// A new name for the statement of `key`, which the caller prepares:
    /// the least recently used statement makes room for it. Nil once the
    /// connection gave `nameBudget` names.
    ///
    /// postgres-nio remembers every statement that it prepared on the
    /// connection, by name, for the connection's life, and a deallocated
    /// name can not be prepared again: the budget bounds that memory, for
    /// an app whose statements change all the time.
    func makeName(for key: String) -> String? {
        guard nameCount < nameBudget else { return nil }
        while entries.count >= capacity, let oldest = entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
            entries[oldest.key] = nil
            namesToDeallocate.append(oldest.value.name)
        }
        nameCount += 1
        return "trellis_\(nameCount)"
    }

    /// The most names that a connection gives.
    private var nameBudget: Int { 16 * capacity }

    /// Deallocates a statement that may exist on the server, once no
    /// transaction is open.
    func deallocateLater(_ name: String) {
        namesToDeallocate.append(name)
    }

    /// Records the statement that `makeName(for:)` named, once the server
    /// prepared it.
    func didPrepare(_ key: String, name: String) {
        clock += 1
        entries[key] = Entry(name: name, lastUse: clock)
    }

    /// Forgets the statement of `key`; `deallocate` says whether it still
    /// exists on the server.
    func forget(_ key: String, deallocate: Bool) {
        guard let entry = entries.removeValue(forKey: key) else { return }
        if deallocate { namesToDeallocate.append(entry.name) }
    }

    /// Forgets every statement, after a change of the schema: a prepared
    /// `SELECT *` would fail once its table has new columns.
    func forgetAll(deallocate: Bool) {
        if deallocate { namesToDeallocate += entries.values.map(\.name) }
        entries.removeAll()
        candidates.removeAll()
        if !deallocate { namesToDeallocate.removeAll() }
    }

    /// Empties the names to deallocate, which the caller deallocates.
    func takeNamesToDeallocate() -> [String] {
        defer { namesToDeallocate.removeAll() }
        return namesToDeallocate
    }

    // MARK: - The caches of the connections

    private static let lock = NSLock()
    nonisolated(unsafe) private static var caches: [ObjectIdentifier: (connection: Weak, cache: PostgresStatementCache)] = [:]

    final class Weak {
        weak var connection: PostgresConnection?
        init(_ connection: PostgresConnection) { self.connection = connection }
    }

    /// The cache of a connection, created on its first access.
    ///
    /// The cache is found by the identity of the connection: a connection
    /// that the client closed and a new one at the same address are told
    /// apart by a weak reference, which the closed one cleared.
    static func of(_ connection: PostgresConnection, capacity: Int) -> PostgresStatementCache {
        let id = ObjectIdentifier(connection)
        let cache = lock.withLock {
            if let known = caches[id], known.connection.connection === connection {
                return known.cache
            }
            // The caches of closed connections go with the first new one.
            caches = caches.filter { $0.value.connection.connection != nil }
            let cache = PostgresStatementCache(capacity: capacity)
            caches[id] = (Weak(connection), cache)
            return cache
        }
        cache.capacity = capacity
        return cache
    }
}

extension DatabaseValue {
    fileprivate var isBlob: Bool {
        if case .blob = storage { return true }
        return false
    }
}

import Foundation
import Trellis

/// The statements that the connections of a database run, traced from
/// their opening: GRDB's documentation shows them in comments.
final class StatementTrace: @unchecked Sendable {
    // Guarded by `lock`: reader and writer connections trace concurrently.
    private var statements: [String] = []
    private let lock = NSLock()

    /// A configuration whose connections report their statements here.
    func configuration(_ base: Configuration = Configuration()) -> Configuration {
        var config = base
        config.prepareDatabase { db in
            db.trace { [self] event in append(event.description) }
        }
        return config
    }

    private func append(_ statement: String) {
        lock.lock()
        statements.append(statement)
        lock.unlock()
    }

    /// The statements traced since the last call, without the schema
    /// introspection queries (pragmas and reads of `sqlite_master`), and
    /// without the statements of triggers.
    func take() -> [String] {
        lock.lock()
        defer {
            statements = []
            lock.unlock()
        }
        return statements.filter { statement in
            !statement.hasPrefix("PRAGMA") && !statement.hasPrefix("--")
                && !["sqlite_master", "sqlite_temp_master", "pragma_database_list"].contains(where: statement.contains)
        }
    }

    /// A path for a database file that is deleted by the caller.
    static func temporaryPath(_ name: String) -> String {
        NSTemporaryDirectory() + "\(name)-\(UUID().uuidString).sqlite"
    }

    /// Removes a database file and its companions.
    static func removeDatabase(at path: String) {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

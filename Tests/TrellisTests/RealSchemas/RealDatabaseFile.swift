import Foundation
import Trellis

/// A database file that another tool wrote: a SQL script run into a new
/// file, then closed, as Trellis finds it on disk. The file is deleted
/// with the value.
final class RealDatabaseFile {
    let path: String

    /// - parameter collations: the collations of the writing application,
    ///   which SQLite needs to create tables that use them.
    /// - parameter functions: the SQL functions of the writing
    ///   application, which its triggers call.
    /// - parameter doubleQuotedStrings: whether the writer takes
    ///   `"text"` for a string, as SQLite's default build does.
    init(_ script: String, collations: [DatabaseCollation] = [], functions: [DatabaseFunction] = [], doubleQuotedStrings: Bool = false) throws {
        path = FileManager.default.temporaryDirectory
            .appendingPathComponent("real-\(UUID().uuidString).sqlite").path
        // A writer that knows nothing of Trellis: SQLite's own defaults.
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        configuration.acceptsDoubleQuotedStringLiterals = doubleQuotedStrings
        configuration.prepareDatabase { db in
            for collation in collations { db.add(collation: collation) }
            for function in functions { db.add(function: function) }
        }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: script) }
        try dbQueue.close()
    }

    /// A new connection to the file, with Trellis's default configuration.
    func open(_ configuration: Configuration = Configuration()) throws -> DatabaseQueue {
        try DatabaseQueue(path: path, configuration: configuration)
    }

    /// The names of the tables and views of the main schema, in order, as
    /// `sqlite_master` lists them (SQLite's own tables included).
    func schemaObjects(_ db: Database) throws -> [(type: String, name: String)] {
        try Row.fetchAll(db, sql: "SELECT type, name FROM sqlite_master WHERE type IN ('table', 'view') ORDER BY name")
            .map { ($0["type"], $0["name"]) }
    }

    deinit {
        for suffix in ["", "-wal", "-shm", "-journal"] {
            try? FileManager.default.removeItem(atPath: path + suffix)
        }
    }
}

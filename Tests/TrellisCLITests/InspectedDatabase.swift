import Foundation
import Trellis

/// Writes the database file that an inspector test reads: the schema of
/// `sql`, with foreign keys unchecked, as other tools leave them.
enum InspectedDatabase {
    static func write(_ sql: String, at path: String) throws {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = false
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        try dbQueue.writeWithoutTransaction { db in try db.execute(sql: sql) }
        try dbQueue.close()
    }
}

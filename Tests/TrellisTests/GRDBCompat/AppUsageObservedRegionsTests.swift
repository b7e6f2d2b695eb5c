import Foundation
import Testing
import Trellis

// What application observations read besides a plain table, and must be
// told about: rows prefetched by `including(all:)`, a view, a full-text
// table synchronized by triggers with its content table, and a table that
// a trigger writes to when another one changes.

private struct Album: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var title: String

    static let songs = hasMany(Song.self)
}

private struct Song: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var albumId: Int64
    var title: String
}

private struct AlbumWithSongs: Decodable, FetchableRecord, Equatable {
    var album: Album
    var songs: [Song]
}

private func makeMusicPool(_ directory: URL) throws -> DatabasePool {
    let dbPool = try DatabasePool(path: directory.appendingPathComponent("music.sqlite").path)
    try dbPool.write { db in
        try db.create(table: "album") { t in
            t.primaryKey("id", .integer)
            t.column("title", .text).notNull()
        }
        try db.create(table: "song") { t in
            t.primaryKey("id", .integer)
            t.belongsTo("album").notNull()
            t.column("title", .text).notNull()
        }
        try db.create(table: "songLog") { t in
            t.autoIncrementedPrimaryKey("id")
            t.column("songId", .integer).notNull()
        }
        try db.execute(sql: """
            CREATE VIEW albumSize AS SELECT albumId, COUNT(*) AS songCount FROM song GROUP BY albumId;
            CREATE TRIGGER song_logged AFTER INSERT ON song BEGIN
              INSERT INTO songLog (songId) VALUES (NEW.id);
            END;
            """)
        try db.create(virtualTable: "song_ft", using: FTS5()) { t in
            t.synchronize(withTable: "song")
            t.column("title")
        }
        try Album(id: 1, title: "First").insert(db)
    }
    return dbPool
}

/// Collects the first values of an observation, running a write after each
/// value but the last, and returns the values.
private func collect<Value: Sendable>(
    _ observation: ValueObservation<ValueReducers.Fetch<Value>>,
    in writer: some DatabaseWriter,
    writes: [@Sendable (Database) throws -> Void]) async throws -> [Value]
{
    var values: [Value] = []
    for try await value in observation.values(in: writer) {
        values.append(value)
        if values.count > writes.count { break }
        try await writer.write(writes[values.count - 1])
    }
    return values
}

@Suite("App usage: observed regions")
struct AppUsageObservedRegionsTests {
    private func withDirectory<T>(_ body: (URL) async throws -> T) async throws -> T {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("appusage-regions-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await body(directory)
    }

    @Test("An observation of records including all their children is told of changes to the children")
    func includingAllChildren() async throws {
        try await withDirectory { directory in
            let dbPool = try makeMusicPool(directory)
            let observation = ValueObservation.tracking { db in
                try Album.including(all: Album.songs.order(Column("id"))).asRequest(of: AlbumWithSongs.self).fetchAll(db)
            }
            let values = try await collect(observation, in: dbPool, writes: [
                { db in try Song(id: 1, albumId: 1, title: "Intro").insert(db) },
                { db in try db.execute(sql: "UPDATE song SET title = 'Opening'") },
            ])
            #expect(values.map { $0.flatMap { $0.songs.map(\.title) } } == [[], ["Intro"], ["Opening"]])
        }
    }

    @Test("An observation of a view is told of changes to the tables the view reads")
    func view() async throws {
        try await withDirectory { directory in
            let dbPool = try makeMusicPool(directory)
            let observation = ValueObservation.tracking { db in
                try Int.fetchOne(db, sql: "SELECT songCount FROM albumSize WHERE albumId = 1") ?? 0
            }
            let values = try await collect(observation, in: dbPool, writes: [
                { db in try Song(id: 1, albumId: 1, title: "a").insert(db) },
                { db in try Song(id: 2, albumId: 1, title: "b").insert(db) },
            ])
            #expect(values == [0, 1, 2])
        }
    }

    @Test("An observation of a full-text search is told of changes to the synchronized content table")
    func fullTextSearch() async throws {
        try await withDirectory { directory in
            let dbPool = try makeMusicPool(directory)
            let observation = ValueObservation.tracking { db in
                try Int64.fetchAll(
                    db, sql: "SELECT rowid FROM song_ft WHERE song_ft MATCH ? ORDER BY rowid",
                    arguments: [FTS5Pattern(matchingAnyTokenIn: "rain")])
            }
            let values = try await collect(observation, in: dbPool, writes: [
                { db in try Song(id: 1, albumId: 1, title: "Purple rain").insert(db) },
                { db in try db.execute(sql: "UPDATE song SET title = 'Sunshine' WHERE id = 1") },
            ])
            #expect(values == [[], [1], []])
        }
    }

    @Test("An observation of a table written by a trigger is told of the writes that fire the trigger")
    func triggerTarget() async throws {
        try await withDirectory { directory in
            let dbPool = try makeMusicPool(directory)
            let observation = ValueObservation.tracking { db in
                try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM songLog") ?? 0
            }
            let values = try await collect(observation, in: dbPool, writes: [
                { db in try Song(id: 1, albumId: 1, title: "a").insert(db) },
            ])
            #expect(values == [0, 1])
        }
    }
}

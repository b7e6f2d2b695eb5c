import Foundation
import Testing
import Trellis

/// A Decodable record decodes a nested record from its scope, or, for one
/// key only, from the row itself: a second record is not silently built
/// from the columns of the first.
@Suite struct NestedRecordKeysTests {
    struct Artist: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Artist"
        var ArtistId: Int64
        var Name: String?
    }

    struct Album: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "Album"
        static let artist = belongsTo(Artist.self)
        var AlbumId: Int64
        var Title: String
        var ArtistId: Int64
    }

    struct AlbumInfo: Decodable, FetchableRecord {
        var album: Album
        var artist: Artist
    }

    struct AlbumOnly: Decodable, FetchableRecord {
        var album: Album
    }

    private func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE Artist(ArtistId INTEGER PRIMARY KEY, Name TEXT);
                CREATE TABLE Album(AlbumId INTEGER PRIMARY KEY, Title TEXT NOT NULL,
                                   ArtistId INTEGER NOT NULL REFERENCES Artist(ArtistId));
                INSERT INTO Artist VALUES (1, 'AC/DC');
                INSERT INTO Album VALUES (1, 'Highway to Hell', 1);
                """)
        }
        return dbQueue
    }

    @Test func twoRecordsDoNotBothReadTheBaseRow() throws {
        try makeDatabase().read { db in
            let error = #expect(throws: DecodingError.self) {
                try Album.all().asRequest(of: AlbumInfo.self).fetchAll(db)
            }
            guard case .keyNotFound(let key, let context)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(key.stringValue == "artist")
            #expect(context.debugDescription.contains("No such key: album or artist"))
        }
    }

    @Test func aScopeOfAnotherNameIsNamedInTheError() throws {
        try makeDatabase().read { db in
            // The default key of the association is the table name, "Artist".
            let error = #expect(throws: DecodingError.self) {
                try Album.including(required: Album.artist).asRequest(of: AlbumInfo.self).fetchAll(db)
            }
            guard case .keyNotFound(_, let context)? = error else {
                Issue.record("unexpected \(String(describing: error))")
                return
            }
            #expect(context.debugDescription.contains("the row has the scopes Artist"))
        }
    }

    @Test func theRightKeyDecodesTheScope() throws {
        let infos = try makeDatabase().read { db in
            try Album.including(required: Album.artist.forKey("artist")).asRequest(of: AlbumInfo.self).fetchAll(db)
        }
        #expect(infos.map(\.artist.Name) == ["AC/DC"])
        #expect(infos.map(\.album.Title) == ["Highway to Hell"])
    }

    @Test func oneRecordMayReadTheBaseRow() throws {
        let infos = try makeDatabase().read { db in
            try Album.all().asRequest(of: AlbumOnly.self).fetchAll(db)
        }
        #expect(infos.map(\.album.Title) == ["Highway to Hell"])
    }
}

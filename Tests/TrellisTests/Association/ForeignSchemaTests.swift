import Testing
import Trellis

/// A schema designed elsewhere, in the style of the Chinook sample
/// database: PascalCase tables and columns, keys named `ArtistId`, a join
/// table with a composite primary key. Records keep GRDB's default table
/// names (`artist` for `Artist`), which SQLite matches ignoring case.
@Suite struct ForeignSchemaTests {
    struct Artist: Codable, FetchableRecord, PersistableRecord {
        static let albums = hasMany(Album.self)
        var ArtistId: Int64
        var Name: String
    }

    struct Album: Codable, FetchableRecord, PersistableRecord {
        static let artist = belongsTo(Artist.self)
        static let tracks = hasMany(Track.self)
        var AlbumId: Int64
        var Title: String
        var ArtistId: Int64
    }

    struct Track: Codable, FetchableRecord, PersistableRecord {
        static let album = belongsTo(Album.self)
        static let playlistTracks = hasMany(PlaylistTrack.self)
        static let playlists = hasMany(Playlist.self, through: playlistTracks, using: PlaylistTrack.playlist)
        var TrackId: Int64
        var Name: String
        var AlbumId: Int64?
        var Milliseconds: Int
    }

    struct Playlist: Codable, FetchableRecord, PersistableRecord {
        static let playlistTracks = hasMany(PlaylistTrack.self)
        static let tracks = hasMany(Track.self, through: playlistTracks, using: PlaylistTrack.track)
        var PlaylistId: Int64
        var Name: String
    }

    struct PlaylistTrack: Codable, FetchableRecord, PersistableRecord {
        static let playlist = belongsTo(Playlist.self)
        static let track = belongsTo(Track.self)
        var PlaylistId: Int64
        var TrackId: Int64
    }

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL PRIMARY KEY, [Name] NVARCHAR(120));
                CREATE TABLE [Album] (
                  [AlbumId] INTEGER NOT NULL PRIMARY KEY, [Title] NVARCHAR(160) NOT NULL, [ArtistId] INTEGER NOT NULL,
                  FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
                CREATE TABLE [Track] (
                  [TrackId] INTEGER NOT NULL PRIMARY KEY, [Name] NVARCHAR(200) NOT NULL, [AlbumId] INTEGER,
                  [Milliseconds] INTEGER NOT NULL,
                  FOREIGN KEY ([AlbumId]) REFERENCES [Album] ([AlbumId]));
                CREATE TABLE [Playlist] ([PlaylistId] INTEGER NOT NULL PRIMARY KEY, [Name] NVARCHAR(120));
                CREATE TABLE [PlaylistTrack] (
                  [PlaylistId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL,
                  CONSTRAINT [PK_PlaylistTrack] PRIMARY KEY ([PlaylistId], [TrackId]),
                  FOREIGN KEY ([PlaylistId]) REFERENCES [Playlist] ([PlaylistId]),
                  FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]));
                CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
                INSERT INTO Artist VALUES (1, 'AC/DC'), (2, 'Accept'), (3, 'Aerosmith');
                INSERT INTO Album VALUES (1, 'For Those About To Rock', 1), (2, 'Let There Be Rock', 1), (3, 'Balls to the Wall', 2);
                INSERT INTO Track VALUES (1, 'For Those About To Rock', 1, 343719), (2, 'Put The Finger On You', 1, 205662),
                  (3, 'Go Down', 2, 331180), (4, 'Balls to the Wall', 3, 342562), (5, 'Loose Track', NULL, 1000);
                INSERT INTO Playlist VALUES (1, 'Music'), (2, 'Empty');
                INSERT INTO PlaylistTrack VALUES (1, 4), (1, 1), (1, 3);
                """)
        }
        return dbQueue
    }

    struct AlbumInfo: Decodable, FetchableRecord {
        var album: Album
        var artist: Artist
        var tracks: [Track]
    }

    @Test func foreignKeysAreInferredWhateverTheCaseOfTableNames() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.read { db in
            let infos = try Album
                .including(required: Album.artist)
                .including(all: Album.tracks.order(Column("TrackId")))
                .order(Column("AlbumId"))
                .asRequest(of: AlbumInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.album.Title) == ["For Those About To Rock", "Let There Be Rock", "Balls to the Wall"])
            #expect(infos.map(\.artist.Name) == ["AC/DC", "AC/DC", "Accept"])
            #expect(infos.map { $0.tracks.map(\.TrackId) } == [[1, 2], [3], [4]])

            // Aggregates and filters on associations.
            let counts = try Artist
                .annotated(with: Artist.albums.count)
                .order(Column("ArtistId"))
                .asRequest(of: Row.self)
                .fetchAll(db)
                .map { $0["albumCount"] as Int }
            #expect(counts == [2, 1, 0])
            let silent = try Artist.having(Artist.albums.isEmpty).fetchAll(db)
            #expect(silent.map(\.Name) == ["Aerosmith"])
            let longAlbums = try Album
                .joining(required: Album.tracks.filter(Column("Milliseconds") > 340_000))
                .distinct()
                .order(Column("AlbumId"))
                .fetchAll(db)
            #expect(longAlbums.map(\.AlbumId) == [1, 3])

            // A record's own association request.
            let album = try #require(try Album.fetchOne(db, key: 1))
            #expect(try album.request(for: Album.artist).fetchOne(db)?.Name == "AC/DC")
            #expect(try album.request(for: Album.tracks).fetchCount(db) == 2)
        }
    }

    @Test func aJoinTableWithACompositeKeyLinksBothEnds() throws {
        let dbQueue = try Self.makeDatabase()
        try dbQueue.write { db in
            let music = try #require(try Playlist.fetchOne(db, key: 1))
            #expect(try music.request(for: Playlist.tracks).order(Column("TrackId")).fetchAll(db).map(\.Name)
                == ["For Those About To Rock", "Go Down", "Balls to the Wall"])
            let track = try #require(try Track.fetchOne(db, key: 4))
            #expect(try track.request(for: Track.playlists).fetchAll(db).map(\.Name) == ["Music"])
            #expect(try PlaylistTrack.fetchOne(db, key: ["PlaylistId": 1, "TrackId": 3]) != nil)
            #expect(try PlaylistTrack.deleteOne(db, key: ["PlaylistId": 1, "TrackId": 3]))
            #expect(try music.request(for: Playlist.tracks).fetchCount(db) == 2)

            // A track without album is kept by an optional join only.
            let names = try Track.joining(optional: Track.album).order(Column("TrackId")).fetchAll(db).map(\.Name)
            #expect(names.count == 5)
            #expect(try Track.joining(required: Track.album).fetchCount(db) == 4)

            // Records write to the PascalCase columns.
            var album = Album(AlbumId: 4, Title: "Big Ones", ArtistId: 3)
            try album.insert(db)
            try album.updateChanges(db) { $0.Title = "Big Ones (Remastered)" }
            #expect(try String.fetchOne(db, sql: "SELECT Title FROM Album WHERE AlbumId = 4") == "Big Ones (Remastered)")
            // Deleting an artist that albums still refer to fails, with a clear error.
            let error = #expect(throws: DatabaseError.self) { try Artist.deleteOne(db, key: 3) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
        }
    }
}

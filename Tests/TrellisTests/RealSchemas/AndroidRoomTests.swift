import Foundation
import Testing
import Trellis

/// A database made by Android's Room: backticked identifiers, keys
/// declared as `PRIMARY KEY(`uid`)` table constraints, cascading foreign
/// keys, a cross-reference table without foreign keys, Room's
/// `room_master_table` and Android's `android_metadata`, dates as
/// INTEGER milliseconds.
@Suite struct AndroidRoomTests {
    static let script = """
        CREATE TABLE android_metadata (locale TEXT);
        INSERT INTO android_metadata VALUES ('en_US');
        CREATE TABLE IF NOT EXISTS `User` (`uid` INTEGER NOT NULL, `first_name` TEXT, `last_name` TEXT, `created_at` INTEGER NOT NULL, PRIMARY KEY(`uid`));
        CREATE TABLE IF NOT EXISTS `Playlist` (`id` INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, `owner_uid` INTEGER NOT NULL, `name` TEXT NOT NULL, FOREIGN KEY(`owner_uid`) REFERENCES `User`(`uid`) ON UPDATE NO ACTION ON DELETE CASCADE );
        CREATE INDEX IF NOT EXISTS `index_Playlist_owner_uid` ON `Playlist` (`owner_uid`);
        CREATE TABLE IF NOT EXISTS `Song` (`songId` INTEGER NOT NULL, `title` TEXT NOT NULL, `duration_ms` INTEGER NOT NULL, PRIMARY KEY(`songId`));
        CREATE TABLE IF NOT EXISTS `PlaylistSongCrossRef` (`playlistId` INTEGER NOT NULL, `songId` INTEGER NOT NULL, PRIMARY KEY(`playlistId`, `songId`));
        CREATE INDEX IF NOT EXISTS `index_PlaylistSongCrossRef_songId` ON `PlaylistSongCrossRef` (`songId`);
        CREATE TABLE room_master_table (id INTEGER PRIMARY KEY,identity_hash TEXT);
        INSERT OR REPLACE INTO room_master_table (id,identity_hash) VALUES(42, 'a1b2c3d4e5f60718293a4b5c6d7e8f90');
        INSERT INTO `User` VALUES (1, 'Ada', 'Lovelace', 1700000000000), (2, 'Alan', NULL, 1700000060000);
        INSERT INTO `Playlist` (`owner_uid`, `name`) VALUES (1, 'Focus'), (1, 'Run'), (2, 'Jazz');
        INSERT INTO `Song` VALUES (10, 'So What', 545000), (11, 'Blue in Green', 337000), (12, 'Intro', 60000);
        INSERT INTO `PlaylistSongCrossRef` VALUES (1, 12), (3, 10), (3, 11);
        """

    struct User: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "User"
        static let playlists = hasMany(Playlist.self)
        var uid: Int64
        var first_name: String?
        var last_name: String?
        var created_at: Int64

        var createdAt: Date { Date(timeIntervalSince1970: Double(created_at) / 1000) }
    }

    struct Playlist: Codable, FetchableRecord, MutablePersistableRecord {
        static let owner = belongsTo(User.self, key: "owner")
        static let crossRefs = hasMany(PlaylistSongCrossRef.self, using: ForeignKey(["playlistId"]))
        static let songs = hasMany(Song.self, through: crossRefs, using: PlaylistSongCrossRef.song)
        var id: Int64?
        var owner_uid: Int64
        var name: String
        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    struct Song: Codable, FetchableRecord, TableRecord {
        var songId: Int64
        var title: String
        var duration_ms: Int
    }

    struct PlaylistSongCrossRef: Codable, FetchableRecord, PersistableRecord {
        static let song = belongsTo(Song.self, using: ForeignKey(["songId"]))
        var playlistId: Int64
        var songId: Int64
    }

    @Test func roomTablesAreIntrospected() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            // A PRIMARY KEY table constraint on one INTEGER column is an
            // alias of the rowid.
            #expect(try db.primaryKey("User").rowIDColumn == "uid")
            #expect(try db.primaryKey("Song").rowIDColumn == "songId")
            #expect(try db.primaryKey("PlaylistSongCrossRef").columns == ["playlistId", "songId"])
            #expect(try db.primaryKey("android_metadata").columns == ["rowid"])
            #expect(try db.foreignKeys(on: "Playlist").map(\.destinationTable) == ["User"])
            #expect(try db.indexes(on: "Playlist").map(\.name) == ["index_Playlist_owner_uid"])
            #expect(try String.fetchOne(db, sql: "SELECT identity_hash FROM room_master_table WHERE id = 42")?.count == 32)
            for (_, name) in try file.schemaObjects(db) {
                #expect(try Table(name).fetchAll(db).count == (try Table(name).fetchCount(db)))
            }
        }
    }

    @Test func millisecondsAreReadAsIntegers() throws {
        struct RawUser: Decodable, FetchableRecord {
            var created_at: Date
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let ada = try #require(try User.fetchOne(db, key: 1))
            #expect(ada.createdAt == Date(timeIntervalSince1970: 1_700_000_000))
            // A Date reads a number as seconds, as GRDB does: milliseconds
            // give a date 1000 times as far from 1970.
            let raw = try #require(try RawUser.fetchOne(db, sql: "SELECT created_at FROM User WHERE uid = 1"))
            #expect(raw.created_at == Date(timeIntervalSince1970: 1_700_000_000_000))
        }
    }

    @Test func relationsAndCascadesWork() throws {
        struct PlaylistInfo: Decodable, FetchableRecord {
            var playlist: Playlist
            var owner: User
            var songs: [Song]
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let infos = try Playlist
                .including(required: Playlist.owner)
                .including(all: Playlist.songs.order(Column("title")))
                .order(Column("id"))
                .asRequest(of: PlaylistInfo.self)
                .fetchAll(db)
            #expect(infos.map(\.owner.first_name) == ["Ada", "Ada", "Alan"])
            #expect(infos.map { $0.songs.map(\.title) } == [["Intro"], [], ["Blue in Green", "So What"]])
            let counts = try Row.fetchAll(db, User.annotated(with: User.playlists.count).order(Column("uid")))
            #expect(counts.map { $0["playlistCount"] as Int } == [2, 1])

            var playlist = Playlist(id: nil, owner_uid: 2, name: "Bebop")
            try playlist.insert(db)
            #expect(playlist.id == 4)
            try PlaylistSongCrossRef(playlistId: 4, songId: 10).insert(db)
            // ON DELETE CASCADE: deleting Alan deletes his playlists.
            #expect(try User.deleteOne(db, key: 2))
            #expect(try Playlist.fetchAll(db).map(\.name) == ["Focus", "Run"])
        }
    }
}

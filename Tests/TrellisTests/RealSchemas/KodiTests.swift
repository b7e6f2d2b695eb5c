import Foundation
import Testing
import Trellis

/// Kodi's `MyVideos*.db`: `idFile`-style keys, anonymous `c00`..`c23`
/// text columns whose meaning depends on the table, polymorphic link
/// tables (`media_id` and `media_type`), views that join five tables,
/// a `version` table without key, and triggers that delete links.
@Suite struct KodiTests {
    static let script = #"""
        CREATE TABLE version (idVersion integer, iCompressCount integer);
        CREATE TABLE path ( idPath integer primary key, strPath text, strContent text, strScraper text, strHash text, scanRecursive integer, useFolderNames bool, strSettings text, noUpdate bool, exclude bool, allAudio bool, dateAdded text, idParentPath integer);
        CREATE TABLE files ( idFile integer primary key, idPath integer, strFilename text, playCount integer, lastPlayed text, dateAdded text);
        CREATE TABLE movie ( idMovie integer primary key, idFile integer,c00 text,c01 text,c02 text,c03 text,c04 text,c05 text,c06 text,c07 text,c08 text,c09 text,c10 text,c11 text,c12 text,c13 text,c14 text,c15 text,c16 text,c17 text,c18 text,c19 text,c20 text,c21 text,c22 text,c23 text, idSet integer, userrating integer, premiered text);
        CREATE TABLE sets ( idSet integer primary key, strSet text, strOverview text);
        CREATE TABLE actor ( actor_id INTEGER PRIMARY KEY, name TEXT, art_urls TEXT );
        CREATE TABLE actor_link(actor_id INTEGER, media_id INTEGER, media_type TEXT, role TEXT, cast_order INTEGER);
        CREATE TABLE genre ( genre_id integer primary key, name TEXT);
        CREATE TABLE genre_link (genre_id integer, media_id integer, media_type TEXT);
        CREATE TABLE art(art_id INTEGER PRIMARY KEY, media_id INTEGER, media_type TEXT, type TEXT, url TEXT);
        CREATE TABLE bookmark ( idBookmark integer primary key, idFile integer, timeInSeconds double, totalTimeInSeconds double, thumbNailImage text, player text, playerState text, type integer);
        CREATE UNIQUE INDEX ix_path ON path ( strPath );
        CREATE UNIQUE INDEX ix_files ON files ( idPath, strFilename );
        CREATE UNIQUE INDEX ix_movie_file_1 ON movie (idFile, idMovie);
        CREATE UNIQUE INDEX ix_actor_1 ON actor (name);
        CREATE UNIQUE INDEX ix_actor_link_1 ON actor_link (actor_id, media_type, media_id, role);
        CREATE INDEX ix_actor_link_2 ON actor_link (media_id, media_type, actor_id);
        CREATE UNIQUE INDEX ix_genre_link_1 ON genre_link (genre_id, media_type, media_id);
        CREATE INDEX ix_art ON art(media_id, media_type, type);
        CREATE TRIGGER delete_movie AFTER DELETE ON movie FOR EACH ROW BEGIN DELETE FROM genre_link WHERE media_id=old.idMovie AND media_type='movie'; DELETE FROM actor_link WHERE media_id=old.idMovie AND media_type='movie'; DELETE FROM art WHERE media_id=old.idMovie AND media_type='movie'; END;
        CREATE VIEW movie_view AS SELECT  movie.*,  sets.strSet AS strSet,  sets.strOverview AS strSetOverview,  files.strFileName AS strFileName,  path.strPath AS strPath,  files.playCount AS playCount,  files.lastPlayed AS lastPlayed,   files.dateAdded AS dateAdded,   bookmark.timeInSeconds AS resumeTimeInSeconds,   bookmark.totalTimeInSeconds AS totalTimeInSeconds FROM movie  LEFT JOIN sets ON    sets.idSet = movie.idSet  JOIN files ON    files.idFile=movie.idFile  JOIN path ON    path.idPath=files.idPath  LEFT JOIN bookmark ON    bookmark.idFile=movie.idFile AND bookmark.type=1;
        INSERT INTO version VALUES (131, 0);
        INSERT INTO path (idPath, strPath, strContent, strScraper, scanRecursive, useFolderNames, noUpdate, exclude, allAudio) VALUES (1, 'smb://nas/Movies/', 'movies', 'metadata.themoviedb.org.python', 2147483647, 0, 0, 0, 0);
        INSERT INTO files VALUES (1, 1, 'Blade Runner (1982).mkv', 2, '2024-02-10 21:05:11', '2023-12-01 10:00:00'), (2, 1, 'Arrival (2016).mkv', NULL, NULL, '2023-12-01 10:00:05');
        INSERT INTO sets VALUES (1, 'Blade Runner Collection', '');
        INSERT INTO movie (idMovie, idFile, c00, c01, c05, c07, c09, c11, c14, c16, c19, idSet, userrating, premiered)
          VALUES (1, 1, 'Blade Runner', 'In the smog-choked dystopian Los Angeles of 2019...', '7.9', NULL, 'tt0083658', '7020', 'Science Fiction / Drama', 'Blade Runner', '', 1, 9, '1982-06-25'),
                 (2, 2, 'Arrival', 'Taking place after alien crafts land around the world...', '7.6', NULL, 'tt2543164', '6960', 'Drama / Science Fiction', 'Arrival', '', NULL, NULL, '2016-11-11');
        INSERT INTO bookmark VALUES (1, 2, 3120.5, 6960.0, '', 'VideoPlayer', '', 1);
        INSERT INTO actor VALUES (1, 'Harrison Ford', '<thumb>https://image.tmdb.org/t/p/original/a.jpg</thumb>'), (2, 'Amy Adams', NULL), (3, 'Rutger Hauer', NULL);
        INSERT INTO actor_link VALUES (1, 1, 'movie', 'Rick Deckard', 0), (3, 1, 'movie', 'Roy Batty', 1), (2, 2, 'movie', 'Louise Banks', 0), (1, 1, 'tvshow', 'Narrator', 0);
        INSERT INTO genre VALUES (1, 'Science Fiction'), (2, 'Drama');
        INSERT INTO genre_link VALUES (1, 1, 'movie'), (2, 1, 'movie'), (1, 2, 'movie'), (2, 2, 'movie');
        INSERT INTO art VALUES (1, 1, 'movie', 'poster', 'https://image.tmdb.org/t/p/original/p1.jpg'), (2, 1, 'movie', 'fanart', 'https://image.tmdb.org/t/p/original/f1.jpg'), (3, 1, 'set', 'poster', 'x'), (4, 2, 'movie', 'poster', 'https://image.tmdb.org/t/p/original/p2.jpg');
        """#

    struct Movie: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "movie"
        static let file = belongsTo(VideoFile.self, key: "file", using: ForeignKey(["idFile"]))
        static let actorLinks = hasMany(ActorLink.self, key: "actorLinks", using: ForeignKey(["media_id"]))
            .filter(Column("media_type") == "movie")
        static let actors = hasMany(Actor.self, through: actorLinks, using: ActorLink.actor, key: "actors")
        static let art = hasMany(Art.self, key: "art", using: ForeignKey(["media_id"])).filter(Column("media_type") == "movie")
        var idMovie: Int64
        var idFile: Int64
        var title: String
        var plot: String?
        var rating: Double?
        var imdbID: String?
        var runtime: Int?
        var genres: String?
        var userrating: Int?
        enum CodingKeys: String, CodingKey {
            case idMovie, idFile, userrating
            case title = "c00", plot = "c01", rating = "c05", imdbID = "c09", runtime = "c11", genres = "c14"
        }
    }

    struct MovieView: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "movie_view"
        static let actorLinks = hasMany(ActorLink.self, key: "actorLinks", using: ForeignKey(["media_id"], to: ["idMovie"]))
        var idMovie: Int64
        var title: String
        var strSet: String?
        var strFileName: String
        var strPath: String
        var playCount: Int?
        var lastPlayed: Date?
        var resumeTimeInSeconds: Double?
        enum CodingKeys: String, CodingKey {
            case idMovie, strSet, strFileName, strPath, playCount, lastPlayed, resumeTimeInSeconds
            case title = "c00"
        }
    }

    struct VideoFile: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "files"
        var idFile: Int64
        var strFilename: String
    }

    struct ActorLink: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "actor_link"
        static let actor = belongsTo(Actor.self, key: "actor", using: ForeignKey(["actor_id"]))
        var actorId: Int64
        var mediaId: Int64
        var mediaType: String
        var role: String
        enum CodingKeys: String, CodingKey { case actorId = "actor_id", mediaId = "media_id", mediaType = "media_type", role }
    }

    struct Actor: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "actor"
        var actorId: Int64
        var name: String
        enum CodingKeys: String, CodingKey { case actorId = "actor_id", name }
    }

    struct Art: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "art"
        var type: String
        var url: String
    }

    @Test func moviesReadTheirAnonymousColumnsAndPolymorphicLinks() throws {
        struct MovieInfo: Decodable, FetchableRecord {
            var movie: Movie
            var file: VideoFile
            var actors: [Actor]
            var art: [Art]
        }
        struct MovieCount: Decodable, FetchableRecord {
            var idMovie: Int64
            var actorCount: Int
            var posterCount: Int
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.columns(in: "movie").count == 29)
            #expect(try db.primaryKey("version").columns == ["rowid"])
            #expect(try db.table("files", hasUniqueKey: ["idPath", "strFilename"]))
            let infos = try Movie
                .including(required: Movie.file)
                .including(all: Movie.actors.order(Column("name")))
                .including(all: Movie.art.order(Column("type")))
                .order(Column("idMovie"))
                .asRequest(of: MovieInfo.self).fetchAll(db)
            #expect(infos.map(\.movie.title) == ["Blade Runner", "Arrival"])
            // Text columns that hold numbers read as numbers, losslessly.
            #expect(infos.map(\.movie.rating) == [7.9, 7.6])
            #expect(infos.map(\.movie.runtime) == [7020, 6960])
            #expect(infos.map(\.file.strFilename) == ["Blade Runner (1982).mkv", "Arrival (2016).mkv"])
            // The link to the TV show of the same id is left out.
            #expect(infos.map { $0.actors.map(\.name) } == [["Harrison Ford", "Rutger Hauer"], ["Amy Adams"]])
            #expect(infos.map { $0.art.map(\.type) } == [["fanart", "poster"], ["poster"]])
            let counts = try Movie
                .annotated(with: Movie.actorLinks.count.forKey("actorCount"),
                           Movie.art.filter(Column("type") == "poster").count.forKey("posterCount"))
                .order(Column("idMovie"))
                .asRequest(of: MovieCount.self).fetchAll(db)
            #expect(counts.map(\.actorCount) == [2, 1])
            #expect(counts.map(\.posterCount) == [1, 1])
            // A title that does not read as a number is an error.
            let error = #expect(throws: RowDecodingError.self) { try Double.fetchAll(db, sql: "SELECT c00 FROM movie") }
            #expect(error?.message.hasPrefix(#"could not decode Double from database value "Blade Runner""#) == true)
        }
    }

    @Test func theMovieViewIsARecordWithoutKey() throws {
        struct ViewInfo: Decodable, FetchableRecord {
            var movieView: MovieView
            var actorLinks: [ActorLink]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { (db) throws in
            #expect(try db.viewExists("movie_view"))
            #expect(try db.tableExists("movie_view") == false)
            #expect(try db.columns(in: "movie_view").count == 38)
            let movies = try MovieView.order(Column("idMovie")).fetchAll(db)
            #expect(movies.map(\.strSet) == ["Blade Runner Collection", nil])
            #expect(movies.map(\.strPath) == ["smb://nas/Movies/", "smb://nas/Movies/"])
            #expect(movies.map(\.playCount) == [2, nil])
            #expect(movies[0].lastPlayed == Date(timeIntervalSince1970: 1_707_599_111))
            #expect(movies.map(\.resumeTimeInSeconds) == [nil, 3120.5])
            // With the view's column named, its links are prefetched.
            let infos = try MovieView.including(all: MovieView.actorLinks.filter(Column("media_type") == "movie").order(Column("cast_order")))
                .order(Column("idMovie"))
                .asRequest(of: ViewInfo.self).fetchAll(db)
            #expect(infos.map { $0.actorLinks.map(\.role) } == [["Rick Deckard", "Roy Batty"], ["Louise Banks"]])
            // A view has no primary key: what needs one fails clearly.
            let key = #expect(throws: DatabaseError.self) { try MovieView.fetchOne(db, key: 1) }
            #expect(key?.message == "database view movie_view has no primary key")
            let association = #expect(throws: DatabaseError.self) {
                try MovieView.including(all: MovieView.hasMany(ActorLink.self, using: ForeignKey(["media_id"]))).fetchAll(db)
            }
            #expect(association?.message == "database view movie_view has no primary key")
        }
    }

    @Test func deletingAMovieRunsKodisTriggers() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().write { (db) throws in
            #expect(try Movie.deleteOne(db, key: 1))
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM actor_link") == 2)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM art WHERE media_type = 'set'") == 1)
            #expect(try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM genre_link WHERE media_id = 1") == 0)
            #expect(try MovieView.fetchCount(db) == 1)
            let write = #expect(throws: DatabaseError.self) { try MovieView.deleteAll(db) }
            #expect(write?.message == "cannot modify movie_view because it is a view")
        }
    }
}

import Foundation
import Testing
import Trellis

/// The SQLite port of MySQL's Sakila sample: primary keys declared
/// `numeric`, `int` or `SMALLINT` (none of them is the rowid), a
/// `BLOB SUB_TYPE TEXT` column, `DECIMAL(4,2)` defaults, named CHECK
/// constraints, two foreign keys from `film` to `language`, a cycle
/// between `store` and `staff`, triggers that stamp `last_update`, and
/// views that join five tables.
@Suite struct SakilaTests {
    static let script = """
        CREATE TABLE actor (
          actor_id numeric NOT NULL ,
          first_name VARCHAR(45) NOT NULL,
          last_name VARCHAR(45) NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (actor_id)
          )
          ;
        CREATE  INDEX idx_actor_last_name ON actor(last_name)
        ;
        CREATE TRIGGER actor_trigger_ai AFTER INSERT ON actor
         BEGIN
          UPDATE actor SET last_update = DATETIME('NOW')  WHERE rowid = new.rowid;
         END
        ;
        CREATE TABLE language (
          language_id SMALLINT NOT NULL ,
          name CHAR(20) NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY (language_id)
        );
        CREATE TABLE category (
          category_id SMALLINT NOT NULL,
          name VARCHAR(25) NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (category_id)
        );
        CREATE TABLE film (
          film_id int NOT NULL,
          title VARCHAR(255) NOT NULL,
          description BLOB SUB_TYPE TEXT DEFAULT NULL,
          release_year VARCHAR(4) DEFAULT NULL,
          language_id SMALLINT NOT NULL,
          original_language_id SMALLINT DEFAULT NULL,
          rental_duration SMALLINT  DEFAULT 3 NOT NULL,
          rental_rate DECIMAL(4,2) DEFAULT 4.99 NOT NULL,
          length SMALLINT DEFAULT NULL,
          replacement_cost DECIMAL(5,2) DEFAULT 19.99 NOT NULL,
          rating VARCHAR(10) DEFAULT 'G',
          special_features VARCHAR(100) DEFAULT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (film_id),
          CONSTRAINT CHECK_special_features CHECK(special_features is null or
                                                   special_features like '%Trailers%' or
                                                   special_features like '%Commentaries%' or
                                                   special_features like '%Deleted Scenes%' or
                                                   special_features like '%Behind the Scenes%'),
          CONSTRAINT CHECK_special_rating CHECK(rating in ('G','PG','PG-13','R','NC-17')),
          CONSTRAINT fk_film_language FOREIGN KEY (language_id) REFERENCES language (language_id) ,
          CONSTRAINT fk_film_language_original FOREIGN KEY (original_language_id) REFERENCES language (language_id)
        );
        CREATE TABLE film_actor (
          actor_id INT NOT NULL,
          film_id  INT NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (actor_id,film_id),
          CONSTRAINT fk_film_actor_actor FOREIGN KEY (actor_id) REFERENCES actor (actor_id) ON DELETE NO ACTION ON UPDATE CASCADE,
          CONSTRAINT fk_film_actor_film FOREIGN KEY (film_id) REFERENCES film (film_id) ON DELETE NO ACTION ON UPDATE CASCADE
        );
        CREATE TABLE film_category (
          film_id INT NOT NULL,
          category_id SMALLINT  NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY (film_id, category_id),
          CONSTRAINT fk_film_category_film FOREIGN KEY (film_id) REFERENCES film (film_id) ON DELETE NO ACTION ON UPDATE CASCADE,
          CONSTRAINT fk_film_category_category FOREIGN KEY (category_id) REFERENCES category (category_id) ON DELETE NO ACTION ON UPDATE CASCADE
        );
        CREATE TABLE address (
          address_id int NOT NULL,
          address VARCHAR(50) NOT NULL,
          district VARCHAR(20) NOT NULL,
          phone VARCHAR(20) NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (address_id)
        );
        CREATE TABLE staff (
          staff_id SMALLINT NOT NULL,
          first_name VARCHAR(45) NOT NULL,
          last_name VARCHAR(45) NOT NULL,
          address_id INT NOT NULL,
          picture BLOB DEFAULT NULL,
          email VARCHAR(50) DEFAULT NULL,
          store_id INT NOT NULL,
          active SMALLINT DEFAULT 1 NOT NULL,
          username VARCHAR(16) NOT NULL,
          password VARCHAR(40) DEFAULT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (staff_id),
          CONSTRAINT fk_staff_store FOREIGN KEY (store_id) REFERENCES store (store_id) ON DELETE NO ACTION ON UPDATE CASCADE,
          CONSTRAINT fk_staff_address FOREIGN KEY (address_id) REFERENCES address (address_id) ON DELETE NO ACTION ON UPDATE CASCADE
        );
        CREATE TABLE store (
          store_id INT NOT NULL,
          manager_staff_id SMALLINT NOT NULL,
          address_id INT NOT NULL,
          last_update TIMESTAMP NOT NULL,
          PRIMARY KEY  (store_id),
          CONSTRAINT fk_store_staff FOREIGN KEY (manager_staff_id) REFERENCES staff (staff_id) ,
          CONSTRAINT fk_store_address FOREIGN KEY (address_id) REFERENCES address (address_id)
        );
        CREATE UNIQUE INDEX idx_unique_manager ON store(manager_staff_id);
        CREATE VIEW film_list
        AS
        SELECT film.film_id AS FID,
               film.title AS title,
               film.description AS description,
               category.name AS category,
               film.rental_rate AS price,
               film.length AS length,
               film.rating AS rating,
               actor.first_name||' '||actor.last_name AS actors
        FROM category LEFT JOIN film_category ON category.category_id = film_category.category_id LEFT JOIN film ON film_category.film_id = film.film_id
                JOIN film_actor ON film.film_id = film_actor.film_id
            JOIN actor ON film_actor.actor_id = actor.actor_id;
        INSERT INTO actor VALUES (1, 'PENELOPE', 'GUINESS', '2006-02-15 04:34:33.000'), (2, 'NICK', 'WAHLBERG', '2006-02-15 04:34:33.000'), (3, 'ED', 'CHASE', '2006-02-15 04:34:33.000');
        INSERT INTO language VALUES (1, 'English', '2006-02-15 05:02:19.000'), (2, 'Italian', '2006-02-15 05:02:19.000'), (3, 'Japanese', '2006-02-15 05:02:19.000');
        INSERT INTO category VALUES (1, 'Action', '2006-02-15 04:46:27.000'), (6, 'Documentary', '2006-02-15 04:46:27.000');
        INSERT INTO film VALUES (1, 'ACADEMY DINOSAUR', 'A Epic Drama of a Feminist And a Mad Scientist who must Battle a Teacher in The Canadian Rockies', '2006', 1, NULL, 6, 0.99, 86, 20.99, 'PG', 'Deleted Scenes,Behind the Scenes', '2006-02-15 05:03:42.000');
        INSERT INTO film VALUES (2, 'ACE GOLDFINGER', 'A Astounding Epistle of a Database Administrator And a Explorer who must Find a Car in Ancient China', '2006', 1, 3, 3, 4.99, 48, 12.99, 'G', 'Trailers,Deleted Scenes', '2006-02-15 05:03:42.000');
        INSERT INTO film (film_id, title, language_id, original_language_id, last_update) VALUES (3, 'ADAPTATION HOLES', 1, 2, '2006-02-15 05:03:42.000');
        INSERT INTO film_actor VALUES (1, 1, '2006-02-15 05:05:03.000'), (1, 2, '2006-02-15 05:05:03.000'), (2, 1, '2006-02-15 05:05:03.000'), (3, 3, '2006-02-15 05:05:03.000');
        INSERT INTO film_category VALUES (1, 6, '2006-02-15 05:07:09.000'), (2, 1, '2006-02-15 05:07:09.000'), (3, 6, '2006-02-15 05:07:09.000');
        INSERT INTO address VALUES (1, '47 MySakila Drive', 'Alberta', '', '2006-02-15 04:45:30.000'), (2, '28 MySQL Boulevard', 'QLD', '', '2006-02-15 04:45:30.000');
        INSERT INTO staff VALUES (1, 'Mike', 'Hillyer', 1, X'89504E47', 'Mike.Hillyer@sakilastaff.com', 1, 1, 'Mike', '8cb2237d0679ca88db6464eac60da96345513964', '2006-02-15 04:57:16.000');
        INSERT INTO staff VALUES (2, 'Jon', 'Stephens', 2, NULL, 'Jon.Stephens@sakilastaff.com', 2, 1, 'Jon', NULL, '2006-02-15 04:57:16.000');
        INSERT INTO store VALUES (1, 1, 1, '2006-02-15 04:57:12.000'), (2, 2, 2, '2006-02-15 04:57:12.000');
        """

    struct Actor: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "actor"
        static let filmActors = hasMany(FilmActor.self)
        static let films = hasMany(Film.self, through: filmActors, using: FilmActor.film)
        var actor_id: Int64
        var first_name: String
        var last_name: String
        var last_update: Date
    }

    struct Language: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "language"
        var language_id: Int
        var name: String
    }

    struct Film: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "film"
        static let language = belongsTo(Language.self, key: "language", using: ForeignKey(["language_id"]))
        static let originalLanguage = belongsTo(Language.self, key: "originalLanguage", using: ForeignKey(["original_language_id"]))
        static let filmActors = hasMany(FilmActor.self)
        static let actors = hasMany(Actor.self, through: filmActors, using: FilmActor.actor)
        var film_id: Int64
        var title: String
        var description: String?
        var release_year: Int?
        var language_id: Int
        var original_language_id: Int?
        var rental_duration: Int
        var rental_rate: Double
        var length: Int?
        var replacement_cost: Double
        var rating: String?
        var special_features: String?
        var last_update: Date
    }

    struct FilmActor: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "film_actor"
        static let actor = belongsTo(Actor.self)
        static let film = belongsTo(Film.self)
        var actor_id: Int64
        var film_id: Int64
        var last_update: Date
    }

    struct Staff: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "staff"
        static let store = belongsTo(Store.self)
        static let managedStore = hasOne(Store.self, key: "managedStore")
        var staff_id: Int
        var first_name: String
        var picture: Data?
        var store_id: Int
    }

    struct Store: Codable, FetchableRecord, TableRecord {
        static let databaseTableName = "store"
        static let manager = belongsTo(Staff.self, key: "manager")
        static let staff = hasMany(Staff.self, key: "staff")
        var store_id: Int
        var manager_staff_id: Int
    }

    static let sakilaDate = Date(timeIntervalSince1970: 1_139_978_073) // 2006-02-15 04:34:33 UTC

    @Test func keysThatAreNotTheRowid() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            for table in ["actor", "film", "language"] {
                let key = try db.primaryKey(table)
                #expect(key.rowIDColumn == nil, "\(table)")
                #expect(key.isRowID == false, "\(table)")
            }
            #expect(try db.primaryKey("film").columns == ["film_id"])
            #expect(try db.columns(in: "film").first { $0.name == "description" }?.type == "BLOB SUB_TYPE TEXT")
            // The insert trigger stamped each actor with the time of the
            // script, whatever the row said.
            let penelope = try #require(try Actor.fetchOne(db, key: 1))
            #expect(penelope.last_update > Self.sakilaDate)
            #expect(try Film.fetchOne(db, key: 1)?.last_update == Date(timeIntervalSince1970: 1_139_979_822))
            // A numeric key takes a number written as text, as SQLite
            // compares with the column's affinity.
            #expect(try Actor.fetchOne(db, key: "2")?.first_name == "NICK")

            // The key is not the rowid: the inserted row keeps the key
            // the record gives, whatever its rowid.
            // An actor with films cannot go first: NO ACTION.
            let restricted = #expect(throws: DatabaseError.self) { try Actor.deleteOne(db, key: 2) }
            #expect(restricted?.message == "FOREIGN KEY constraint failed")
            try FilmActor.filter(Column("actor_id") == 2).deleteAll(db)
            #expect(try Actor.deleteOne(db, key: 2))
            let actor = try Actor(actor_id: 200, first_name: "GRACE", last_name: "MOSTEL", last_update: Self.sakilaDate)
                .insertAndFetch(db)
            #expect(actor.actor_id == 200)
            #expect(try Int64.fetchOne(db, sql: "SELECT rowid FROM actor WHERE actor_id = 200") == 4)
            // The trigger stamped the row after the insert.
            let stamped = try #require(try Actor.fetchOne(db, key: 200))
            #expect(stamped.last_update > Date(timeIntervalSince1970: 1_600_000_000))
            // No key, no row: NOT NULL, not a rowid given by SQLite.
            let error = #expect(throws: DatabaseError.self) {
                try db.execute(sql: "INSERT INTO actor (first_name, last_name, last_update) VALUES ('X', 'Y', '2006-02-15')")
            }
            #expect(error?.message == "NOT NULL constraint failed: actor.actor_id")
            try Actor(actor_id: 3, first_name: "ED", last_name: "CHASE-MOSTEL", last_update: Self.sakilaDate).upsert(db)
            #expect(try Actor.fetchCount(db) == 3)
            #expect(try Actor.fetchOne(db, key: 3)?.last_name == "CHASE-MOSTEL")
        }
    }

    @Test func twoForeignKeysToLanguageNeedTheirColumns() throws {
        struct FilmInfo: Decodable, FetchableRecord {
            var film: Film
            var language: Language
            var originalLanguage: Language?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let infos = try Film.including(required: Film.language).including(optional: Film.originalLanguage)
                .order(Column("film_id")).asRequest(of: FilmInfo.self).fetchAll(db)
            #expect(infos.map(\.language.name) == ["English", "English", "English"])
            #expect(infos.map { $0.originalLanguage?.name } == [nil, "Japanese", "Italian"])
            #expect(infos.map(\.film.release_year) == [2006, 2006, nil])
            #expect(infos[0].film.description?.hasPrefix("A Epic Drama") == true)
            #expect(infos.map(\.film.rental_rate) == [0.99, 4.99, 4.99])
            #expect(infos.map(\.film.replacement_cost) == [20.99, 12.99, 19.99])
            let error = #expect(throws: DatabaseError.self) {
                try Film.including(required: Film.belongsTo(Language.self)).fetchAll(db)
            }
            #expect(error?.message.map { $0.hasPrefix("Ambiguous foreign key from film to language") } == true)
        }
    }

    @Test func actorsAndFilmsThroughACompositeKeyTable() throws {
        struct ActorInfo: Decodable, FetchableRecord {
            var actor: Actor
            var films: [Film]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let actors = try Actor.including(all: Actor.films.order(Column("title")))
                .order(Column("actor_id")).asRequest(of: ActorInfo.self).fetchAll(db)
            #expect(actors.map { $0.films.map(\.title) } == [["ACADEMY DINOSAUR", "ACE GOLDFINGER"], ["ACADEMY DINOSAUR"], ["ADAPTATION HOLES"]])
            let counts = try Row.fetchAll(db, Film.annotated(with: Film.actors.count).order(Column("film_id")))
            #expect(counts.map { $0["actorCount"] as Int } == [2, 1, 1])
            let view = try Row.fetchAll(db, sql: "SELECT FID, category, actors, price FROM film_list ORDER BY FID, actors")
            #expect(view.map { $0["actors"] as String } == ["NICK WAHLBERG", "PENELOPE GUINESS", "PENELOPE GUINESS", "ED CHASE"])
            #expect(view.map { $0["category"] as String } == ["Documentary", "Documentary", "Action", "Documentary"])
            let link = try #require(try FilmActor.fetchOne(db, key: ["actor_id": 1, "film_id": 2]))
            #expect(try link.request(for: FilmActor.film).fetchOne(db)?.title == "ACE GOLDFINGER")
        }
    }

    @Test func checksAndTheStoreStaffCycle() throws {
        struct StoreInfo: Decodable, FetchableRecord {
            var store: Store
            var manager: Staff
            var staff: [Staff]
        }
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let stores = try Store.including(required: Store.manager).including(all: Store.staff)
                .order(Column("store_id")).asRequest(of: StoreInfo.self).fetchAll(db)
            #expect(stores.map(\.manager.first_name) == ["Mike", "Jon"])
            #expect(stores.map { $0.staff.map(\.staff_id) } == [[1], [2]])
            let mike = try #require(try Staff.fetchOne(db, key: 1))
            #expect(mike.picture == Data([0x89, 0x50, 0x4E, 0x47]))
            #expect(try mike.request(for: Staff.managedStore).fetchOne(db)?.store_id == 1)

            var film = try #require(try Film.fetchOne(db, key: 3))
            film.rating = "X"
            let rating = #expect(throws: DatabaseError.self) { try film.update(db) }
            #expect(rating?.resultCode == .SQLITE_CONSTRAINT)
            #expect(rating?.message == "CHECK constraint failed: CHECK_special_rating")
            film.rating = "NC-17"
            film.special_features = "Bloopers"
            let features = #expect(throws: DatabaseError.self) { try film.update(db) }
            #expect(features?.message == "CHECK constraint failed: CHECK_special_features")
            film.special_features = "Commentaries"
            try film.update(db)
            #expect(try Film.fetchOne(db, key: 3)?.rating == "NC-17")
            // NO ACTION: a film with actors stays.
            let delete = #expect(throws: DatabaseError.self) { try Film.deleteOne(db, key: 3) }
            #expect(delete?.message == "FOREIGN KEY constraint failed")
            // ON UPDATE CASCADE reaches the link tables.
            try Film.filter(key: 3).updateAll(db, Column("film_id").set(to: 1003))
            #expect(try FilmActor.filter(Column("actor_id") == 3).fetchAll(db).map(\.film_id) == [1003])
            #expect(try Int.fetchOne(db, sql: "SELECT film_id FROM film_category WHERE category_id = 6 ORDER BY film_id DESC") == 1003)
        }
    }
}

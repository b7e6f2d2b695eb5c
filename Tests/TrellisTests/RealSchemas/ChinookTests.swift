import Foundation
import Testing
import Trellis

/// The Chinook sample database, as its SQLite script writes it: bracket
/// quoted PascalCase identifiers, named primary key constraints,
/// `NVARCHAR(160)`, `NUMERIC(10,2)` prices and `DATETIME` columns that
/// hold text such as `2009-01-01 00:00:00`.
@Suite struct ChinookTests {
    static let script = """
        CREATE TABLE [Artist] ([ArtistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Artist] PRIMARY KEY ([ArtistId]));
        CREATE TABLE [Album] (
            [AlbumId] INTEGER NOT NULL, [Title] NVARCHAR(160) NOT NULL, [ArtistId] INTEGER NOT NULL,
            CONSTRAINT [PK_Album] PRIMARY KEY ([AlbumId]),
            FOREIGN KEY ([ArtistId]) REFERENCES [Artist] ([ArtistId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Genre] ([GenreId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Genre] PRIMARY KEY ([GenreId]));
        CREATE TABLE [MediaType] ([MediaTypeId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_MediaType] PRIMARY KEY ([MediaTypeId]));
        CREATE TABLE [Track] (
            [TrackId] INTEGER NOT NULL, [Name] NVARCHAR(200) NOT NULL, [AlbumId] INTEGER, [MediaTypeId] INTEGER NOT NULL,
            [GenreId] INTEGER, [Composer] NVARCHAR(220), [Milliseconds] INTEGER NOT NULL, [Bytes] INTEGER,
            [UnitPrice] NUMERIC(10,2) NOT NULL,
            CONSTRAINT [PK_Track] PRIMARY KEY ([TrackId]),
            FOREIGN KEY ([AlbumId]) REFERENCES [Album] ([AlbumId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([GenreId]) REFERENCES [Genre] ([GenreId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([MediaTypeId]) REFERENCES [MediaType] ([MediaTypeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Playlist] ([PlaylistId] INTEGER NOT NULL, [Name] NVARCHAR(120), CONSTRAINT [PK_Playlist] PRIMARY KEY ([PlaylistId]));
        CREATE TABLE [PlaylistTrack] (
            [PlaylistId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL,
            CONSTRAINT [PK_PlaylistTrack] PRIMARY KEY ([PlaylistId], [TrackId]),
            FOREIGN KEY ([PlaylistId]) REFERENCES [Playlist] ([PlaylistId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Employee] (
            [EmployeeId] INTEGER NOT NULL, [LastName] NVARCHAR(20) NOT NULL, [FirstName] NVARCHAR(20) NOT NULL,
            [Title] NVARCHAR(30), [ReportsTo] INTEGER, [BirthDate] DATETIME, [HireDate] DATETIME,
            [City] NVARCHAR(40), [Country] NVARCHAR(40), [Email] NVARCHAR(60),
            CONSTRAINT [PK_Employee] PRIMARY KEY ([EmployeeId]),
            FOREIGN KEY ([ReportsTo]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Customer] (
            [CustomerId] INTEGER NOT NULL, [FirstName] NVARCHAR(40) NOT NULL, [LastName] NVARCHAR(20) NOT NULL,
            [Company] NVARCHAR(80), [City] NVARCHAR(40), [Country] NVARCHAR(40), [PostalCode] NVARCHAR(10),
            [Email] NVARCHAR(60) NOT NULL, [SupportRepId] INTEGER,
            CONSTRAINT [PK_Customer] PRIMARY KEY ([CustomerId]),
            FOREIGN KEY ([SupportRepId]) REFERENCES [Employee] ([EmployeeId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [Invoice] (
            [InvoiceId] INTEGER NOT NULL, [CustomerId] INTEGER NOT NULL, [InvoiceDate] DATETIME NOT NULL,
            [BillingCity] NVARCHAR(40), [BillingCountry] NVARCHAR(40), [Total] NUMERIC(10,2) NOT NULL,
            CONSTRAINT [PK_Invoice] PRIMARY KEY ([InvoiceId]),
            FOREIGN KEY ([CustomerId]) REFERENCES [Customer] ([CustomerId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE TABLE [InvoiceLine] (
            [InvoiceLineId] INTEGER NOT NULL, [InvoiceId] INTEGER NOT NULL, [TrackId] INTEGER NOT NULL,
            [UnitPrice] NUMERIC(10,2) NOT NULL, [Quantity] INTEGER NOT NULL,
            CONSTRAINT [PK_InvoiceLine] PRIMARY KEY ([InvoiceLineId]),
            FOREIGN KEY ([InvoiceId]) REFERENCES [Invoice] ([InvoiceId]) ON DELETE NO ACTION ON UPDATE NO ACTION,
            FOREIGN KEY ([TrackId]) REFERENCES [Track] ([TrackId]) ON DELETE NO ACTION ON UPDATE NO ACTION);
        CREATE INDEX [IFK_AlbumArtistId] ON [Album] ([ArtistId]);
        CREATE UNIQUE INDEX [IPK_Album] ON [Album] ([AlbumId]);
        CREATE INDEX [IFK_TrackAlbumId] ON [Track] ([AlbumId]);
        CREATE INDEX [IFK_PlaylistTrackTrackId] ON [PlaylistTrack] ([TrackId]);
        CREATE INDEX [IFK_InvoiceLineInvoiceId] ON [InvoiceLine] ([InvoiceId]);

        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (1, 'AC/DC');
        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (2, 'Accept');
        INSERT INTO [Artist] ([ArtistId], [Name]) VALUES (3, 'Antônio Carlos Jobim');
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (1, 'For Those About To Rock We Salute You', 1);
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (2, 'Balls to the Wall', 2);
        INSERT INTO [Album] ([AlbumId], [Title], [ArtistId]) VALUES (3, 'Restless and Wild', 2);
        INSERT INTO [Genre] ([GenreId], [Name]) VALUES (1, 'Rock');
        INSERT INTO [MediaType] ([MediaTypeId], [Name]) VALUES (1, 'MPEG audio file');
        INSERT INTO [Track] VALUES (1, 'For Those About To Rock (We Salute You)', 1, 1, 1, 'Angus Young, Malcolm Young, Brian Johnson', 343719, 11170334, 0.99);
        INSERT INTO [Track] VALUES (2, 'Balls to the Wall', 2, 1, 1, NULL, 342562, 5510424, 0.99);
        INSERT INTO [Track] VALUES (3, 'Fast As a Shark', 3, 1, 1, 'F. Baltes, S. Kaufman, U. Dirkscneider & W. Hoffman', 230619, 3990994, 0.99);
        INSERT INTO [Track] VALUES (4, 'Put The Finger On You', 1, 1, NULL, NULL, 205662, 6713451, 1.00);
        INSERT INTO [Playlist] ([PlaylistId], [Name]) VALUES (1, 'Music'), (2, 'Movies');
        INSERT INTO [PlaylistTrack] ([PlaylistId], [TrackId]) VALUES (1, 3), (1, 1), (1, 2);
        INSERT INTO [Employee] VALUES (1, 'Adams', 'Andrew', 'General Manager', NULL, '1962-02-18 00:00:00', '2002-08-14 00:00:00', 'Edmonton', 'Canada', 'andrew@chinookcorp.com');
        INSERT INTO [Employee] VALUES (2, 'Edwards', 'Nancy', 'Sales Manager', 1, '1958-12-08 00:00:00', '2002-05-01 00:00:00', 'Calgary', 'Canada', 'nancy@chinookcorp.com');
        INSERT INTO [Employee] VALUES (3, 'Peacock', 'Jane', 'Sales Support Agent', 2, '1973-08-29 00:00:00', '2002-04-01 00:00:00', 'Calgary', 'Canada', 'jane@chinookcorp.com');
        INSERT INTO [Customer] VALUES (1, 'Luís', 'Gonçalves', 'Embraer', 'São José dos Campos', 'Brazil', '12227-000', 'luisg@embraer.com.br', 3);
        INSERT INTO [Customer] VALUES (2, 'Leonie', 'Köhler', NULL, 'Stuttgart', 'Germany', '70174', 'leonekohler@surfeu.de', 3);
        INSERT INTO [Invoice] VALUES (1, 2, '2009-01-01 00:00:00', 'Stuttgart', 'Germany', 1.98);
        INSERT INTO [Invoice] VALUES (2, 1, '2009-01-02 00:00:00', 'São José dos Campos', 'Brazil', 3.96);
        INSERT INTO [Invoice] VALUES (3, 2, '2009-02-11 00:00:00', 'Stuttgart', 'Germany', 1.00);
        INSERT INTO [InvoiceLine] VALUES (1, 1, 2, 0.99, 1), (2, 1, 1, 0.99, 1), (3, 2, 3, 0.99, 4), (4, 3, 4, 1.00, 1);
        """

    struct Artist: Codable, FetchableRecord, PersistableRecord {
        static let albums = hasMany(Album.self)
        var ArtistId: Int64
        var Name: String?
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
        static let genre = belongsTo(Genre.self)
        var TrackId: Int64
        var Name: String
        var AlbumId: Int64?
        var GenreId: Int64?
        var Milliseconds: Int
        var UnitPrice: Decimal
    }

    struct Genre: Codable, FetchableRecord, TableRecord {
        var GenreId: Int64
        var Name: String?
    }

    struct Playlist: Codable, FetchableRecord, TableRecord {
        static let playlistTracks = hasMany(PlaylistTrack.self)
        static let tracks = hasMany(Track.self, through: playlistTracks, using: PlaylistTrack.track)
        var PlaylistId: Int64
        var Name: String?
    }

    struct PlaylistTrack: Codable, FetchableRecord, PersistableRecord, Equatable {
        static let track = belongsTo(Track.self)
        static let playlist = belongsTo(Playlist.self)
        var PlaylistId: Int64
        var TrackId: Int64
    }

    struct Employee: Codable, FetchableRecord, PersistableRecord {
        static let manager = belongsTo(Employee.self, key: "manager")
        static let reports = hasMany(Employee.self, key: "reports")
        static let customers = hasMany(Customer.self)
        var EmployeeId: Int64
        var LastName: String
        var FirstName: String
        var Title: String?
        var ReportsTo: Int64?
        var BirthDate: Date?
        var HireDate: Date?
    }

    struct Customer: Codable, FetchableRecord, TableRecord {
        static let supportRep = belongsTo(Employee.self, key: "supportRep")
        static let invoices = hasMany(Invoice.self)
        var CustomerId: Int64
        var FirstName: String
        var LastName: String
        var PostalCode: String?
        var SupportRepId: Int64?
    }

    struct Invoice: Codable, FetchableRecord, TableRecord {
        static let customer = belongsTo(Customer.self)
        static let lines = hasMany(InvoiceLine.self)
        static let tracks = hasMany(Track.self, through: lines, using: InvoiceLine.track)
        var InvoiceId: Int64
        var CustomerId: Int64
        var InvoiceDate: Date
        var Total: Decimal
    }

    struct InvoiceLine: Codable, FetchableRecord, TableRecord {
        static let track = belongsTo(Track.self)
        var InvoiceLineId: Int64
        var InvoiceId: Int64
        var TrackId: Int64
        var UnitPrice: Double
        var Quantity: Int
    }

    @Test func theSchemaIsIntrospectedAsChinookDeclaresIt() throws {
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            #expect(try db.tableExists("album"))
            #expect(try db.tableExists("PLAYLISTTRACK"))
            let trackColumns = try db.columns(in: "Track")
            #expect(trackColumns.map(\.name) == [
                "TrackId", "Name", "AlbumId", "MediaTypeId", "GenreId", "Composer", "Milliseconds", "Bytes", "UnitPrice"])
            #expect(trackColumns.map(\.type) == [
                "INTEGER", "NVARCHAR(200)", "INTEGER", "INTEGER", "INTEGER", "NVARCHAR(220)", "INTEGER", "INTEGER", "NUMERIC(10,2)"])
            #expect(trackColumns.map(\.isNotNull) == [true, true, false, true, false, false, true, false, true])
            // A named PRIMARY KEY constraint on an INTEGER column aliases
            // the rowid.
            let albumKey = try db.primaryKey("Album")
            #expect(albumKey.columns == ["AlbumId"])
            #expect(albumKey.rowIDColumn == "AlbumId")
            #expect(try db.primaryKey("PlaylistTrack").columns == ["PlaylistId", "TrackId"])
            #expect(try db.primaryKey("PlaylistTrack").rowIDColumn == nil)
            #expect(try Set(db.foreignKeys(on: "Track").map(\.destinationTable)) == ["Album", "Genre", "MediaType"])
            let selfReference = try db.foreignKeys(on: "Employee")
            #expect(selfReference.map(\.destinationTable) == ["Employee"])
            #expect(selfReference.map(\.mapping.first?.origin) == ["ReportsTo"])
            #expect(try db.indexes(on: "Album").map(\.name).sorted() == ["IFK_AlbumArtistId", "IPK_Album"])
            #expect(try db.table("PlaylistTrack", hasUniqueKey: ["TrackId", "PlaylistId"]))
            #expect(try db.table("PlaylistTrack", hasUniqueKey: ["TrackId"]) == false)
            #expect(try db.table("Album", hasUniqueKey: ["AlbumId"]))

            for (_, name) in try file.schemaObjects(db) {
                let count = try Table(name).fetchCount(db)
                #expect(try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier)").count == count)
            }
        }
    }

    @Test func pricesAndDatesDecodeInEveryFormTheyCanTake() throws {
        struct Price: Decodable, FetchableRecord {
            var asDouble: Double
            var asDecimal: Decimal
            var asString: String
            var asOptionalString: String?
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            // NUMERIC(10,2) stores 0.99 as a real and 1.00 as the integer 1.
            #expect(try String.fetchAll(db, sql: "SELECT typeof(UnitPrice) FROM Track ORDER BY TrackId") == ["real", "real", "real", "integer"])
            let prices = try Price.fetchAll(db, sql: """
                SELECT UnitPrice AS asDouble, UnitPrice AS asDecimal, UnitPrice AS asString, UnitPrice AS asOptionalString
                FROM Track ORDER BY TrackId
                """)
            #expect(prices.map(\.asDouble) == [0.99, 0.99, 0.99, 1])
            #expect(prices.map(\.asDecimal) == [Decimal(string: "0.99"), Decimal(string: "0.99"), Decimal(string: "0.99"), 1])
            // As GRDB, a String reads the number as SQLite writes it.
            #expect(prices.map(\.asString) == ["0.99", "0.99", "0.99", "1"])
            #expect(prices.map(\.asOptionalString) == ["0.99", "0.99", "0.99", "1"])
            #expect(try String.fetchAll(db, sql: "SELECT Total FROM Invoice ORDER BY InvoiceId") == ["1.98", "3.96", "1"])

            let invoices = try Invoice.order(Column("InvoiceId")).fetchAll(db)
            #expect(invoices.map(\.Total) == [Decimal(string: "1.98"), Decimal(string: "3.96"), 1])
            #expect(invoices.map(\.InvoiceDate.timeIntervalSince1970) == [1230768000, 1230854400, 1234310400])
            // Reals add up as doubles, in SQLite as in Swift: a Decimal
            // read from their sum is the shortest text of that double.
            let sum = try #require(try Double.fetchOne(db, sql: "SELECT SUM(Total) FROM Invoice"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT SUM(Total) FROM Invoice") == Decimal(string: "\(sum)"))
            #expect(try Decimal.fetchOne(db, sql: "SELECT SUM(Total) FROM Invoice") == Decimal(string: "6.9399999999999995"))
            #expect(try Int.fetchOne(db, sql: "SELECT SUM(CAST(ROUND(Total * 100) AS INTEGER)) FROM Invoice") == 694)

            let nancy = try #require(try Employee.fetchOne(db, key: 2))
            #expect(nancy.BirthDate == Date(timeIntervalSince1970: -349228800))
            // A date filter compares the text as SQLite stores it.
            let january = try Invoice
                .filter(Column("InvoiceDate") >= "2009-01-01" && Column("InvoiceDate") < "2009-02-01")
                .fetchCount(db)
            #expect(january == 2)
        }
    }

    @Test func associationsAreInferredFromTheForeignKeys() throws {
        struct AlbumInfo: Decodable, FetchableRecord {
            var album: Album
            var artist: Artist
            var tracks: [Track]
        }
        struct EmployeeInfo: Decodable, FetchableRecord {
            var employee: Employee
            var manager: Employee?
            var reports: [Employee]
        }
        struct InvoiceInfo: Decodable, FetchableRecord {
            var invoice: Invoice
            var customer: Customer
            var tracks: [Track]
        }
        let file = try RealDatabaseFile(Self.script)
        try file.open().read { db in
            let albums = try Album
                .including(required: Album.artist)
                .including(all: Album.tracks.order(Column("TrackId")))
                .order(Column("AlbumId"))
                .asRequest(of: AlbumInfo.self)
                .fetchAll(db)
            #expect(albums.map(\.artist.Name) == ["AC/DC", "Accept", "Accept"])
            #expect(albums.map { $0.tracks.map(\.TrackId) } == [[1, 4], [2], [3]])
            let counts = try Row.fetchAll(db, Artist.annotated(with: Artist.albums.count).order(Column("ArtistId")))
            #expect(counts.map { $0["albumCount"] as Int } == [1, 2, 0])

            let music = try Playlist.filter(key: 1).including(all: Playlist.tracks.order(Column("TrackId")))
                .asRequest(of: Row.self).fetchOne(db)
            #expect(music?.prefetchedRows["tracks"]?.map { $0["TrackId"] as Int64 } == [1, 2, 3])
            let trackCounts = try Row.fetchAll(db, Playlist.annotated(with: Playlist.tracks.count).order(Column("PlaylistId")))
            #expect(trackCounts.map { $0["trackCount"] as Int } == [3, 0])

            let staff = try Employee
                .including(optional: Employee.manager)
                .including(all: Employee.reports)
                .order(Column("EmployeeId"))
                .asRequest(of: EmployeeInfo.self)
                .fetchAll(db)
            #expect(staff.map { $0.manager?.FirstName } == [nil, "Andrew", "Nancy"])
            #expect(staff.map { $0.reports.map(\.FirstName) } == [["Nancy"], ["Jane"], []])
            let jane = try #require(try Employee.fetchOne(db, key: 3))
            #expect(try jane.request(for: Employee.customers).fetchCount(db) == 2)
            #expect(try jane.request(for: Employee.manager).fetchOne(db)?.LastName == "Edwards")

            let invoices = try Invoice
                .including(required: Invoice.customer.including(optional: Customer.supportRep))
                .including(all: Invoice.tracks.order(Column("TrackId")))
                .order(Column("InvoiceId"))
                .asRequest(of: InvoiceInfo.self)
                .fetchAll(db)
            #expect(invoices.map(\.customer.LastName) == ["Köhler", "Gonçalves", "Köhler"])
            #expect(invoices.map { $0.tracks.map(\.TrackId) } == [[1, 2], [3], [4]])
            let rockTracks = try Track.joining(required: Track.genre.filter(Column("Name") == "Rock")).fetchCount(db)
            #expect(rockTracks == 3)
        }
    }

    @Test func aJoinTableWithACompositeKeyIsWritten() throws {
        let file = try RealDatabaseFile(Self.script)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            try PlaylistTrack(PlaylistId: 2, TrackId: 4).insert(db)
            #expect(try PlaylistTrack(PlaylistId: 2, TrackId: 4).exists(db))
            try PlaylistTrack(PlaylistId: 2, TrackId: 1).save(db)
            try PlaylistTrack(PlaylistId: 2, TrackId: 1).upsert(db)
            #expect(try PlaylistTrack.fetchOne(db, key: ["PlaylistId": 2, "TrackId": 1]) == PlaylistTrack(PlaylistId: 2, TrackId: 1))
            #expect(try PlaylistTrack.deleteOne(db, key: ["PlaylistId": 2, "TrackId": 4]))
            #expect(try PlaylistTrack(PlaylistId: 2, TrackId: 1).delete(db))
            #expect(try PlaylistTrack.filter(Column("PlaylistId") == 2).fetchCount(db) == 0)
            // Foreign keys are enforced on this connection: a track that is
            // not there is refused.
            let error = #expect(throws: DatabaseError.self) { try PlaylistTrack(PlaylistId: 1, TrackId: 99).insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)

            var album = Album(AlbumId: 4, Title: "Let There Be Rock", ArtistId: 1)
            try album.insert(db)
            try album.updateChanges(db) { $0.Title = "Let There Be Rock (Live)" }
            #expect(try Album.fetchOne(db, key: 4)?.Title == "Let There Be Rock (Live)")
            #expect(try Album.deleteOne(db, key: 4))
        }
    }

    @Test func aMigratorUpgradesTheExistingFile() throws {
        let file = try RealDatabaseFile(Self.script)
        var registered = DatabaseMigrator()
        registered.registerMigration("addRating") { db in
            try db.alter(table: "Track") { t in t.add(column: "Rating", .integer).notNull().defaults(to: 0) }
            try db.create(index: "Track_on_Rating", on: "Track", columns: ["Rating"])
        }
        registered.registerMigration("addFavorite") { db in
            try db.create(table: "Favorite") { t in
                t.autoIncrementedPrimaryKey("id")
                t.belongsTo("Track", onDelete: .cascade).notNull()
            }
        }
        let dbQueue = try file.open()
        let migrator = registered
        #expect(try dbQueue.read { db in try migrator.hasCompletedMigrations(db) } == false)
        try migrator.migrate(dbQueue)
        try dbQueue.read { (db: Database) throws in
            #expect(try migrator.appliedMigrations(db) == ["addRating", "addFavorite"])
            #expect(try db.tableExists("grdb_migrations"))
            #expect(try Int.fetchAll(db, sql: "SELECT Rating FROM Track") == [0, 0, 0, 0])
            #expect(try Track.fetchCount(db) == 4)
            #expect(try db.foreignKeys(on: "Favorite").map(\.destinationTable) == ["Track"])
            #expect(try db.foreignKeys(on: "Favorite").map(\.destinationColumns) == [["TrackId"]])
        }
        // Migrating again does nothing; the file keeps its tables.
        try migrator.migrate(dbQueue)
        try dbQueue.close()
        try file.open().read { (db: Database) throws in
            #expect(try migrator.completedMigrations(db) == ["addRating", "addFavorite"])
            #expect(try Artist.fetchCount(db) == 3)
        }
    }
}

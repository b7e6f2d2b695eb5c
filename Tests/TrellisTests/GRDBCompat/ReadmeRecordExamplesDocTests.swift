import Foundation
import Testing
import Trellis

// GRDB's README, "Examples of Record Definitions", "The `databaseChanges`
// and `hasDatabaseChanges` Methods", the introduction of "The Query
// Interface" and the samples of "SQL Functions" not run elsewhere: each
// sample run as written, with the values and SQL the README shows.
//
// `CLLocationCoordinate2D` and `CLLocationDegrees` come from CoreLocation,
// which is not on every platform: a local type with the same members
// stands for them.

private typealias CLLocationDegrees = Double

private struct CLLocationCoordinate2D: Equatable {
    var latitude: CLLocationDegrees
    var longitude: CLLocationDegrees
}

private func createPlaceTable(_ db: Database) throws {
    try db.create(table: "place") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("title", .text).notNull()
        t.column("isFavorite", .boolean).notNull().defaults(to: false)
        t.column("longitude", .double).notNull()
        t.column("latitude", .double).notNull()
    }
}

// MARK: - Define a Codable struct, and adopt the record protocols you need

private struct CodablePlace: Codable {
    static let databaseTableName = "place"
    var id: Int64?
    var title: String
    var isFavorite: Bool
    private var latitude: CLLocationDegrees
    private var longitude: CLLocationDegrees

    init(id: Int64?, title: String, isFavorite: Bool, coordinate: CLLocationCoordinate2D) {
        self.id = id
        self.title = title
        self.isFavorite = isFavorite
        self.latitude = coordinate.latitude
        self.longitude = coordinate.longitude
    }

    var coordinate: CLLocationCoordinate2D {
        get {
            CLLocationCoordinate2D(
                latitude: latitude,
                longitude: longitude)
        }
        set {
            latitude = newValue.latitude
            longitude = newValue.longitude
        }
    }
}

// SQL generation
extension CodablePlace: TableRecord {
    /// The table columns
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let isFavorite = Column(CodingKeys.isFavorite)
        static let latitude = Column(CodingKeys.latitude)
        static let longitude = Column(CodingKeys.longitude)
    }
}

// Fetching methods
extension CodablePlace: FetchableRecord { }

// Persistence methods
extension CodablePlace: MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: - Define a plain struct, and adopt the record protocols you need

private struct PlainPlace {
    static let databaseTableName = "place"
    var id: Int64?
    var title: String
    var isFavorite: Bool
    var coordinate: CLLocationCoordinate2D
}

// SQL generation
extension PlainPlace: TableRecord {
    /// The table columns
    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let isFavorite = Column("isFavorite")
        static let latitude = Column("latitude")
        static let longitude = Column("longitude")
    }
}

// Fetching methods
extension PlainPlace: FetchableRecord {
    /// Creates a record from a database row
    init(row: Row) {
        id = row[Columns.id]
        title = row[Columns.title]
        isFavorite = row[Columns.isFavorite]
        coordinate = CLLocationCoordinate2D(
            latitude: row[Columns.latitude],
            longitude: row[Columns.longitude])
    }
}

// Persistence methods
extension PlainPlace: MutablePersistableRecord {
    /// The values persisted in the database
    func encode(to container: inout PersistenceContainer) {
        container[Columns.id] = id
        container[Columns.title] = title
        container[Columns.isFavorite] = isFavorite
        container[Columns.latitude] = coordinate.latitude
        container[Columns.longitude] = coordinate.longitude
    }

    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: - Define a plain struct optimized for fetching performance

private struct FastPlace: Encodable {
    static let databaseTableName = "place"
    var id: Int64?
    var title: String
    var isFavorite: Bool
    private var latitude: CLLocationDegrees
    private var longitude: CLLocationDegrees

    init(id: Int64?, title: String, isFavorite: Bool, coordinate: CLLocationCoordinate2D) {
        self.id = id
        self.title = title
        self.isFavorite = isFavorite
        self.latitude = coordinate.latitude
        self.longitude = coordinate.longitude
    }

    var coordinate: CLLocationCoordinate2D {
        get {
            CLLocationCoordinate2D(
                latitude: latitude,
                longitude: longitude)
        }
        set {
            latitude = newValue.latitude
            longitude = newValue.longitude
        }
    }
}

// SQL generation
extension FastPlace: TableRecord {
    /// The table columns
    enum Columns {
        static let id = Column(CodingKeys.id)
        static let title = Column(CodingKeys.title)
        static let isFavorite = Column(CodingKeys.isFavorite)
        static let latitude = Column(CodingKeys.latitude)
        static let longitude = Column(CodingKeys.longitude)
    }

    /// Arrange the selected columns and lock their order
    static var databaseSelection: [any SQLSelectable] {
        [
            Columns.id,
            Columns.title,
            Columns.isFavorite,
            Columns.latitude,
            Columns.longitude,
        ]
    }
}

// Fetching methods
extension FastPlace: FetchableRecord {
    /// Creates a record from a database row
    init(row: Row) {
        // For high performance, use numeric indexes that match the
        // order of Place.databaseSelection
        id = row[0]
        title = row[1]
        isFavorite = row[2]
        latitude = row[3]
        longitude = row[4]
    }
}

// Persistence methods
extension FastPlace: MutablePersistableRecord {
    // Update auto-incremented id upon successful insertion
    mutating func didInsert(_ inserted: InsertionSuccess) {
        id = inserted.rowID
    }
}

// MARK: - Players

private struct Player: Codable, FetchableRecord, PersistableRecord, Identifiable {
    var id: Int64
    var name: String
    var score: Int
    var team: String = "Reds"

    enum Columns {
        static let id = Column(CodingKeys.id)
        static let name = Column(CodingKeys.name)
        static let score = Column(CodingKeys.score)
        static let team = Column(CodingKeys.team)
    }
}

@Suite struct ReadmeRecordExamplesDocTests {
    private let paris = CLLocationCoordinate2D(latitude: 48.8534, longitude: 2.3488)
    private let lyon = CLLocationCoordinate2D(latitude: 45.75, longitude: 4.85)

    private func placeRows(_ db: Database) throws -> [[DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT id, title, isFavorite, latitude, longitude FROM place ORDER BY id")
            .map { Array($0.databaseValues) }
    }

    @Test func codableRecordDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try createPlaceTable(db)
            var place = CodablePlace(id: nil, title: "Paris", isFavorite: true, coordinate: paris)
            try place.insert(db)
            #expect(place.id == 1)
            place.coordinate = lyon
            try place.update(db)
            let fetched = try #require(try CodablePlace.fetchOne(db, key: 1))
            #expect(fetched.coordinate == lyon)
            #expect(fetched.title == "Paris")
            #expect(try CodablePlace.filter { $0.isFavorite }.fetchCount(db) == 1)
            #expect(try placeRows(db) == [[1.databaseValue, "Paris".databaseValue, true.databaseValue, 45.75.databaseValue, 4.85.databaseValue]])
        }
    }

    @Test func plainRecordDefinition() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try createPlaceTable(db)
            var place = PlainPlace(id: nil, title: "Paris", isFavorite: false, coordinate: paris)
            try place.insert(db)
            #expect(place.id == 1)
            var other = PlainPlace(id: nil, title: "Lyon", isFavorite: true, coordinate: lyon)
            try other.save(db)
            #expect(other.id == 2)
            let places = try PlainPlace.order(PlainPlace.Columns.title).fetchAll(db)
            #expect(places.map(\.title) == ["Lyon", "Paris"])
            #expect(places.map(\.coordinate) == [lyon, paris])
            #expect(try PlainPlace.filter(PlainPlace.Columns.latitude > 46).fetchAll(db).map(\.id) == [1])
        }
    }

    @Test func recordDefinitionOptimizedForFetching() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            try createPlaceTable(db)
            // The columns of the table come in another order than the
            // selection of the record.
            var place = FastPlace(id: nil, title: "Paris", isFavorite: true, coordinate: paris)
            try place.insert(db)
            #expect(place.id == 1)
            let request = FastPlace.all()
            let sql = try request.makePreparedRequest(db).statement.sql
            #expect(sql == #"SELECT "id", "title", "isFavorite", "latitude", "longitude" FROM "place""#)
            let fetched = try #require(try request.fetchOne(db))
            #expect(fetched.coordinate == paris)
            #expect(fetched.isFavorite)
            #expect(fetched.title == "Paris")
        }
    }

    // MARK: Record Comparison

    @Test func databaseChangesAndHasDatabaseChanges() throws {
        let oldPlayer = Player(id: 1, name: "Arthur", score: 100)
        let newPlayer = Player(id: 1, name: "Arthur", score: 1000)
        var printed: [String] = []
        for (column, oldValue) in try newPlayer.databaseChanges(from: oldPlayer) {
            printed.append("\(column) was \(oldValue)")
        }
        // prints "score was 100"
        #expect(printed == ["score was 100"])
        #expect(try newPlayer.databaseChanges(from: newPlayer).isEmpty)
        #expect(newPlayer.databaseEquals(oldPlayer) == false)
        #expect(newPlayer.databaseEquals(newPlayer))
    }

    // MARK: The Query Interface

    @Test func theIntroductionOfTheQueryInterface() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            // Update database schema
            try db.create(table: "player") { t in
                t.primaryKey("id", .integer)
                t.column("name", .text).notNull()
                t.column("score", .integer).notNull()
                t.column("team", .text).notNull()
            }
            try Player(id: 1, name: "Arthur", score: 1000).insert(db)
            try Player(id: 2, name: "Barbara", score: 0, team: "Blues").insert(db)
            try Player(id: 3, name: "Craig", score: 2000, team: "Blues").insert(db)
            try Player(id: 4, name: "David", score: 0).insert(db)

            // Fetch records
            let bestPlayers = try Player
                .order(\.score.desc)
                .limit(10)
                .fetchAll(db)
            #expect(bestPlayers.map(\.id).prefix(2) == [3, 1])

            // Count
            let count = try Player
                .filter { $0.score >= 1000 }
                .fetchCount(db)
            #expect(count == 2)

            // Batch update
            try Player
                .filter { $0.team == "Reds" }
                .updateAll(db) { $0.score += 100 }
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [1100, 0, 2000, 100])

            // Batch delete
            try Player
                .filter { $0.score == 0 }
                .deleteAll(db)
            #expect(try Int64.fetchAll(db, sql: "SELECT id FROM player ORDER BY id") == [1, 3, 4])
        }
    }

    @Test func theIntroductionOfTheQueryInterfaceWithSQL() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db throws in
            // Update database schema (with SQL)
            try db.execute(sql: "CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL, team TEXT NOT NULL)")
            try Player(id: 1, name: "Arthur", score: 1000).insert(db)
            try Player(id: 2, name: "Barbara", score: 0, team: "Blues").insert(db)
            try Player(id: 3, name: "Craig", score: 2000, team: "Blues").insert(db)

            // Fetch records (with SQL)
            let bestPlayers = try Player.fetchAll(db, sql: """
                SELECT * FROM player ORDER BY score DESC LIMIT 10
                """)
            #expect(bestPlayers.map(\.id) == [3, 1, 2])

            // Count (with an SQL snippet)
            let minScore = 1000
            let count = try Player
                .filter(sql: "score >= ?", arguments: [minScore])
                .fetchCount(db)
            #expect(count == 2)

            // Update (with SQL)
            try db.execute(sql: "UPDATE player SET score = score + 100 WHERE team = 'Reds'")
            // Delete (with SQL)
            try db.execute(sql: "DELETE FROM player WHERE score = 0")
            #expect(try Int.fetchAll(db, sql: "SELECT score FROM player ORDER BY id") == [1100, 2000])
        }
    }
}

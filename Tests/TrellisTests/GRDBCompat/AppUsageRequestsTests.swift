import Foundation
import Testing
import Trellis

// Request helpers that application layers add in extensions of the request
// protocols, and the expressions they keep in static properties: filters on
// `DerivableRequest` constrained to a record, raw orderings, helpers on
// `FetchRequest` for identifiable records, ids filtered through a collection
// existential, assignments built from (column, value) pairs, and
// collations, patterns and negations in filters.

private struct Track: Codable, FetchableRecord, PersistableRecord, Identifiable, Equatable {
    var id: Int64
    var title: String
    var queuePosition: Int?
    var fileName: String?
    var keep: Bool
    var playedSeconds: Double

    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
        static let queuePosition = Column("queuePosition")
        static let fileName = Column("fileName")
        static let keep = Column("keep")
        static let playedSeconds = Column("playedSeconds")
    }

    static let queued: SQLExpression = Columns.queuePosition != nil
    static let unqueued: SQLExpression = Columns.queuePosition == nil
    static let downloaded: SQLExpression = Columns.fileName != nil
    static let kept: SQLExpression = downloaded && Columns.keep == true
    static let started: SQLExpression = Columns.playedSeconds > 0

    static func titled(like pattern: String) -> SQLExpression {
        Columns.title.lowercased.like(pattern)
    }

    var updatableColumns: [(any ColumnExpression, any SQLExpressible)] {
        [
            (Columns.title, title),
            (Columns.fileName, fileName),
            (Columns.playedSeconds, playedSeconds),
        ]
    }
}

extension DerivableRequest<Track> {
    fileprivate func queued() -> Self { filter(Track.queued) }
    fileprivate func downloaded() -> Self { filter(Track.downloaded) }
}

extension DerivableRequest {
    fileprivate func newestFirst() -> Self { order(sql: "rowid DESC") }
}

extension FetchRequest where RowDecoder: FetchableRecord & Identifiable {
    fileprivate func fetchByID(_ db: Database) throws -> [RowDecoder.ID: RowDecoder] {
        Dictionary(uniqueKeysWithValues: try fetchAll(db).map { ($0.id, $0) })
    }
}

extension TableRecord where Self: Identifiable, Self.ID: DatabaseValueConvertible {
    fileprivate static func withIDs(_ ids: any Collection<ID>) -> QueryInterfaceRequest<Self> {
        filter(ids.contains(Column("id")))
    }

    fileprivate static func withID(_ id: ID) -> QueryInterfaceRequest<Self> {
        filter(id: id)
    }
}

private func makeTrackQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "track") { t in
            t.primaryKey("id", .integer)
            t.column("title", .text).notNull()
            t.column("queuePosition", .integer)
            t.column("fileName", .text)
            t.column("keep", .boolean).notNull().defaults(to: false)
            t.column("playedSeconds", .double).notNull().defaults(to: 0)
        }
        try Track(id: 1, title: "Alpha Song", queuePosition: 2, fileName: "a.mp3", keep: true, playedSeconds: 0).insert(db)
        try Track(id: 2, title: "beta", queuePosition: nil, fileName: "b.mp3", keep: false, playedSeconds: 3).insert(db)
        try Track(id: 3, title: "Gamma song", queuePosition: 1, fileName: nil, keep: true, playedSeconds: 1).insert(db)
    }
    return dbQueue
}

@Suite("App usage: request helpers")
struct AppUsageRequestsTests {
    @Test("Filters kept in static expressions, and request extensions constrained to a record")
    func staticExpressionsAndExtensions() throws {
        let dbQueue = try makeTrackQueue()
        let (queued, queuedDownloaded, kept, unqueuedStarted, songs, noFilter) = try dbQueue.read { db in
            (
                try Track.all().queued().order(Track.Columns.queuePosition).fetchAll(db),
                try Track.all().queued().downloaded().fetchAll(db),
                try Track.filter(Track.kept).fetchAll(db),
                try Track.filter(Track.unqueued).filter(Track.started).fetchAll(db),
                try Track.filter(Track.titled(like: "%song%")).newestFirst().fetchAll(db),
                try Track.filter(true.sqlExpression).fetchCount(db)
            )
        }
        #expect(queued.map(\.id) == [3, 1])
        #expect(queuedDownloaded.map(\.id) == [1])
        #expect(kept.map(\.id) == [1])
        #expect(unqueuedStarted.map(\.id) == [2])
        #expect(songs.map(\.id) == [3, 1])
        #expect(noFilter == 3)
    }

    @Test("Ids filtered through an existential collection, and a fetch helper keyed by id")
    func idsThroughExistential() throws {
        let dbQueue = try makeTrackQueue()
        let ids: any Collection<Int64> = Set([1, 3])
        let byID = try dbQueue.read { db in try Track.withIDs(ids).fetchByID(db) }
        #expect(byID.keys.sorted() == [1, 3])
        #expect(byID[3]?.title == "Gamma song")
        let empty: any Collection<Int64> = [Int64]()
        #expect(try dbQueue.read { db in try Track.withIDs(empty).fetchCount(db) } == 0)
        #expect(try dbQueue.read { db in try Track.withID(2).fetchOne(db) }?.title == "beta")
    }

    @Test("Assignments built from (column, value) pairs update only the matching rows")
    func assignmentsFromPairs() throws {
        let dbQueue = try makeTrackQueue()
        var edited = try #require(try dbQueue.read { db in try Track.fetchOne(db, id: 2) })
        edited.title = "Beta (remastered)"
        edited.fileName = nil
        edited.playedSeconds = 0
        let changes = edited.updatableColumns.map { column, value in column.set(to: value) }
        let count = try dbQueue.write { db in try Track.filter(id: edited.id).updateAll(db, changes) }
        #expect(count == 1)
        let stored = try dbQueue.read { db in try Track.fetchAll(db) }
        #expect(stored.map(\.title) == ["Alpha Song", "Beta (remastered)", "Gamma song"])
        #expect(stored[1].fileName == nil)
        #expect(stored[1].playedSeconds == 0)
    }

    @Test("Collated orderings, negated patterns and membership in an array of values")
    func collationsPatternsMembership() throws {
        let dbQueue = try makeTrackQueue()
        let (byTitle, nocase, notSongs, chosen, names, distinctKeep) = try dbQueue.read { db in
            (
                try Track.order(Track.Columns.title.collating(.localizedCaseInsensitiveCompare).asc).fetchAll(db),
                try Track.order(Track.Columns.title.collating(.nocase)).fetchAll(db),
                try Track.filter(!Track.Columns.title.like("%song")).fetchAll(db),
                try Track.filter([Int64(2), 3].contains(Track.Columns.id)).fetchAll(db),
                try Track.select(Track.Columns.title, as: String.self).order(Track.Columns.id).fetchAll(db),
                try Track.select(Track.Columns.keep, as: Bool.self).distinct().fetchSet(db)
            )
        }
        #expect(byTitle.map(\.id) == [1, 2, 3])
        #expect(nocase.map(\.id) == [1, 2, 3])
        #expect(notSongs.map(\.id) == [2])
        #expect(chosen.map(\.id) == [2, 3])
        #expect(names == ["Alpha Song", "beta", "Gamma song"])
        #expect(distinctKeep == [true, false])
    }
}

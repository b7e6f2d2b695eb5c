import Foundation
import Testing
import Trellis

// Joins that application layers build beyond the documented one-liners: the
// latest row of each group through a common table expression joined on a
// condition written with table aliases' dynamic members, has-many-through
// associations with an explicit key and an ordering by key path, and
// correlated subqueries on a named generic table alias.

private struct Thread: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: String
    var title: String

    enum Columns {
        static let id = Column("id")
        static let title = Column("title")
    }

    static let participations = hasMany(Participation.self)
    static let people: HasManyThroughAssociation<Thread, Person> = hasMany(
        Person.self, through: participations, using: Participation.person, key: "threadPeople"
    ).order(\.name)

    static let latestPostRequest: QueryInterfaceRequest<Post> = Post
        .annotated { max($0.sentAt) }
        .group(\.threadId)

    static let latestPostCTE = CommonTableExpression<Post>(named: "threadLatestPost", request: latestPostRequest)
}

private struct Participation: Codable, FetchableRecord, PersistableRecord, Hashable {
    var threadId: String
    var personId: Int64

    static let person = belongsTo(Person.self)
}

private struct Person: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: Int64
    var name: String

    enum Columns {
        static let id = Column("id")
        static let name = Column("name")
    }
}

private struct Post: Codable, FetchableRecord, PersistableRecord, Hashable {
    var id: Int64
    var threadId: String
    var sentAt: Int
    var text: String

    enum Columns {
        static let id = Column("id")
        static let threadId = Column("threadId")
        static let sentAt = Column("sentAt")
        static let text = Column("text")
    }
}

private struct ThreadDetails: Decodable, FetchableRecord, Equatable {
    var thread: Thread
    var threadPeople: [Person]
    var threadLatestPost: Post?
}

private func makeThreadQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "thread") { t in
            t.primaryKey("id", .text)
            t.column("title", .text).notNull()
        }
        try db.create(table: "person") { t in
            t.primaryKey("id", .integer)
            t.column("name", .text).notNull()
        }
        try db.create(table: "participation") { t in
            t.belongsTo("thread").notNull()
            t.belongsTo("person").notNull()
            t.primaryKey(["threadId", "personId"])
        }
        try db.create(table: "post") { t in
            t.primaryKey("id", .integer)
            t.belongsTo("thread").notNull()
            t.column("sentAt", .integer).notNull()
            t.column("text", .text).notNull()
        }
        try Thread(id: "t1", title: "Trip").insert(db)
        try Thread(id: "t2", title: "Quiet").insert(db)
        try Thread(id: "draft-1", title: "Draft").insert(db)
        try Person(id: 1, name: "Zoe").insert(db)
        try Person(id: 2, name: "Adam").insert(db)
        try Participation(threadId: "t1", personId: 1).insert(db)
        try Participation(threadId: "t1", personId: 2).insert(db)
        try Participation(threadId: "t2", personId: 1).insert(db)
        try Post(id: 1, threadId: "t1", sentAt: 10, text: "old").insert(db)
        try Post(id: 2, threadId: "t1", sentAt: 30, text: "newest").insert(db)
        try Post(id: 3, threadId: "t1", sentAt: 20, text: "middle").insert(db)
    }
    return dbQueue
}

@Suite("App usage: joins")
struct AppUsageJoinsTests {
    @Test("The latest post of each thread, through a CTE joined on a condition on aliases' dynamic members")
    func latestRowThroughCTE() throws {
        let dbQueue = try makeThreadQueue()
        let latestPost = Thread.association(
            to: Thread.latestPostCTE,
            on: { thread, post in thread.id == post.threadId }
        ).forKey("threadLatestPost")
        let details = try dbQueue.read { db in
            try Thread
                .filter(!Column("id").like("draft-%"))
                .including(all: Thread.people)
                .with(Thread.latestPostCTE)
                .including(optional: latestPost)
                .order(Thread.Columns.id)
                .asRequest(of: ThreadDetails.self)
                .fetchAll(db)
        }
        #expect(details.map(\.thread.id) == ["t1", "t2"])
        #expect(details[0].threadLatestPost?.text == "newest")
        #expect(details[1].threadLatestPost == nil)
        #expect(details[0].threadPeople.map(\.name) == ["Adam", "Zoe"])
        #expect(details[1].threadPeople.map(\.name) == ["Zoe"])
    }

    @Test("A has-many-through association with a key path ordering orders its requests and its includes")
    func throughWithKeyPathOrdering() throws {
        let dbQueue = try makeThreadQueue()
        let (names, includedKeys) = try dbQueue.read { db in
            let thread = try Thread.find(db, key: "t1")
            let names = try thread.request(for: Thread.people).fetchAll(db).map(\.name)
            let row = try Row.fetchOne(db, Thread.filter(key: "t1").including(all: Thread.people))
            return (names, row.map { Array($0.prefetchedRows.keys) } ?? [])
        }
        #expect(names == ["Adam", "Zoe"])
        #expect(includedKeys == ["threadPeople"])
    }

    @Test("A correlated subquery on a named generic table alias counts the rows of each origin")
    func correlatedSubqueryOnGenericAlias() throws {
        let dbQueue = try makeThreadQueue()
        let threadAlias = TableAlias<Thread>(name: "t")
        let postCount = Post.filter(Post.Columns.threadId == threadAlias[Thread.Columns.id]).select(count(Post.Columns.id))
        let rows = try dbQueue.read { db in
            try Thread
                .aliased(threadAlias)
                .annotated(with: postCount.sqlExpression.forKey("postCount"))
                .order(threadAlias[Thread.Columns.title])
                .asRequest(of: Row.self)
                .fetchAll(db)
        }
        #expect(rows.map { $0["title"] as String } == ["Draft", "Quiet", "Trip"])
        #expect(rows.map { $0["postCount"] as Int } == [0, 0, 3])
    }

    @Test("A key path ordering and a closure filter on a record's request")
    func keyPathOrderingOnRequest() throws {
        let dbQueue = try makeThreadQueue()
        let texts = try dbQueue.read { db in
            try Post.filter { $0.sentAt >= 20 }.order(\.sentAt.desc).fetchAll(db).map(\.text)
        }
        #expect(texts == ["newest", "middle"])
    }
}

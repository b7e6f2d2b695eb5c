import Foundation
import Testing
import Trellis

// Associations between rows of one table, and several associations to one
// table, as application schemas need them: folders with their parent and
// children, messages with a sender and a recipient, columns of the same
// name on both sides of a join, and aggregates used as filters.

private struct Folder: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var parentId: Int64?
    var name: String

    static let parent = belongsTo(Folder.self, key: "parent", using: ForeignKey(["parentId"]))
    static let children = hasMany(Folder.self, key: "children", using: ForeignKey(["parentId"]))
}

private struct FolderInfo: Decodable, FetchableRecord, Equatable {
    var folder: Folder
    var parent: Folder?
    var children: [Folder]
}

private struct Member: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var name: String
}

private struct Note: Codable, FetchableRecord, PersistableRecord, Equatable {
    var id: Int64
    var senderId: Int64
    var recipientId: Int64?
    var name: String

    static let sender = belongsTo(Member.self, key: "sender", using: ForeignKey(["senderId"]))
    static let recipient = belongsTo(Member.self, key: "recipient", using: ForeignKey(["recipientId"]))
}

private struct NoteInfo: Decodable, FetchableRecord, Equatable {
    var note: Note
    var sender: Member
    var recipient: Member?
}

private func makeQueue() throws -> DatabaseQueue {
    let dbQueue = try DatabaseQueue()
    try dbQueue.write { db in
        try db.create(table: "folder") { t in
            t.primaryKey("id", .integer)
            t.belongsTo("parent", inTable: "folder", onDelete: .cascade)
            t.column("name", .text).notNull()
        }
        try db.create(table: "member") { t in
            t.primaryKey("id", .integer)
            t.column("name", .text).notNull()
        }
        try db.create(table: "note") { t in
            t.primaryKey("id", .integer)
            t.belongsTo("sender", inTable: "member").notNull()
            t.belongsTo("recipient", inTable: "member")
            t.column("name", .text).notNull()
        }
        try Folder(id: 1, parentId: nil, name: "root").insert(db)
        try Folder(id: 2, parentId: 1, name: "docs").insert(db)
        try Folder(id: 3, parentId: 1, name: "pics").insert(db)
        try Folder(id: 4, parentId: 2, name: "taxes").insert(db)
        try Member(id: 1, name: "ann").insert(db)
        try Member(id: 2, name: "bob").insert(db)
        try Note(id: 1, senderId: 1, recipientId: 2, name: "hello").insert(db)
        try Note(id: 2, senderId: 2, recipientId: nil, name: "draft").insert(db)
        try Note(id: 3, senderId: 2, recipientId: 1, name: "reply").insert(db)
    }
    return dbQueue
}

@Suite("App usage: self joins and several joins to one table")
struct AppUsageSelfJoinsTests {
    @Test("Folders with their parent and children, from one table")
    func foldersWithParentAndChildren() throws {
        let dbQueue = try makeQueue()
        let infos = try dbQueue.read { db in
            try Folder
                .including(optional: Folder.parent)
                .including(all: Folder.children.order(Column("name")))
                .order(Column("id"))
                .asRequest(of: FolderInfo.self)
                .fetchAll(db)
        }
        #expect(infos.map(\.folder.name) == ["root", "docs", "pics", "taxes"])
        #expect(infos.map(\.parent?.name) == [nil, "root", "root", "docs"])
        #expect(infos.map { $0.children.map(\.name) } == [["docs", "pics"], ["taxes"], [], []])
    }

    @Test("Filters and orderings on a self join qualify columns of the base table")
    func qualifiedColumnsOnSelfJoin() throws {
        let dbQueue = try makeQueue()
        let names = try dbQueue.read { db in
            try Folder
                .joining(required: Folder.parent.filter(Column("name") == "root"))
                .filter(Column("name") != "pics")
                .order(Column("name").desc)
                .fetchAll(db)
                .map(\.name)
        }
        #expect(names == ["docs"])
    }

    @Test("A sender and a recipient from the same table, with filters on each and on the base")
    func senderAndRecipient() throws {
        let dbQueue = try makeQueue()
        let (infos, toAnn, withRecipient) = try dbQueue.read { db in
            (
                try Note
                    .including(required: Note.sender)
                    .including(optional: Note.recipient)
                    .order(Column("id"))
                    .asRequest(of: NoteInfo.self)
                    .fetchAll(db),
                try Note
                    .joining(required: Note.recipient.filter(Column("name") == "ann"))
                    .filter(Column("name") != "hello")
                    .fetchAll(db)
                    .map(\.name),
                try Note
                    .joining(required: Note.sender.filter(Column("name") == "bob"))
                    .joining(required: Note.recipient)
                    .fetchAll(db)
                    .map(\.name)
            )
        }
        #expect(infos.map(\.sender.name) == ["ann", "bob", "bob"])
        #expect(infos.map(\.recipient?.name) == ["bob", nil, "ann"])
        #expect(toAnn == ["reply"])
        #expect(withRecipient == ["reply"])
    }

    @Test("Aggregates of a to-many association used as filters and orderings")
    func aggregatesAsFilters() throws {
        let dbQueue = try makeQueue()
        let (leaves, parents, byChildCount) = try dbQueue.read { db in
            (
                try Folder.having(Folder.children.isEmpty).order(Column("id")).fetchAll(db).map(\.name),
                try Folder.having(Folder.children.count >= 1).order(Column("id")).fetchAll(db).map(\.name),
                try Folder.annotated(with: Folder.children.count).order(Folder.children.count.desc, Column("id")).fetchAll(db).map(\.name)
            )
        }
        #expect(leaves == ["pics", "taxes"])
        #expect(parents == ["root", "docs"])
        #expect(byChildCount == ["root", "docs", "pics", "taxes"])
    }
}

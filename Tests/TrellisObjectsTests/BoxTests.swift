import Foundation
import Testing
import Trellis
import TrellisObjects

private final class Author: Entity {
    static let backlinks = ["books": "author"]
    var id: Id = 0
    var name = ""
    var birthYear: Int?
    var books: ToMany<Book> = nil
}

private final class Book: Entity {
    static let deleteRules: [String: DeleteRule] = ["author": .cascade, "editor": .nullify]
    var id: Id = 0
    var title = ""
    var author: ToOne<Author> = nil
    var editor: ToOne<Editor> = nil
    var tags: ToMany<Tag> = nil
}

private final class Editor: Entity {
    static let deleteRules: [String: DeleteRule] = [:]
    var id: Id = 0
    var name = ""
}

private final class Tag: Entity {
    static let backlinks = ["books": "tags"]
    var id: Id = 0
    var label = ""
    var books: ToMany<Book> = nil
}

/// An entity whose encoding leaves out a column when it has no value: the
/// objects of one box do not all have the same columns.
private struct Sticker: Entity, Codable {
    var id: Id = 0
    var text = ""
    var color: String?

    enum CodingKeys: String, CodingKey { case id, text, color }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encode(text, forKey: .text)
        if let color { try container.encode(color, forKey: .color) }
    }
}

/// An entity that declares its id after another property.
private final class Note: Entity {
    var text = ""
    var id: Id = 0
}

private final class Employee: Entity {
    var id: Id = 0
    var name = ""
    var manager: ToOne<Employee> = nil
    var reports: ToMany<Employee> = nil
}

private final class Publisher: Entity {
    static let deleteRules: [String: DeleteRule] = ["owner": .deny]
    var id: Id = 0
    var name = ""
    var owner: ToOne<Editor> = nil
}

@Suite struct BoxTests {
    @Test func putGetCountAndRemove() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        #expect(try box.isEmpty())
        #expect(try box.get(1) == nil)
        let hugo = Author()
        hugo.name = "Victor Hugo"
        hugo.birthYear = 1802
        let id = try box.put(hugo)
        #expect(id == hugo.id && id != 0)
        let anonymous = Author()
        anonymous.name = "Anonymous"
        let ids = try box.put([anonymous, Author()])
        #expect(ids.count == 2)
        #expect(try box.count() == 3)
        #expect(try box.contains(id))
        #expect(try box.get(id)?.birthYear == 1802)
        #expect(try box.get(anonymous.id)?.birthYear == nil)
        #expect(try box.get([anonymous.id, 999, id]).map(\.name) == ["Anonymous", "Victor Hugo"])
        #expect(try box.all().map(\.id) == [hugo.id, anonymous.id, ids[1]])

        hugo.name = "Victor Marie Hugo"
        try box.put(hugo)
        #expect(try box.count() == 3)
        #expect(try box.get(hugo.id)?.name == "Victor Marie Hugo")

        #expect(try box.remove(anonymous))
        #expect(anonymous.id == 0)
        #expect(try box.remove(ids[1]))
        #expect(try !box.remove(ids[1]))
        #expect(try box.removeAll() == 1)
        #expect(try box.isEmpty())
    }

    @Test func objectsOfOneBoxMayEncodeDifferentColumns() throws {
        let store = try Store()
        let box = store.box(for: Sticker.self)
        let ids = try box.put([
            Sticker(text: "sun", color: "yellow"),
            Sticker(text: "cloud"),
            Sticker(text: "sky", color: "blue"),
            Sticker(text: "fog"),
        ])
        let rows = try store.queue.read { db in
            try Row.fetchAll(db, sql: "SELECT text, color FROM Sticker ORDER BY id")
        }
        #expect(rows.map { $0["text"] as String } == ["sun", "cloud", "sky", "fog"])
        #expect(rows.map { $0["color"] as String? } == ["yellow", nil, "blue", nil])
        #expect(try box.get(ids[1])?.color == nil)
        #expect(try box.get(ids[2])?.color == "blue")
    }

    @Test func theIdIsChosenByTheStoreWhereverTheEntityDeclaresIt() throws {
        let store = try Store()
        let box = store.box(for: Note.self)
        let first = Note()
        first.text = "first"
        let second = Note()
        second.text = "second"
        try box.put([first, second])
        #expect(first.id == 1 && second.id == 2)
        #expect(try store.queue.read { try Row.fetchAll($0, sql: "SELECT id, text FROM Note ORDER BY id") }
            == [["id": 1, "text": "first"], ["id": 2, "text": "second"]])
        second.text = "changed"
        try box.put(second)
        #expect(try box.get(2)?.text == "changed")
        #expect(try box.count() == 2)
    }

    @Test func queriesFilterSortCountAndRemove() throws {
        let store = try Store()
        let box = store.box(for: Author.self)
        for (name, year) in [("Camus", 1913), ("Austen", 1775), ("Borges", 1899)] {
            let author = Author()
            author.name = name
            author.birthYear = year
            try box.put(author)
        }
        let modern = box.query { Column("birthYear") > 1800 }.ordered(by: Column("name"))
        #expect(try modern.find().map(\.name) == ["Borges", "Camus"])
        #expect(try modern.findFirst()?.name == "Borges")
        #expect(try modern.count() == 2)
        #expect(try box.query().ordered(by: Column("birthYear").desc).findFirst()?.name == "Camus")
        #expect(try modern.remove() == 2)
        #expect(try box.all().map(\.name) == ["Austen"])
    }

    @Test func relationsBetweenThreeEntityTypes() throws {
        let store = try Store()
        let author = Author()
        author.name = "Hugo"
        let editor = Editor()
        editor.name = "Lacroix"
        let book = Book()
        book.title = "Les Misérables"
        book.author.target = author
        book.editor.target = editor
        try store.box(for: Book.self).put(book)
        #expect(author.id != 0 && editor.id != 0)
        let loaded = try #require(try store.box(for: Book.self).get(book.id))
        #expect(loaded.author.target?.name == "Hugo")
        #expect(loaded.editor.target?.name == "Lacroix")
        let reloadedAuthor = try #require(try store.box(for: Author.self).get(author.id))
        #expect(reloadedAuthor.books.map(\.title) == ["Les Misérables"])
    }

    @Test func changesFromTheToManyEndAreWrittenWithTheOwner() throws {
        let store = try Store()
        let author = Author()
        author.name = "Tolstoy"
        let war = Book()
        war.title = "War and Peace"
        let anna = Book()
        anna.title = "Anna Karenina"
        author.books.append(war)
        author.books.append(anna)
        try store.box(for: Author.self).put(author)  // a new owner
        #expect(war.id != 0 && anna.id != 0)
        var reloaded = try #require(try store.box(for: Author.self).get(author.id))
        #expect(reloaded.books.map(\.title) == ["War and Peace", "Anna Karenina"])

        reloaded.books.remove(at: 0)
        try store.box(for: Author.self).put(reloaded)  // an existing owner
        reloaded = try #require(try store.box(for: Author.self).get(author.id))
        #expect(reloaded.books.map(\.title) == ["Anna Karenina"])
        #expect(try store.box(for: Book.self).get(war.id)?.author.targetId == nil)
    }

    @Test func manyToManyIsReadableFromBothEnds() throws {
        let store = try Store()
        let novel = Tag()
        novel.label = "novel"
        let history = Tag()
        history.label = "history"
        let war = Book()
        war.title = "War and Peace"
        war.tags.replace([novel, history])
        let anna = Book()
        anna.title = "Anna Karenina"
        anna.tags.append(novel)
        try store.box(for: Book.self).put([war, anna])
        let reloadedWar = try #require(try store.box(for: Book.self).get(war.id))
        #expect(reloadedWar.tags.map(\.label) == ["novel", "history"])
        let reloadedNovel = try #require(try store.box(for: Tag.self).get(novel.id))
        #expect(reloadedNovel.books.map(\.title) == ["War and Peace", "Anna Karenina"])
        let rows = try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM Book_tags") }
        #expect(rows == 3)
    }

    @Test func aSelfRelationAndItsBacklink() throws {
        let store = try Store()
        let boss = Employee()
        boss.name = "Boss"
        let alice = Employee()
        alice.name = "Alice"
        alice.manager.target = boss
        let bob = Employee()
        bob.name = "Bob"
        bob.manager.target = boss
        try store.box(for: Employee.self).put([alice, bob])
        let reloaded = try #require(try store.box(for: Employee.self).get(boss.id))
        #expect(reloaded.reports.map(\.name) == ["Alice", "Bob"])
        #expect(reloaded.manager.target == nil)
    }

    /// Alice and Bob, not stored yet, each the manager of the other: a
    /// cycle of objects.
    private static func twoEmployeesManagingEachOther() -> (Employee, Employee) {
        let alice = Employee()
        alice.name = "Alice"
        let bob = Employee()
        bob.name = "Bob"
        alice.manager.target = bob
        bob.manager.target = alice
        return (alice, bob)
    }

    @Test func objectsDoNotKeepTheirStoreOpen() throws {
        // Objects that refer to each other, and boxes, must not keep the
        // store (and its connection) once its user lets it go; their
        // relations then fail to load with an error.
        weak var releasedStore: Store?
        var loadedAlice: Employee?
        var loadedBob: Employee?
        do {
            let store = try Store()
            releasedStore = store
            let (alice, bob) = Self.twoEmployeesManagingEachOther()
            let box = store.box(for: Employee.self)
            try box.put(alice)
            loadedAlice = try box.get(alice.id)
            loadedBob = try box.get(bob.id)
            #expect(loadedBob?.reports.map(\.name) == ["Alice"])
        }
        #expect(releasedStore == nil)
        let alice = try #require(loadedAlice)
        #expect(alice.manager.targetId == loadedBob?.id)
        #expect(throws: ObjectBoxError.self) { try alice.manager.resolve() }
        #expect(alice.manager.target == nil)
        #expect(throws: ObjectBoxError.self) { try alice.reports.resolve() }
        // Loaded relations stay readable.
        #expect(loadedBob?.reports.map(\.name) == ["Alice"])
    }

    @Test func cyclesArePutOnce() throws {
        let store = try Store()
        let (alice, bob) = Self.twoEmployeesManagingEachOther()
        try store.box(for: Employee.self).put(alice)
        let box = store.box(for: Employee.self)
        #expect(try box.count() == 2)
        #expect(try box.get(alice.id)?.manager.targetId == bob.id)
        #expect(try box.get(bob.id)?.manager.targetId == alice.id)
    }

    @Test func removalRules() throws {
        let store = try Store()
        let author = Author()
        let editor = Editor()
        let book = Book()
        book.author.target = author
        book.editor.target = editor
        try store.box(for: Book.self).put(book)

        // nullify: the book stays, its editor reads nil with no id
        try store.box(for: Editor.self).remove(editor)
        #expect(try store.box(for: Book.self).get(book.id)?.editor.target == nil)

        // cascade: removing the author removes the book
        try store.box(for: Author.self).remove(author)
        #expect(try store.box(for: Book.self).count() == 0)

        // deny: an owner can not be removed while a publisher points to it
        let owner = Editor()
        let publisher = Publisher()
        publisher.owner.target = owner
        try store.box(for: Publisher.self).put(publisher)
        #expect(throws: DatabaseError.self) { try store.box(for: Editor.self).remove(owner) }
    }

    @Test func aTargetWhoseRowIsGoneReadsNilWithTheIdKept() throws {
        let store = try Store()
        let editor = Editor()
        try store.box(for: Editor.self).put(editor)
        try store.box(for: Book.self).put(Book())
        try store.queue.writeWithoutTransaction { db in
            try db.execute(sql: "PRAGMA foreign_keys = OFF")
            try db.execute(sql: "INSERT INTO Book (title, editorId) VALUES ('Orphan', 999)")
            try db.execute(sql: "PRAGMA foreign_keys = ON")
        }
        let orphan = try #require(try store.box(for: Book.self).query { Column("title") == "Orphan" }.findFirst())
        #expect(orphan.editor.targetId == 999)
        #expect(orphan.editor.target == nil)
        #expect(orphan.editor.hasValue)
    }
}

@Suite struct StoreTests {
    private final class Note: Entity {
        var id: Id = 0
        var text = ""
    }

    private final class NoteV2: Entity {
        static var entityName: String { "Note" }
        var id: Id = 0
        var text = ""
        var pinned = false
    }

    @Test func aStoreInAFolderKeepsItsObjects() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("store-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        do {
            let store = try Store(directoryPath: folder)
            let note = Note()
            note.text = "Hello"
            try store.box(for: Note.self).put(note)
            try store.close()
        }
        #expect(FileManager.default.fileExists(atPath: folder + "/" + Store.databaseFileName))
        let reopened = try Store(directoryPath: folder)
        #expect(try reopened.box(for: Note.self).all().map(\.text) == ["Hello"])
    }

    @Test func transactionsRollBackEverythingOnError() throws {
        let store = try Store()
        let box = store.box(for: Note.self)
        struct Failure: Error {}
        #expect(throws: Failure.self) {
            try store.runInTransaction {
                try box.put(Note())
                try store.runInTransaction {
                    try box.put(Note())
                }
                throw Failure()
            }
        }
        #expect(try box.count() == 0)
        try store.runInTransaction {
            try box.put(Note())
            try box.put(Note())
        }
        let count = try store.runInReadOnlyTransaction { try box.count() }
        #expect(count == 2)
    }

    @Test func objectsAndRecordsShareOneFileAndTransaction() throws {
        struct NoteRecord: Codable, FetchableRecord, TableRecord {
            static let databaseTableName = "Note"
            var id: Int64
            var text: String
        }
        let dbQueue = try DatabaseQueue()
        let store = Store(queue: dbQueue)
        let note = Note()
        note.text = "Shared"
        try store.box(for: Note.self).put(note)
        try dbQueue.write { db in
            let records = try NoteRecord.fetchAll(db)
            #expect(records.map(\.text) == ["Shared"])
            try db.execute(sql: "UPDATE Note SET text = 'Changed'")
        }
        #expect(try store.box(for: Note.self).get(note.id)?.text == "Changed")
    }

    @Test func aNewPropertyAddsItsColumnAndKeepsTheData() throws {
        let dbQueue = try DatabaseQueue()
        let store = Store(queue: dbQueue)
        let note = Note()
        note.text = "Before"
        try store.box(for: Note.self).put(note)

        // A later version of the application adds a property.
        let laterStore = Store(queue: dbQueue)
        let pinned = NoteV2()
        pinned.text = "After"
        pinned.pinned = true
        try laterStore.box(for: NoteV2.self).put(pinned)
        let columns = try dbQueue.read { db in try db.columns(in: "Note").map(\.name) }
        #expect(columns == ["id", "text", "pinned"])
        let notes = try laterStore.box(for: NoteV2.self).all()
        #expect(notes.map(\.text) == ["Before", "After"])
        #expect(notes.map(\.pinned) == [false, true])
    }
}

private enum Shelf {
    final class Note: Entity {
        var id: Id = 0
        var text = ""
    }
}

private enum Desk {
    final class Note: Entity {
        var id: Id = 0
        var pages = 0
    }

    final class Renamed: Entity {
        static let entityName = "DeskNote"
        var id: Id = 0
        var pages = 0
    }
}

@Suite struct EntityNameTests {
    @Test func twoEntityTypesOfOneNameAreAnErrorNotOneTable() throws {
        let store = try Store()
        let shelfNote = Shelf.Note()
        shelfNote.text = "first"
        try store.box(for: Shelf.Note.self).put(shelfNote)

        let deskNotes = store.box(for: Desk.Note.self)
        let problem = "two entity types have the name Note"
        #expect { try deskNotes.put(Desk.Note()) } throws: { "\($0)".hasPrefix(problem) && "\($0)".contains("entityName") }
        #expect { try deskNotes.all() } throws: { "\($0)".hasPrefix(problem) }
        #expect { try deskNotes.count() } throws: { "\($0)".hasPrefix(problem) }
        #expect { try deskNotes.query().build().remove() } throws: { "\($0)".hasPrefix(problem) }
        #expect { try deskNotes.removeAll() } throws: { "\($0)".hasPrefix(problem) }
        // The first type keeps its table, untouched.
        #expect(try store.box(for: Shelf.Note.self).all().map(\.text) == ["first"])
        let columns = try store.queue.read { db in try db.columns(in: "Note").map(\.name) }
        #expect(columns == ["id", "text"])

        // With a name of its own, the other type has its own table.
        let renamed = Desk.Renamed()
        renamed.pages = 3
        try store.box(for: Desk.Renamed.self).put(renamed)
        #expect(try store.queue.read { db in try Int.fetchOne(db, sql: "SELECT pages FROM DeskNote") } == 3)
    }
}

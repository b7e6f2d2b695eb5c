import Trellis
import TrellisObjects

/// The Trellis object store.
struct TrellisObjectsBackend: Backend {
    let name = "Trellis"

    final class ObjAuthor: Entity {
        var id: Id = 0
        var name = ""
    }

    final class ObjBook: Entity {
        var id: Id = 0
        var title = ""
        var author: ToOne<ObjAuthor> = nil
    }

    /// The same entities with the `@Entity` macro, in the same tables.
    @Entity
    final class MacroObjAuthor {
        static let entityName = "ObjAuthor"
        var id: Id = 0
        var name = ""
    }

    @Entity
    final class MacroObjBook {
        static let entityName = "ObjBook"
        var id: Id = 0
        var title = ""
        var author: ToOne<MacroObjAuthor> = nil
    }

    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task? {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let store = Store(queue: try DatabaseQueue(path: path, configuration: configuration))
        if workload.hasSuffix("m") {
            return try macroTask(String(workload.dropLast()), sizes: sizes, store: store)
        }
        let box = store.box(for: ObjBook.self)
        switch workload {
        case "O1":
            return Task(prepare: {
                try store.queue.write { try $0.execute(sql: "DELETE FROM ObjBook; DELETE FROM sqlite_sequence WHERE name = 'ObjBook'") }
            }) {
                let books = (1...sizes.objects).map { i -> ObjBook in
                    let book = ObjBook()
                    book.title = "Book \(i)"
                    book.author.targetId = Id(i % 10 + 1)
                    return book
                }
                try box.put(books)
                return 0
            }
        case "O2":
            return Task {
                try box.all().reduce(0) { $0 &+ Int($1.id) &+ Int($1.author.targetId ?? 0) }
            }
        case "O3":
            return Task {
                try store.runInReadOnlyTransaction {
                    var checksum = 0
                    for i in 1...sizes.objects {
                        if let book = try box.get(Id(i)) {
                            checksum &+= Int(book.id) &+ Int(book.author.targetId ?? 0)
                        }
                    }
                    return checksum
                }
            }
        default:
            return nil
        }
    }

    /// O1 to O3 with the entities of the macro, which the store reads and
    /// writes through their generated binding.
    private func macroTask(_ workload: String, sizes: Sizes, store: Store) throws -> Task? {
        let box = store.box(for: MacroObjBook.self)
        switch workload {
        case "O1":
            return Task(prepare: {
                try store.queue.write { try $0.execute(sql: "DELETE FROM ObjBook; DELETE FROM sqlite_sequence WHERE name = 'ObjBook'") }
            }) {
                let books = (1...sizes.objects).map { i -> MacroObjBook in
                    let book = MacroObjBook()
                    book.title = "Book \(i)"
                    book.author.targetId = Id(i % 10 + 1)
                    return book
                }
                try box.put(books)
                return 0
            }
        case "O2":
            return Task {
                try box.all().reduce(0) { $0 &+ Int($1.id) &+ Int($1.author.targetId ?? 0) }
            }
        case "O3":
            return Task {
                try store.runInReadOnlyTransaction {
                    var checksum = 0
                    for i in 1...sizes.objects {
                        if let book = try box.get(Id(i)) {
                            checksum &+= Int(book.id) &+ Int(book.author.targetId ?? 0)
                        }
                    }
                    return checksum
                }
            }
        default:
            return nil
        }
    }
}

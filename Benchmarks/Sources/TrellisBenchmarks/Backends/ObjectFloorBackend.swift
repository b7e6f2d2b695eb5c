import TrellisObjects

/// The least time an object store with ObjectBox's API can take for the
/// object workloads of the `@Entity` macro (O1m, O2m, O3m): raw SQLite's
/// work, plus making the objects that the Trellis backend makes, and
/// nothing else.
///
/// An entity is a class, and so is its `ToOne` relation: each object read
/// costs two allocations (and two deallocations) that raw SQLite, which
/// reads into structs, does not pay. Each object is made as the macro's
/// generated reading makes it (`init()`, whose `ToOne` default is a new
/// relation, then the columns), with the values that raw SQLite read.
struct ObjectFloorBackend: Backend {
    let name = "Object floor"
    let standsInForTwins = false

    typealias Book = TrellisObjectsBackend.MacroObjBook

    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task? {
        let makeObjects: () -> Int
        switch workload {
        case "O1m":
            // The Trellis backend makes the objects it puts in its timed part.
            makeObjects = {
                let books = (1...sizes.objects).map { i -> Book in
                    let book = Book()
                    book.title = "Book \(i)"
                    book.author.targetId = Id(i % 10 + 1)
                    return book
                }
                return books.count
            }
        case "O2m":
            makeObjects = {
                var books: [Book] = []
                for i in 1...sizes.objects { books.append(Self.book(id: i)) }
                return books.reduce(0) { $0 &+ Int($1.author.targetId ?? 0) }
            }
        case "O3m":
            makeObjects = {
                var checksum = 0
                for i in 1...sizes.objects { checksum &+= Int(Self.book(id: i).author.targetId ?? 0) }
                return checksum
            }
        default:
            return nil
        }
        guard let raw = try RawBackend().task(String(workload.dropLast()), sizes: sizes, path: path) else { return nil }
        return Task(prepare: raw.prepare) {
            let checksum = try raw.run()
            // Keeps the objects from being optimized away.
            if makeObjects() == Int.min { print("") }
            return checksum
        }
    }

    /// An object as a read makes it. Raw SQLite has made the strings of the
    /// titles already: a constant title adds no work of its own.
    @inline(never)
    private static func book(id: Int) -> Book {
        let book = Book()
        book.id = Id(id)
        book.title = "Book"
        book.author.targetId = Id(id % 10 + 1)
        return book
    }
}

import BenchSQLite

/// Raw SQLite, used as well as it can be: prepared statements reused,
/// values read straight into structs. The limit the others are measured
/// against.
struct RawBackend: Backend {
    let name = "raw SQLite"

    struct Item { var id: Int64; var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int }
    struct Author { var id: Int64; var name: String }
    struct Book { var id: Int64; var authorId: Int64; var title: String; var year: Int }
    struct Object { var id: Int64; var title: String; var authorId: Int64? }

    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task? {
        let db = try RawDatabase(path: path)
        switch workload {
        case "W1c", "W1h":
            let insert = try db.prepare("INSERT INTO insertedItem (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) VALUES (?,?,?,?,?,?,?,?,?,?)")
            return Task(prepare: { try db.exec("DELETE FROM insertedItem") }) {
                try db.exec("BEGIN")
                for i in 1...sizes.inserts {
                    sqlite3_bind_int64(insert, 1, Int64(i))
                    for c in 1...9 { sqlite3_bind_int64(insert, Int32(c + 1), Int64(i &+ c)) }
                    guard sqlite3_step(insert) == SQLITE_DONE else { throw BenchmarkError("insert failed") }
                    sqlite3_reset(insert)
                }
                try db.exec("COMMIT")
                return 0
            }
        case "W2c", "W2h":
            let select = try db.prepare("SELECT * FROM item WHERE id <= ?")
            return Task {
                try db.exec("BEGIN")
                var items: [Item] = []
                sqlite3_bind_int64(select, 1, Int64(sizes.rows))
                while sqlite3_step(select) == SQLITE_ROW {
                    items.append(Item(
                        id: sqlite3_column_int64(select, 0),
                        c1: Int(sqlite3_column_int64(select, 1)), c2: Int(sqlite3_column_int64(select, 2)),
                        c3: Int(sqlite3_column_int64(select, 3)), c4: Int(sqlite3_column_int64(select, 4)),
                        c5: Int(sqlite3_column_int64(select, 5)), c6: Int(sqlite3_column_int64(select, 6)),
                        c7: Int(sqlite3_column_int64(select, 7)), c8: Int(sqlite3_column_int64(select, 8)),
                        c9: Int(sqlite3_column_int64(select, 9))))
                }
                sqlite3_reset(select)
                try db.exec("COMMIT")
                return items.reduce(0) { $0 &+ Int($1.id) &+ $1.c1 &+ $1.c2 &+ $1.c3 &+ $1.c4 &+ $1.c5 &+ $1.c6 &+ $1.c7 &+ $1.c8 &+ $1.c9 }
            }
        case "W3", "W3h":
            let select = try db.prepare("SELECT book.*, author.* FROM book JOIN author ON author.id = book.authorId WHERE book.id <= ?")
            return Task {
                try db.exec("BEGIN")
                var pairs: [(Book, Author)] = []
                sqlite3_bind_int64(select, 1, Int64(sizes.books))
                while sqlite3_step(select) == SQLITE_ROW {
                    let book = Book(id: sqlite3_column_int64(select, 0), authorId: sqlite3_column_int64(select, 1),
                                    title: String(cString: sqlite3_column_text(select, 2)), year: Int(sqlite3_column_int64(select, 3)))
                    let author = Author(id: sqlite3_column_int64(select, 4), name: String(cString: sqlite3_column_text(select, 5)))
                    pairs.append((book, author))
                }
                sqlite3_reset(select)
                try db.exec("COMMIT")
                return pairs.reduce(0) { $0 &+ Int($1.0.id) &+ Int($1.1.id) &+ $1.0.year &+ $1.0.title.count &+ $1.1.name.count }
            }
        case "W4", "W4h":
            let authors = try db.prepare("SELECT * FROM author WHERE id <= ? ORDER BY id")
            let books = try db.prepare("SELECT * FROM book WHERE authorId <= ? ORDER BY authorId, id")
            return Task {
                try db.exec("BEGIN")
                var result: [(Author, [Book])] = []
                var index: [Int64: Int] = [:]
                sqlite3_bind_int64(authors, 1, Int64(sizes.authors))
                while sqlite3_step(authors) == SQLITE_ROW {
                    let author = Author(id: sqlite3_column_int64(authors, 0), name: String(cString: sqlite3_column_text(authors, 1)))
                    index[author.id] = result.count
                    result.append((author, []))
                }
                sqlite3_reset(authors)
                sqlite3_bind_int64(books, 1, Int64(sizes.authors))
                while sqlite3_step(books) == SQLITE_ROW {
                    let book = Book(id: sqlite3_column_int64(books, 0), authorId: sqlite3_column_int64(books, 1),
                                    title: String(cString: sqlite3_column_text(books, 2)), year: Int(sqlite3_column_int64(books, 3)))
                    if let position = index[book.authorId] { result[position].1.append(book) }
                }
                sqlite3_reset(books)
                try db.exec("COMMIT")
                return result.reduce(0) { sum, entry in entry.1.reduce(sum &+ Int(entry.0.id)) { $0 &+ Int($1.id) } }
            }
        case "W5":
            let select = try db.prepare("SELECT id, storedFlag, counter FROM appConfiguration LIMIT 1")
            let insert = try db.prepare("INSERT INTO appConfiguration (id, counter) VALUES (1, 0)")
            let update = try db.prepare("UPDATE appConfiguration SET counter = ? WHERE id = 1")
            return Task(prepare: { try db.exec("DELETE FROM appConfiguration") }) {
                var checksum = 0
                for _ in 0..<sizes.cycles {
                    try db.exec("BEGIN")
                    var counter = 0
                    if sqlite3_step(select) == SQLITE_ROW { counter = Int(sqlite3_column_int64(select, 2)) }
                    sqlite3_reset(select)
                    try db.exec("COMMIT")
                    checksum &+= counter
                    try db.exec("BEGIN IMMEDIATE")
                    var exists = false
                    if sqlite3_step(select) == SQLITE_ROW { exists = true; counter = Int(sqlite3_column_int64(select, 2)) }
                    sqlite3_reset(select)
                    if !exists { sqlite3_step(insert); sqlite3_reset(insert) }
                    sqlite3_bind_int64(update, 1, Int64(counter + 1))
                    sqlite3_step(update)
                    sqlite3_reset(update)
                    try db.exec("COMMIT")
                }
                return checksum
            }
        case "W6":
            let select = try db.prepare("SELECT * FROM item WHERE id = ?")
            return Task {
                try db.exec("BEGIN")
                var checksum = 0
                for i in 1...sizes.lookups {
                    sqlite3_bind_int64(select, 1, Int64(i))
                    if sqlite3_step(select) == SQLITE_ROW {
                        let item = Item(
                            id: sqlite3_column_int64(select, 0),
                            c1: Int(sqlite3_column_int64(select, 1)), c2: Int(sqlite3_column_int64(select, 2)),
                            c3: Int(sqlite3_column_int64(select, 3)), c4: Int(sqlite3_column_int64(select, 4)),
                            c5: Int(sqlite3_column_int64(select, 5)), c6: Int(sqlite3_column_int64(select, 6)),
                            c7: Int(sqlite3_column_int64(select, 7)), c8: Int(sqlite3_column_int64(select, 8)),
                            c9: Int(sqlite3_column_int64(select, 9)))
                        checksum &+= item.c1
                    }
                    sqlite3_reset(select)
                }
                try db.exec("COMMIT")
                return checksum
            }
        case "O1":
            let insert = try db.prepare("INSERT INTO ObjBook (title, authorId) VALUES (?, ?)")
            return Task(prepare: { try db.exec("DELETE FROM ObjBook; DELETE FROM sqlite_sequence WHERE name = 'ObjBook'") }) {
                try db.exec("BEGIN")
                for i in 1...sizes.objects {
                    sqlite3_bind_text(insert, 1, "Book \(i)", -1, unsafeBitCast(-1, to: sqlite3_destructor_type.self))
                    sqlite3_bind_int64(insert, 2, Int64(i % 10 + 1))
                    sqlite3_step(insert)
                    sqlite3_reset(insert)
                }
                try db.exec("COMMIT")
                return 0
            }
        case "O2":
            let select = try db.prepare("SELECT * FROM ObjBook ORDER BY id")
            return Task {
                try db.exec("BEGIN")
                var objects: [Object] = []
                while sqlite3_step(select) == SQLITE_ROW {
                    objects.append(Object(id: sqlite3_column_int64(select, 0), title: String(cString: sqlite3_column_text(select, 1)),
                                          authorId: sqlite3_column_type(select, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(select, 2)))
                }
                sqlite3_reset(select)
                try db.exec("COMMIT")
                return objects.reduce(0) { $0 &+ Int($1.id) &+ Int($1.authorId ?? 0) }
            }
        case "O3":
            let select = try db.prepare("SELECT * FROM ObjBook WHERE id = ?")
            return Task {
                try db.exec("BEGIN")
                var checksum = 0
                for i in 1...sizes.objects {
                    sqlite3_bind_int64(select, 1, Int64(i))
                    if sqlite3_step(select) == SQLITE_ROW {
                        let object = Object(id: sqlite3_column_int64(select, 0), title: String(cString: sqlite3_column_text(select, 1)),
                                            authorId: sqlite3_column_type(select, 2) == SQLITE_NULL ? nil : sqlite3_column_int64(select, 2))
                        checksum &+= Int(object.id) &+ Int(object.authorId ?? 0)
                    }
                    sqlite3_reset(select)
                }
                try db.exec("COMMIT")
                return checksum
            }
        default:
            return nil
        }
    }
}

import Trellis

/// Trellis, used the way its documentation recommends.
struct TrellisBackend: Backend {
    let name = "Trellis"

    struct CodableItem: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    struct InsertedItem: Codable, PersistableRecord {
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    struct HandItem: FetchableRecord, PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int

        init(id: Int64, c1: Int, c2: Int, c3: Int, c4: Int, c5: Int, c6: Int, c7: Int, c8: Int, c9: Int) {
            (self.id, self.c1, self.c2, self.c3, self.c4, self.c5, self.c6, self.c7, self.c8, self.c9) = (id, c1, c2, c3, c4, c5, c6, c7, c8, c9)
        }

        init(row: Row) throws {
            id = row["id"]
            c1 = row["c1"]; c2 = row["c2"]; c3 = row["c3"]; c4 = row["c4"]; c5 = row["c5"]
            c6 = row["c6"]; c7 = row["c7"]; c8 = row["c8"]; c9 = row["c9"]
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["c1"] = c1; container["c2"] = c2; container["c3"] = c3; container["c4"] = c4; container["c5"] = c5
            container["c6"] = c6; container["c7"] = c7; container["c8"] = c8; container["c9"] = c9
        }
    }

    struct HandInsertedItem: PersistableRecord {
        static let databaseTableName = "insertedItem"
        var item: HandItem
        func encode(to container: inout PersistenceContainer) { item.encode(to: &container) }
    }

    struct Author: Codable, FetchableRecord, PersistableRecord {
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    struct Book: Codable, FetchableRecord, PersistableRecord {
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
        var year: Int
    }

    struct BookInfo: Decodable, FetchableRecord {
        var book: Book
        var author: Author
    }

    struct AuthorInfo: Decodable, FetchableRecord {
        var author: Author
        var books: [Book]
    }

    struct HandAuthor: FetchableRecord {
        var id: Int64
        var name: String

        init(row: Row) throws {
            id = row["id"]
            name = row["name"]
        }
    }

    struct HandBook: FetchableRecord {
        var id: Int64
        var authorId: Int64
        var title: String
        var year: Int

        init(row: Row) throws {
            id = row["id"]
            authorId = row["authorId"]
            title = row["title"]
            year = row["year"]
        }
    }

    struct HandBookInfo: FetchableRecord {
        var book: HandBook
        var author: HandAuthor

        init(row: Row) throws {
            book = try HandBook(row: row)
            author = try row.decode(forKey: "author")
        }
    }

    struct HandAuthorInfo: FetchableRecord {
        var author: HandAuthor
        var books: [HandBook]

        init(row: Row) throws {
            author = try HandAuthor(row: row)
            books = try row.decode(forKey: "books")
        }
    }

    struct AppConfiguration: Codable, FetchableRecord, PersistableRecord {
        var id = 1
        var storedFlag: Bool?
        var counter = 0

        static let `default` = AppConfiguration()

        func willUpdate(_ db: Database, columns: Set<String>) throws {
            if try !exists(db) {
                try AppConfiguration.default.insert(db)
            }
        }

        static func find(_ db: Database) throws -> AppConfiguration {
            try fetchOne(db) ?? .default
        }
    }

    func task(_ workload: String, sizes: Sizes, path: String) throws -> Task? {
        var configuration = Configuration()
        configuration.prepareDatabase { db in try db.execute(sql: "PRAGMA synchronous = NORMAL") }
        let dbQueue = try DatabaseQueue(path: path, configuration: configuration)
        switch workload {
        case "W1c":
            return Task(prepare: { try dbQueue.write { try $0.execute(sql: "DELETE FROM insertedItem") } }) {
                try dbQueue.write { db in
                    for i in 1...sizes.inserts {
                        try InsertedItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                         c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9).insert(db)
                    }
                }
                return 0
            }
        case "W1h":
            return Task(prepare: { try dbQueue.write { try $0.execute(sql: "DELETE FROM insertedItem") } }) {
                try dbQueue.write { db in
                    for i in 1...sizes.inserts {
                        try HandInsertedItem(item: HandItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                                            c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9)).insert(db)
                    }
                }
                return 0
            }
        case "W2c":
            return Task {
                let items = try dbQueue.read { db in try CodableItem.filter(Column("id") <= sizes.rows).fetchAll(db) }
                return items.reduce(0) { $0 &+ Int($1.id) &+ $1.c1 &+ $1.c2 &+ $1.c3 &+ $1.c4 &+ $1.c5 &+ $1.c6 &+ $1.c7 &+ $1.c8 &+ $1.c9 }
            }
        case "W2h":
            return Task {
                let items = try dbQueue.read { db in try HandItem.filter(Column("id") <= sizes.rows).fetchAll(db) }
                return items.reduce(0) { $0 &+ Int($1.id) &+ $1.c1 &+ $1.c2 &+ $1.c3 &+ $1.c4 &+ $1.c5 &+ $1.c6 &+ $1.c7 &+ $1.c8 &+ $1.c9 }
            }
        case "W3":
            return Task {
                let infos = try dbQueue.read { db in
                    try Book.including(required: Book.author).filter(Column("id") <= sizes.books).asRequest(of: BookInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { $0 &+ Int($1.book.id) &+ Int($1.author.id) &+ $1.book.year &+ $1.book.title.count &+ $1.author.name.count }
            }
        case "W3h":
            return Task {
                let infos = try dbQueue.read { db in
                    try Book.including(required: Book.author).filter(Column("id") <= sizes.books).asRequest(of: HandBookInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { $0 &+ Int($1.book.id) &+ Int($1.author.id) &+ $1.book.year &+ $1.book.title.count &+ $1.author.name.count }
            }
        case "W4h":
            return Task {
                let infos = try dbQueue.read { db in
                    try Author.including(all: Author.books).filter(Column("id") <= sizes.authors).asRequest(of: HandAuthorInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { sum, info in info.books.reduce(sum &+ Int(info.author.id)) { $0 &+ Int($1.id) } }
            }
        case "W4":
            return Task {
                let infos = try dbQueue.read { db in
                    try Author.including(all: Author.books).filter(Column("id") <= sizes.authors).asRequest(of: AuthorInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { sum, info in info.books.reduce(sum &+ Int(info.author.id)) { $0 &+ Int($1.id) } }
            }
        case "W5":
            return Task(prepare: { try dbQueue.write { try $0.execute(sql: "DELETE FROM appConfiguration") } }) {
                var checksum = 0
                for _ in 0..<sizes.cycles {
                    let config = try dbQueue.read { db in try AppConfiguration.find(db) }
                    checksum &+= config.counter
                    try dbQueue.write { db in
                        var config = try AppConfiguration.find(db)
                        try config.updateChanges(db) { $0.counter += 1 }
                    }
                }
                return checksum
            }
        case "W6":
            return Task {
                try dbQueue.read { db in
                    var checksum = 0
                    for i in 1...sizes.lookups {
                        checksum &+= try HandItem.fetchOne(db, key: i)?.c1 ?? 0
                    }
                    return checksum
                }
            }
        case "W1m":
            return Task(prepare: { try dbQueue.write { try $0.execute(sql: "DELETE FROM insertedItem") } }) {
                try dbQueue.write { db in
                    for i in 1...sizes.inserts {
                        try MacroRecords.InsertedItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                                      c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9).insert(db)
                    }
                }
                return 0
            }
        case "W2m":
            return Task {
                let items = try dbQueue.read { db in try MacroRecords.Item.filter(Column("id") <= sizes.rows).fetchAll(db) }
                return items.reduce(0) { $0 &+ Int($1.id) &+ $1.c1 &+ $1.c2 &+ $1.c3 &+ $1.c4 &+ $1.c5 &+ $1.c6 &+ $1.c7 &+ $1.c8 &+ $1.c9 }
            }
        case "W3m":
            return Task {
                let infos = try dbQueue.read { db in
                    try MacroRecords.Book.including(required: MacroRecords.Book.author).filter(Column("id") <= sizes.books)
                        .asRequest(of: MacroRecords.BookInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { $0 &+ Int($1.book.id) &+ Int($1.author.id) &+ $1.book.year &+ $1.book.title.count &+ $1.author.name.count }
            }
        case "W4m":
            return Task {
                let infos = try dbQueue.read { db in
                    try MacroRecords.Author.including(all: MacroRecords.Author.books).filter(Column("id") <= sizes.authors)
                        .asRequest(of: MacroRecords.AuthorInfo.self).fetchAll(db)
                }
                return infos.reduce(0) { sum, info in info.books.reduce(sum &+ Int(info.author.id)) { $0 &+ Int($1.id) } }
            }
        case "W5m":
            return Task(prepare: { try dbQueue.write { try $0.execute(sql: "DELETE FROM appConfiguration") } }) {
                var checksum = 0
                for _ in 0..<sizes.cycles {
                    let config = try dbQueue.read { db in try MacroRecords.AppConfiguration.find(db) }
                    checksum &+= config.counter
                    try dbQueue.write { db in
                        var config = try MacroRecords.AppConfiguration.find(db)
                        try config.updateChanges(db) { $0.counter += 1 }
                    }
                }
                return checksum
            }
        case "W6m":
            return Task {
                try dbQueue.read { db in
                    var checksum = 0
                    for i in 1...sizes.lookups {
                        checksum &+= try MacroRecords.Item.fetchOne(db, key: i)?.c1 ?? 0
                    }
                    return checksum
                }
            }
        default:
            return nil
        }
    }
}

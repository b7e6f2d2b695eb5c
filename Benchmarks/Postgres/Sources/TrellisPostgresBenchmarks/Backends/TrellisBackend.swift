import Trellis
import TrellisPostgres

/// Trellis on PostgreSQL, used the way its documentation recommends:
/// records, the query interface and associations, in the accesses of a
/// `PostgreSQLDatabase`.
struct TrellisBackend: Backend {
    let name = "Trellis"
    let database: PostgreSQLDatabase

    struct Item: Codable, FetchableRecord, PersistableRecord {
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    struct InsertedItem: Codable, PersistableRecord {
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    struct Author: Codable, FetchableRecord, PersistableRecord {
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

    func task(_ workload: String, sizes: Sizes) throws -> BenchmarkTask? {
        let database = self.database
        switch workload {
        case "W1c":
            return BenchmarkTask {
                try await database.write { db in
                    for i in 1...sizes.inserts {
                        try InsertedItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                         c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9).insert(db)
                    }
                }
                return 0
            }
        case "W1m":
            return BenchmarkTask {
                try await database.write { db in
                    for i in 1...sizes.inserts {
                        try MacroRecords.InsertedItem(id: Int64(i), c1: i &+ 1, c2: i &+ 2, c3: i &+ 3, c4: i &+ 4, c5: i &+ 5,
                                                      c6: i &+ 6, c7: i &+ 7, c8: i &+ 8, c9: i &+ 9).insert(db)
                    }
                }
                return 0
            }
        case "W2c":
            return BenchmarkTask {
                let items = try await database.read { db in try Item.filter(Column("id") <= sizes.rows).fetchAll(db) }
                return items.reduce(0) { $0 &+ itemChecksum(id: Int($1.id), $1.c1, $1.c2, $1.c3, $1.c4, $1.c5, $1.c6, $1.c7, $1.c8, $1.c9) }
            }
        case "W2m":
            return BenchmarkTask {
                let items = try await database.read { db in try MacroRecords.Item.filter(Column("id") <= sizes.rows).fetchAll(db) }
                return items.reduce(0) { $0 &+ itemChecksum(id: Int($1.id), $1.c1, $1.c2, $1.c3, $1.c4, $1.c5, $1.c6, $1.c7, $1.c8, $1.c9) }
            }
        case "W3":
            return BenchmarkTask {
                let infos = try await database.read { db in
                    try Book.including(required: Book.author).filter(Column("id") <= sizes.books).asRequest(of: BookInfo.self).fetchAll(db)
                }
                return infos.reduce(0) {
                    $0 &+ bookChecksum(bookID: Int($1.book.id), authorID: Int($1.author.id), year: $1.book.year,
                                       title: $1.book.title, name: $1.author.name)
                }
            }
        case "W3m":
            return BenchmarkTask {
                let infos = try await database.read { db in
                    try MacroRecords.Book.including(required: MacroRecords.Book.author).filter(Column("id") <= sizes.books)
                        .asRequest(of: MacroRecords.BookInfo.self).fetchAll(db)
                }
                return infos.reduce(0) {
                    $0 &+ bookChecksum(bookID: Int($1.book.id), authorID: Int($1.author.id), year: $1.book.year,
                                       title: $1.book.title, name: $1.author.name)
                }
            }
        case "W6":
            return BenchmarkTask {
                try await database.read { db in
                    var checksum = 0
                    for i in 1...sizes.lookups {
                        checksum &+= try Item.fetchOne(db, key: i)?.c1 ?? 0
                    }
                    return checksum
                }
            }
        default:
            return nil
        }
    }
}

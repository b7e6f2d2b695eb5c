import FluentKit
import FluentPostgresDriver

/// Fluent, used idiomatically: models saved, queried and found with
/// Fluent's query builder; W3 eager-loads each book's author with
/// `.with(\.$author)`, which runs a second query for the authors. Each
/// workload runs in one transaction, on one connection.
struct FluentBackend: Backend {
    let name = "Fluent"
    let database: any FluentKit.Database

    final class Item: Model, @unchecked Sendable {
        static let schema = "item"
        @ID(custom: "id", generatedBy: .user) var id: Int?
        @Field(key: "c1") var c1: Int
        @Field(key: "c2") var c2: Int
        @Field(key: "c3") var c3: Int
        @Field(key: "c4") var c4: Int
        @Field(key: "c5") var c5: Int
        @Field(key: "c6") var c6: Int
        @Field(key: "c7") var c7: Int
        @Field(key: "c8") var c8: Int
        @Field(key: "c9") var c9: Int

        init() {}
    }

    final class InsertedItem: Model, @unchecked Sendable {
        static let schema = "insertedItem"
        @ID(custom: "id", generatedBy: .user) var id: Int?
        @Field(key: "c1") var c1: Int
        @Field(key: "c2") var c2: Int
        @Field(key: "c3") var c3: Int
        @Field(key: "c4") var c4: Int
        @Field(key: "c5") var c5: Int
        @Field(key: "c6") var c6: Int
        @Field(key: "c7") var c7: Int
        @Field(key: "c8") var c8: Int
        @Field(key: "c9") var c9: Int

        init() {}

        init(id: Int) {
            self.id = id
            (c1, c2, c3, c4, c5, c6, c7, c8, c9) = (id &+ 1, id &+ 2, id &+ 3, id &+ 4, id &+ 5, id &+ 6, id &+ 7, id &+ 8, id &+ 9)
        }
    }

    final class Author: Model, @unchecked Sendable {
        static let schema = "author"
        @ID(custom: "id", generatedBy: .user) var id: Int?
        @Field(key: "name") var name: String

        init() {}
    }

    final class Book: Model, @unchecked Sendable {
        static let schema = "book"
        @ID(custom: "id", generatedBy: .user) var id: Int?
        @Parent(key: "authorId") var author: Author
        @Field(key: "title") var title: String
        @Field(key: "year") var year: Int

        init() {}
    }

    func task(_ workload: String, sizes: Sizes) throws -> BenchmarkTask? {
        let database = self.database
        switch baseWorkload(of: workload) {
        case "W1":
            return BenchmarkTask {
                try await database.transaction { db in
                    for i in 1...sizes.inserts {
                        try await InsertedItem(id: i).create(on: db)
                    }
                }
                return 0
            }
        case "W2":
            return BenchmarkTask {
                let items = try await database.transaction { db in
                    try await Item.query(on: db).filter(\.$id <= sizes.rows).all()
                }
                return items.reduce(0) { $0 &+ itemChecksum(id: $1.id ?? 0, $1.c1, $1.c2, $1.c3, $1.c4, $1.c5, $1.c6, $1.c7, $1.c8, $1.c9) }
            }
        case "W3":
            return BenchmarkTask {
                let books = try await database.transaction { db in
                    try await Book.query(on: db).filter(\.$id <= sizes.books).with(\.$author).all()
                }
                return books.reduce(0) {
                    $0 &+ bookChecksum(bookID: $1.id ?? 0, authorID: $1.author.id ?? 0, year: $1.year, title: $1.title, name: $1.author.name)
                }
            }
        case "W6":
            return BenchmarkTask {
                try await database.transaction { db in
                    var checksum = 0
                    for i in 1...sizes.lookups {
                        checksum &+= try await Item.find(i, on: db)?.c1 ?? 0
                    }
                    return checksum
                }
            }
        default:
            return nil
        }
    }
}

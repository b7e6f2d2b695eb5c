import PostgresNIO

/// Raw postgres-nio, used as well as it can be: server-side prepared
/// statements (`PostgresPreparedStatement`), parameters and columns in
/// PostgreSQL's binary format, values decoded straight into structs, one
/// connection for a whole workload. The limit the others are measured
/// against.
struct RawBackend: Backend {
    let name = "raw postgres-nio"
    let client: PostgresClient

    struct Item { var id, c1, c2, c3, c4, c5, c6, c7, c8, c9: Int }
    struct Author { var id: Int; var name: String }
    struct Book { var id: Int; var authorId: Int; var title: String; var year: Int }

    struct InsertItem: PostgresPreparedStatement {
        static let sql = #"""
            INSERT INTO "insertedItem" ("id", "c1", "c2", "c3", "c4", "c5", "c6", "c7", "c8", "c9")
            VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
            """#
        typealias Row = ()
        var id: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 10)
            bindings.append(id)
            for c in 1...9 { bindings.append(id &+ c) }
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Row {}
    }

    struct SelectItems: PostgresPreparedStatement {
        static let sql = #"SELECT * FROM "item" WHERE "id" <= $1"#
        typealias Row = Item
        var maximumID: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(maximumID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Item {
            let (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) = try row.decode((Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
            return Item(id: id, c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6, c7: c7, c8: c8, c9: c9)
        }
    }

    struct SelectItem: PostgresPreparedStatement {
        static let sql = #"SELECT * FROM "item" WHERE "id" = $1"#
        typealias Row = Item
        var id: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(id)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> Item {
            let (id, c1, c2, c3, c4, c5, c6, c7, c8, c9) = try row.decode((Int, Int, Int, Int, Int, Int, Int, Int, Int, Int).self)
            return Item(id: id, c1: c1, c2: c2, c3: c3, c4: c4, c5: c5, c6: c6, c7: c7, c8: c8, c9: c9)
        }
    }

    struct SelectBooks: PostgresPreparedStatement {
        static let sql = #"""
            SELECT "book".*, "author".* FROM "book" JOIN "author" ON "author"."id" = "book"."authorId" WHERE "book"."id" <= $1
            """#
        typealias Row = (Book, Author)
        var maximumID: Int

        func makeBindings() -> PostgresBindings {
            var bindings = PostgresBindings(capacity: 1)
            bindings.append(maximumID)
            return bindings
        }

        func decodeRow(_ row: PostgresRow) throws -> (Book, Author) {
            let (id, authorId, title, year, authorID, name) = try row.decode((Int, Int, String, Int, Int, String).self)
            return (Book(id: id, authorId: authorId, title: title, year: year), Author(id: authorID, name: name))
        }
    }

    func task(_ workload: String, sizes: Sizes) throws -> BenchmarkTask? {
        let client = self.client
        let logger = Server.logger
        switch baseWorkload(of: workload) {
        case "W1":
            return BenchmarkTask {
                try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        for i in 1...sizes.inserts {
                            // The rows (none), not the command tag: postgres-nio 1.33.2 traps
                            // when it reads the tag of a prepared INSERT.
                            for try await _ in try await connection.execute(InsertItem(id: i), logger: logger) {}
                        }
                    }
                }
                return 0
            }
        case "W2":
            return BenchmarkTask {
                let items = try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        var items: [Item] = []
                        for try await item in try await connection.execute(SelectItems(maximumID: sizes.rows), logger: logger) {
                            items.append(item)
                        }
                        return items
                    }
                }
                return items.reduce(0) { $0 &+ itemChecksum(id: $1.id, $1.c1, $1.c2, $1.c3, $1.c4, $1.c5, $1.c6, $1.c7, $1.c8, $1.c9) }
            }
        case "W3":
            return BenchmarkTask {
                let pairs = try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        var pairs: [(Book, Author)] = []
                        for try await pair in try await connection.execute(SelectBooks(maximumID: sizes.books), logger: logger) {
                            pairs.append(pair)
                        }
                        return pairs
                    }
                }
                return pairs.reduce(0) {
                    $0 &+ bookChecksum(bookID: $1.0.id, authorID: $1.1.id, year: $1.0.year, title: $1.0.title, name: $1.1.name)
                }
            }
        case "W6":
            return BenchmarkTask {
                try await client.withConnection { connection in
                    try await connection.withTransaction(logger: logger) { connection in
                        var checksum = 0
                        for i in 1...sizes.lookups {
                            for try await item in try await connection.execute(SelectItem(id: i), logger: logger) {
                                checksum &+= item.c1
                            }
                        }
                        return checksum
                    }
                }
            }
        default:
            return nil
        }
    }
}

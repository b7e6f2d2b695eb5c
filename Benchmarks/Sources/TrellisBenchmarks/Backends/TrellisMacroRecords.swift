import TrellisMacros

/// The records of the Trellis backend written with `@DatabaseRecord`: the
/// same types as the hand-written ones, with no code of their own.
enum MacroRecords {
    @DatabaseRecord
    struct Item: FetchableRecord, PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    @DatabaseRecord
    struct InsertedItem: PersistableRecord {
        static let databaseTableName = "insertedItem"
        var id: Int64
        var c1, c2, c3, c4, c5, c6, c7, c8, c9: Int
    }

    @DatabaseRecord
    struct Author: FetchableRecord, PersistableRecord {
        static let databaseTableName = "author"
        static let books = hasMany(Book.self)
        var id: Int64
        var name: String
    }

    @DatabaseRecord
    struct Book: FetchableRecord, PersistableRecord {
        static let databaseTableName = "book"
        static let author = belongsTo(Author.self)
        var id: Int64
        var authorId: Int64
        var title: String
        var year: Int
    }

    @DatabaseRecord
    struct BookInfo: FetchableRecord {
        var book: Book
        var author: Author
    }

    @DatabaseRecord
    struct AuthorInfo: FetchableRecord {
        var author: Author
        var books: [Book]
    }

    @DatabaseRecord
    struct AppConfiguration: FetchableRecord, PersistableRecord {
        static let databaseTableName = "appConfiguration"
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
}

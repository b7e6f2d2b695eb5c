import Trellis
import TrellisMacros

/// The records of the Trellis backend written with `@DatabaseRecord`: the
/// same types as the Codable ones, with no code of their own.
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
}

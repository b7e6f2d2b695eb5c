import Trellis

// A library of eight tables: countries, people (authors and translators,
// with a self-referencing mentor), books with an author and a translator,
// covers (one per book), awards, tags with a book-tag join table, and
// libraries with their address.

enum LibraryFixture {
    struct Country: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let people = hasMany(Person.self)
        var code: String
        var name: String
    }

    struct Person: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let country = belongsTo(Country.self)
        static let mentor = belongsTo(Person.self, key: "mentor", using: ForeignKey(["mentorId"]))
        static let mentees = hasMany(Person.self, key: "mentees", using: ForeignKey(["mentorId"]))
        static let writtenBooks = hasMany(Book.self, key: "writtenBooks", using: Book.authorForeignKey)
        static let translatedBooks = hasMany(Book.self, key: "translatedBooks", using: Book.translatorForeignKey)
        static let awards = hasMany(Award.self, through: writtenBooks, using: Book.awards, key: "awards")
        enum Columns: String, ColumnExpression { case id, name, countryCode, mentorId, birthYear }
        var id: Int64
        var name: String
        var countryCode: String?
        var mentorId: Int64?
        var birthYear: Int
    }

    struct Book: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let authorForeignKey = ForeignKey(["authorId"])
        static let translatorForeignKey = ForeignKey(["translatorId"])
        static let author = belongsTo(Person.self, key: "author", using: authorForeignKey)
        static let translator = belongsTo(Person.self, key: "translator", using: translatorForeignKey)
        static let cover = hasOne(Cover.self)
        static let awards = hasMany(Award.self)
        static let bookTags = hasMany(BookTag.self)
        static let tags = hasMany(Tag.self, through: bookTags, using: BookTag.tag)
        static let library = belongsTo(Library.self)
        static let returnAddress = hasOne(Address.self, through: library, using: Library.address, key: "returnAddress")
        enum Columns: String, ColumnExpression { case id, title, authorId, translatorId, libraryId, year, pages }
        var id: Int64
        var title: String
        var authorId: Int64
        var translatorId: Int64?
        var libraryId: Int64?
        var year: Int
        var pages: Int
    }

    struct Cover: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var bookId: Int64
        var color: String
    }

    struct Award: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let book = belongsTo(Book.self)
        var id: Int64
        var bookId: Int64
        var name: String
        var year: Int
    }

    struct Tag: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let bookTags = hasMany(BookTag.self)
        static let books = hasMany(Book.self, through: bookTags, using: BookTag.book)
        var id: Int64
        var label: String
    }

    struct BookTag: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let databaseTableName = "bookTag"
        static let book = belongsTo(Book.self)
        static let tag = belongsTo(Tag.self)
        var bookId: Int64
        var tagId: Int64
    }

    struct Library: Codable, FetchableRecord, PersistableRecord, Hashable {
        static let address = hasOne(Address.self)
        var id: Int64
        var name: String
    }

    struct Address: Codable, FetchableRecord, PersistableRecord, Hashable {
        var id: Int64
        var libraryId: Int64
        var city: String
    }

    static func makeDatabase() throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE country (code TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL);
                CREATE TABLE person (
                  id INTEGER PRIMARY KEY, name TEXT NOT NULL,
                  countryCode TEXT REFERENCES country(code),
                  mentorId INTEGER REFERENCES person(id),
                  birthYear INTEGER NOT NULL);
                CREATE TABLE library (id INTEGER PRIMARY KEY, name TEXT NOT NULL);
                CREATE TABLE address (id INTEGER PRIMARY KEY, libraryId INTEGER NOT NULL UNIQUE REFERENCES library(id), city TEXT NOT NULL);
                CREATE TABLE book (
                  id INTEGER PRIMARY KEY, title TEXT NOT NULL,
                  authorId INTEGER NOT NULL REFERENCES person(id),
                  translatorId INTEGER REFERENCES person(id),
                  libraryId INTEGER REFERENCES library(id),
                  year INTEGER NOT NULL, pages INTEGER NOT NULL);
                CREATE TABLE cover (id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL UNIQUE REFERENCES book(id), color TEXT NOT NULL);
                CREATE TABLE award (id INTEGER PRIMARY KEY, bookId INTEGER NOT NULL REFERENCES book(id), name TEXT NOT NULL, year INTEGER NOT NULL);
                CREATE TABLE tag (id INTEGER PRIMARY KEY, label TEXT NOT NULL);
                CREATE TABLE bookTag (
                  bookId INTEGER NOT NULL REFERENCES book(id),
                  tagId INTEGER NOT NULL REFERENCES tag(id),
                  PRIMARY KEY (bookId, tagId));
                """)
            try Country(code: "FR", name: "France").insert(db)
            try Country(code: "RU", name: "Russia").insert(db)
            try Country(code: "US", name: "United States").insert(db)
            try Person(id: 1, name: "Victor Hugo", countryCode: "FR", mentorId: nil, birthYear: 1802).insert(db)
            try Person(id: 2, name: "Isabel Hapgood", countryCode: "US", mentorId: nil, birthYear: 1851).insert(db)
            try Person(id: 3, name: "Leo Tolstoy", countryCode: "RU", mentorId: 1, birthYear: 1828).insert(db)
            try Person(id: 4, name: "Anonymous", countryCode: nil, mentorId: 3, birthYear: 1900).insert(db)
            try Library(id: 1, name: "Central").insert(db)
            try Library(id: 2, name: "Annex").insert(db)
            try Address(id: 1, libraryId: 1, city: "Paris").insert(db)
            try Book(id: 1, title: "Les Misérables", authorId: 1, translatorId: 2, libraryId: 1, year: 1862, pages: 1400).insert(db)
            try Book(id: 2, title: "War and Peace", authorId: 3, translatorId: nil, libraryId: 2, year: 1869, pages: 1200).insert(db)
            try Book(id: 3, title: "Anna Karenina", authorId: 3, translatorId: 2, libraryId: nil, year: 1878, pages: 850).insert(db)
            try Book(id: 4, title: "Notre-Dame de Paris", authorId: 1, translatorId: nil, libraryId: 1, year: 1831, pages: 940).insert(db)
            try Book(id: 5, title: "Beowulf", authorId: 4, translatorId: nil, libraryId: nil, year: 1000, pages: 200).insert(db)
            try Cover(id: 1, bookId: 1, color: "red").insert(db)
            try Cover(id: 2, bookId: 3, color: "blue").insert(db)
            try Award(id: 1, bookId: 1, name: "Classic", year: 1900).insert(db)
            try Award(id: 2, bookId: 3, name: "Masterpiece", year: 1910).insert(db)
            try Award(id: 3, bookId: 3, name: "Readers' choice", year: 1920).insert(db)
            try Tag(id: 1, label: "novel").insert(db)
            try Tag(id: 2, label: "history").insert(db)
            try Tag(id: 3, label: "poetry").insert(db)
            for (bookId, tagId) in [(1, 1), (1, 2), (2, 1), (2, 2), (3, 1), (4, 1), (5, 3)] {
                try BookTag(bookId: Int64(bookId), tagId: Int64(tagId)).insert(db)
            }
        }
        return dbQueue
    }
}

import Foundation
import Testing
import Trellis

/// Default association keys, compared with the keys GRDB 7.10.0 gives the
/// same tables (recorded from GRDB itself: `Table("p").hasMany(Table(name))`
/// and `hasOne`), so that records decode the same associations.
@Suite struct InflectionTests {
    private static let grdbKeys: [(table: String, toMany: String, toOne: String)] = [
        ("details", "details", "detail"),
        ("Order Details", "Order Details", "Order Detail"),
        ("class", "classes", "class"),
        ("bus", "buses", "bus"),
        ("status", "statuses", "status"),
        ("alias", "aliases", "alias"),
        ("address", "addresses", "address"),
        ("news", "news", "news"),
        ("box", "boxes", "box"),
        ("index", "indices", "index"),
        ("person", "people", "person"),
        ("orderDetails", "orderDetails", "orderDetail"),
        ("gas", "gases", "gas"),
        ("quiz", "quizzes", "quiz"),
        ("axis", "axes", "axis"),
        ("virus", "viri", "virus"),
        ("canvas", "canvases", "canvas"),
        ("series", "series", "series"),
        ("bonus", "bonus", "bonu"),
        ("campus", "campus", "campu"),
        ("people", "people", "person"),
        ("children", "children", "child"),
        ("categories", "categories", "category"),
        ("OrderDetail", "OrderDetails", "OrderDetail"),
        ("mice", "mice", "mouse"),
        ("analyses", "analyses", "analysis"),
        ("Customers", "Customers", "Customer"),
        ("Employees", "Employees", "Employee"),
        ("Products", "Products", "Product"),
        ("Suppliers", "Suppliers", "Supplier"),
        ("Shippers", "Shippers", "Shipper"),
        ("Orders", "Orders", "Order"),
        ("Invoices", "Invoices", "Invoice"),
        ("InvoiceLines", "InvoiceLines", "InvoiceLine"),
        ("Territories", "Territories", "Territory"),
        ("Regions", "Regions", "Region"),
        ("Addresses", "Addresses", "Address"),
        ("Statuses", "Statuses", "Status"),
        ("Companies", "Companies", "Company"),
        ("Media", "Media", "Medium"),
        ("Data", "Data", "Datum"),
        ("datum", "data", "datum"),
        ("medium", "media", "medium"),
        ("Customer", "Customers", "Customer"),
        ("Employee", "Employees", "Employee"),
        ("Category", "Categories", "Category"),
        ("Product", "Products", "Product"),
        ("Invoice", "Invoices", "Invoice"),
        ("InvoiceLine", "InvoiceLines", "InvoiceLine"),
        ("Territory", "Territories", "Territory"),
        ("Region", "Regions", "Region"),
        ("Company", "Companies", "Company"),
        ("Playlist", "Playlists", "Playlist"),
        ("PlaylistTrack", "PlaylistTracks", "PlaylistTrack"),
        ("MediaType", "MediaTypes", "MediaType"),
        ("Genre", "Genres", "Genre"),
        ("Track", "Tracks", "Track"),
        ("Album", "Albums", "Album"),
        ("Artist", "Artists", "Artist"),
        ("movie", "movies", "movie"),
        ("movies", "movies", "movie"),
        ("wife", "wives", "wife"),
        ("wives", "wives", "wife"),
        ("leaf", "leaves", "leaf"),
        ("leaves", "leaves", "leaf"),
        ("knife", "knives", "knife"),
        ("half", "halves", "half"),
        ("halves", "halves", "half"),
        ("hive", "hives", "hive"),
        ("tomato", "tomatoes", "tomato"),
        ("potato", "potatos", "potato"),
        ("hero", "heroes", "hero"),
        ("photo", "photos", "photo"),
        ("zoo", "zoos", "zoo"),
        ("shoe", "shoes", "shoe"),
        ("shoes", "shoes", "shoe"),
        ("crisis", "crises", "crisis"),
        ("thesis", "theses", "thesis"),
        ("matrix", "matrices", "matrix"),
        ("vertex", "vertices", "vertex"),
        ("vertices", "vertices", "vertex"),
        ("ox", "oxen", "ox"),
        ("oxen", "oxen", "ox"),
        ("man", "men", "man"),
        ("men", "men", "man"),
        ("woman", "women", "woman"),
        ("women", "women", "woman"),
        ("tooth", "tooths", "tooth"),
        ("foot", "feet", "foot"),
        ("goose", "gooses", "goose"),
        ("sheep", "sheep", "sheep"),
        ("fish", "fish", "fish"),
        ("money", "money", "money"),
        ("information", "information", "information"),
        ("equipment", "equipment", "equipment"),
        ("rice", "rice", "rice"),
        ("species", "species", "species"),
        ("jeans", "jeans", "jeans"),
        ("police", "police", "police"),
        ("user", "users", "user"),
        ("users", "users", "user"),
        ("post", "posts", "post"),
        ("posts", "posts", "post"),
        ("comment", "comments", "comment"),
        ("comments", "comments", "comment"),
        ("tag", "tags", "tag"),
        ("tags", "tags", "tag"),
        ("story", "stories", "story"),
        ("stories", "stories", "story"),
        ("day", "days", "day"),
        ("days", "days", "day"),
        ("key", "keys", "key"),
        ("keys", "keys", "key"),
        ("toy", "toys", "toy"),
        ("boy", "boys", "boy"),
        ("city", "cities", "city"),
        ("cities", "cities", "city"),
        ("quizzes", "quizzes", "quiz"),
        ("wish", "wishes", "wish"),
        ("church", "churches", "church"),
        ("fox", "foxes", "fox"),
        ("buzz", "buzzs", "buzz"),
        ("fizz", "fizzs", "fizz"),
        ("bias", "biases", "bias"),
        ("atlas", "atlas", "atla"),
        ("iris", "iris", "iri"),
        ("lens", "lenses", "lens"),
        ("census", "census", "censu"),
        ("octopus", "octopi", "octopus"),
        ("cactus", "cactus", "cactu"),
        ("focus", "focuses", "focus"),
        ("fungus", "fungus", "fungu"),
        ("radius", "radius", "radiu"),
        ("syllabus", "syllabuses", "syllabus"),
        ("appendix", "appendixes", "appendix"),
        ("criterion", "criterions", "criterion"),
        ("criteria", "criteria", "criterium"),
        ("phenomenon", "phenomenons", "phenomenon"),
        ("person_id", "person_ids", "person_id"),
        ("user_profile", "user_profiles", "user_profile"),
        ("userProfiles", "userProfiles", "userProfile"),
        ("UserProfile", "UserProfiles", "UserProfile"),
        ("demographics", "demographics", "demographic"),
        ("metadata", "metadata", "metadatum"),
        ("stats", "stats", "stat"),
        ("news_item", "news_items", "news_item"),
        ("settings", "settings", "setting"),
        ("preferences", "preferences", "preference"),
        ("address_book", "address_books", "address_book"),
        ("AppConfiguration", "AppConfigurations", "AppConfiguration"),
        ("configuration", "configurations", "configuration"),
        ("history", "histories", "history"),
        ("histories", "histories", "history"),
        ("reply", "replies", "reply"),
        ("replies", "replies", "reply"),
        ("logbook", "logbooks", "logbook"),
        ("player", "players", "player"),
        ("team", "teams", "team"),
        ("teamMember", "teamMembers", "teamMember"),
        ("bookAuthor", "bookAuthors", "bookAuthor"),
        ("tracks", "tracks", "track"),
        ("genres", "genres", "genre"),
        // Recorded from a run of about 6,000 names through
        // both libraries: -man words, irregular endings, trailing digits,
        // uppercase names, words ending in -ie.
        ("human", "humen", "human"),
        ("foreman", "foremen", "foreman"),
        ("specimen", "specimens", "specimen"),
        ("salesperson", "salespeople", "salesperson"),
        ("grandchild", "grandchildren", "grandchild"),
        ("bigfoot", "bigfeet", "bigfoot"),
        ("sheaf", "sheafs", "sheaf"),
        ("cookie", "cookies", "cookie"),
        ("matrices", "matrices", "matrix"),
        ("ellipsis", "ellipses", "ellipsi"),
        ("advice", "advice", "advice"),
        ("offspring", "offspring", "offspring"),
        ("userMoney", "userMoney", "userMoney"),
        ("item2", "items2", "item2"),
        ("x1y2", "x1ies2", "x1y2"),
        ("user_2", "user_2", "user_2"),
        ("literal_", "literal_s", "literal_"),
        ("USERS", "USERs", "USER"),
        ("DATA", "DATa", "DATum"),
        ("PERSON", "People", "Person"),
        ("ANALYSIS", "ANALYses", "ANALYsis"),
        ("MATRICES", "MATRICEs", "MATRix"),
        ("NEWS", "NEWs", "News"),
        ("macOS", "macOs", "macO"),
        ("FTS5", "FTs5", "FT5"),
    ]

    @Test func defaultKeysAreGRDBs() {
        for (table, toMany, toOne) in Self.grdbKeys {
            #expect(AssociationKeyInflections.plural(table) == toMany, "to-many key of \(table)")
            #expect(AssociationKeyInflections.singular(table) == toOne, "to-one key of \(table)")
        }
    }

    @Test func aggregateNamesComeFromTheSingularTableNameOrKey() throws {
        struct Jar: TableRecord {
            static let cookies = hasMany(Cookie.self)
            static let treats = hasMany(Cookie.self, key: "treats")
        }
        struct Cookie: TableRecord {}
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE jar(id INTEGER PRIMARY KEY);
                CREATE TABLE cookie(id INTEGER PRIMARY KEY, jarId INTEGER REFERENCES jar(id), bites INTEGER);
                INSERT INTO jar VALUES (1);
                INSERT INTO cookie VALUES (1, 1, 3), (2, 1, 5);
                """)
        }
        let row = try #require(try dbQueue.read { db in
            try Row.fetchOne(db, Jar.select(Column("id")).annotated(with:
                Jar.cookies.count, Jar.cookies.isEmpty, Jar.cookies.max(Column("bites")), Jar.treats.count))
        })
        // GRDB's names: `cookies` singularized by itself gives `cooky`.
        #expect(Array(row.columnNames) == ["id", "cookieCount", "hasNoCookie", "maxCookieBites", "treatCount"])
        #expect(row["cookieCount"] == 2)
        #expect(row["maxCookieBites"] == 5)
    }

    private struct Order: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Orders"
        static let details = hasMany(OrderDetail.self)
        var OrderID: Int64
        var Freight: Double
    }

    private struct OrderDetail: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "Order Details"
        static let order = belongsTo(Order.self)
        var OrderID: Int64
        var ProductID: Int64
    }

    @Test func pluralTableNamesOfRealDatabasesKeepTheirKeys() throws {
        struct OrderWithDetails: Decodable, FetchableRecord {
            var order: Order
            var details: [OrderDetail]
            enum CodingKeys: String, CodingKey { case order = "Order", details = "Order Details" }
        }
        struct MisnamedDetails: Decodable, FetchableRecord {
            var details: [OrderDetail]
        }
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE "Orders" ("OrderID" INTEGER PRIMARY KEY, "Freight" NUMERIC);
                CREATE TABLE "Order Details" ("OrderID" INTEGER NOT NULL REFERENCES "Orders", "ProductID" INTEGER NOT NULL,
                    PRIMARY KEY ("OrderID", "ProductID")) WITHOUT ROWID;
                INSERT INTO "Orders" VALUES (10248, 32.38), (10249, 11.61);
                INSERT INTO "Order Details" VALUES (10248, 11), (10248, 42), (10249, 14);
                """)
        }
        try dbQueue.read { db in
            let rows = try Row.fetchAll(db, Order.including(all: Order.details).orderByPrimaryKey())
            #expect(rows.first?.prefetchedRows.keys.sorted() == ["Order Details"])
            let detailRow = try #require(try Row.fetchOne(db, OrderDetail.including(required: OrderDetail.order)))
            #expect(detailRow.scopes.names.sorted() == ["Order"])
            let infos = try Order.including(all: Order.details).orderByPrimaryKey().asRequest(of: OrderWithDetails.self).fetchAll(db)
            #expect(infos.map { $0.details.map(\.ProductID) } == [[11, 42], [14]])
            // A key that matches no association says which keys there are.
            let error = #expect(throws: DecodingError.self) {
                try Order.including(all: Order.details).asRequest(of: MisnamedDetails.self).fetchAll(db)
            }
            guard case .keyNotFound(let key, let context) = error else {
                Issue.record("expected keyNotFound, got \(String(describing: error))")
                return
            }
            #expect(key.stringValue == "details")
            #expect(context.debugDescription.contains(#"prefetched: "Order Details""#))
            let renamed = try Order.including(all: Order.details.forKey("details")).asRequest(of: MisnamedDetails.self).fetchAll(db)
            #expect(renamed.count == 2)
        }
    }
}

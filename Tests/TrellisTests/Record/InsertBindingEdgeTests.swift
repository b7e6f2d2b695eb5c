import Foundation
import Testing
import Trellis

// Edge cases of the inserts that bind their values as `encode(to:)` sets
// them (see InsertBindingTests): each test runs a loop of inserts of one
// record type, so that the binding path is taken from the second or third
// insert on, and checks the rows on disk, the errors, and what `didInsert`
// receives.

@Suite("Insert binding edge cases")
struct InsertBindingEdgeTests {
    // MARK: - Records

    /// A record of `item(id INTEGER PRIMARY KEY, a, b)`.
    struct Item: MutablePersistableRecord, FetchableRecord, Equatable {
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int

        init(id: Int64? = nil, a: String, b: Int) {
            self.id = id
            self.a = a
            self.b = b
        }

        init(row: Row) throws {
            id = row["id"]
            a = row["a"]
            b = row["b"]
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
        }
    }

    static func makeItemDatabase(_ extraSQL: String = "") throws -> DatabaseQueue {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER)")
            if !extraSQL.isEmpty { try db.execute(sql: extraSQL) }
        }
        return dbQueue
    }

    static func itemRows(_ db: Database, table: String = "item") throws -> [[DatabaseValue]] {
        try Row.fetchAll(db, sql: "SELECT id, a, b FROM \(table) ORDER BY id").map { row in
            [row["id"] as DatabaseValue, row["a"] as DatabaseValue, row["b"] as DatabaseValue]
        }
    }

    static func values(_ id: Int64, _ a: String?, _ b: Int?) -> [DatabaseValue] {
        [id.databaseValue, a?.databaseValue ?? .null, b?.databaseValue ?? .null]
    }

    // MARK: - Conflict policies

    /// A record whose `didInsert` counts its calls.
    final class Counter: @unchecked Sendable {
        var count = 0
        var rowIDs: [Int64] = []
    }

    struct CountedItem: MutablePersistableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int
        var counter: Counter

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            counter.count += 1
            counter.rowIDs.append(inserted.rowID)
            id = inserted.rowID
        }
    }

    @Test("IGNORE and REPLACE conflicts in the middle of loops: the ignored insert writes nothing and calls no didInsert, the replacing one writes its values, the next ones their own")
    func ignoredAndReplacingInsertsInTheMiddleOfLoops() throws {
        let dbQueue = try Self.makeItemDatabase()
        let counter = Counter()
        try dbQueue.write { db in
            // INSERT OR IGNORE: the fifth record takes the id of the second one.
            for index in 1...8 {
                let id = index == 5 ? 2 : Int64(index)
                var record = CountedItem(id: id, a: index == 5 ? "conflict" : "a\(index)", b: index * 10, counter: counter)
                try record.insert(db, onConflict: .ignore)
                #expect(record.id == id)
                if index == 5 { #expect(db.changesCount == 0) }
            }
            #expect(counter.rowIDs == [1, 2, 3, 4, 6, 7, 8])
            #expect(try Self.itemRows(db) == [1, 2, 3, 4, 6, 7, 8].map { Self.values(Int64($0), "a\($0)", $0 * 10) })

            // INSERT OR REPLACE, with a nil id: records 2 and 4 replace rows 1 and 2.
            counter.rowIDs = []
            for index in 1...6 {
                let id: Int64? = switch index { case 2: 1; case 4: 2; default: nil }
                var record = CountedItem(id: id, a: "r\(index)", b: 100 + index, counter: counter)
                try record.insert(db, onConflict: .replace)
            }
            #expect(counter.rowIDs == [9, 1, 10, 2, 11, 12])
            #expect(try Self.itemRows(db) == [
                Self.values(1, "r2", 102), Self.values(2, "r4", 104), Self.values(3, "a3", 30),
                Self.values(4, "a4", 40), Self.values(6, "a6", 60), Self.values(7, "a7", 70),
                Self.values(8, "a8", 80), Self.values(9, "r1", 101), Self.values(10, "r3", 103),
                Self.values(11, "r5", 105), Self.values(12, "r6", 106),
            ])
        }
        #expect(counter.count == 13)
    }

    /// A record whose type resolves insert conflicts with REPLACE.
    struct ReplacingItem: MutablePersistableRecord {
        static let databaseTableName = "item"
        static let persistenceConflictPolicy = PersistenceConflictPolicy(insert: .replace, update: .abort)
        var id: Int64?
        var a: String
        var b: Int

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Inserts of one type that switch conflict policy from one insert to the next use each insert's policy and values")
    func mixedConflictPoliciesOfOneType() throws {
        let dbQueue = try Self.makeItemDatabase()
        try dbQueue.write { db in
            // The type's policy (REPLACE), twice, to start the binding path.
            var r1 = ReplacingItem(id: 1, a: "one", b: 1)
            try r1.insert(db)
            var r2 = ReplacingItem(id: 2, a: "two", b: 2)
            try r2.insert(db)
            var r3 = ReplacingItem(id: 3, a: "three", b: 3)
            try r3.insert(db)
            // The type's policy replaces row 1.
            var r4 = ReplacingItem(id: 1, a: "one bis", b: 11)
            try r4.insert(db)
            // IGNORE keeps row 2.
            var r5 = ReplacingItem(id: 2, a: "ignored", b: -1)
            try r5.insert(db, onConflict: .ignore)
            // ABORT fails on row 3, and keeps it.
            var r6 = ReplacingItem(id: 3, a: "aborted", b: -1)
            let error = #expect(throws: DatabaseError.self) { try r6.insert(db, onConflict: .abort) }
            #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
            #expect(error?.arguments?.values == [3.databaseValue, "aborted".databaseValue, (-1).databaseValue])
            // The type's policy again, twice: replaces row 3, then a new row.
            var r7 = ReplacingItem(id: 3, a: "three bis", b: 33)
            try r7.insert(db)
            var r8 = ReplacingItem(id: 4, a: "four", b: 4)
            try r8.insert(db)
            // IGNORE twice in a row, the second on a new row.
            var r9 = ReplacingItem(id: 4, a: "ignored", b: -1)
            try r9.insert(db, onConflict: .ignore)
            var r10 = ReplacingItem(id: 5, a: "five", b: 5)
            try r10.insert(db, onConflict: .ignore)
            // FAIL, then REPLACE given explicitly.
            var r11 = ReplacingItem(id: 5, a: "failed", b: -1)
            #expect(throws: DatabaseError.self) { try r11.insert(db, onConflict: .fail) }
            var r12 = ReplacingItem(id: 5, a: "five bis", b: 55)
            try r12.insert(db, onConflict: .replace)
            #expect(try Self.itemRows(db) == [
                Self.values(1, "one bis", 11), Self.values(2, "two", 2), Self.values(3, "three bis", 33),
                Self.values(4, "four", 4), Self.values(5, "five bis", 55),
            ])
        }
    }

    // MARK: - Other persistence methods between inserts

    @Test("upsert, insertAndFetch, inserted, save, insertAll and updates between plain inserts of one type")
    func otherPersistenceMethodsBetweenInserts() throws {
        let dbQueue = try Self.makeItemDatabase()
        try dbQueue.write { db in
            var expected: [Int64: (String, Int)] = [:]
            func insert(_ a: String, _ b: Int) throws -> Int64 {
                var item = Item(a: a, b: b)
                try item.insert(db)
                let id = try #require(item.id)
                expected[id] = (a, b)
                return id
            }
            let id1 = try insert("p1", 1)
            _ = try insert("p2", 2)
            _ = try insert("p3", 3)

            var upserted = Item(a: "upsert new", b: 4)
            try upserted.upsert(db)
            expected[try #require(upserted.id)] = ("upsert new", 4)
            _ = try insert("p5", 5)

            let fetched = try Item(a: "fetched", b: 6).insertAndFetch(db)
            expected[try #require(fetched.id)] = ("fetched", 6)
            #expect(fetched.a == "fetched" && fetched.b == 6)
            _ = try insert("p7", 7)

            let inserted = try Item(a: "inserted", b: 8).inserted(db)
            expected[try #require(inserted.id)] = ("inserted", 8)
            _ = try insert("p9", 9)

            var saved = Item(a: "saved new", b: 10)
            try saved.save(db)
            expected[try #require(saved.id)] = ("saved new", 10)
            _ = try insert("p11", 11)

            // save of an existing row: an update.
            var existing = Item(id: id1, a: "p1 saved", b: 100)
            try existing.save(db)
            expected[id1] = ("p1 saved", 100)
            _ = try insert("p13", 13)

            let all = try [Item(a: "all 1", b: 14), Item(a: "all 2", b: 15)].insertAll(db)
            for item in all { expected[try #require(item.id)] = (item.a, item.b) }
            _ = try insert("p16", 16)

            // upsert of an existing row: an update through ON CONFLICT.
            var upsertedAgain = Item(id: id1, a: "p1 upserted", b: 1000)
            try upsertedAgain.upsert(db)
            expected[id1] = ("p1 upserted", 1000)
            _ = try insert("p18", 18)

            try Item(id: id1, a: "p1 updated", b: 10000).update(db)
            expected[id1] = ("p1 updated", 10000)
            _ = try insert("p20", 20)
            _ = try insert("p21", 21)

            let rows = try Self.itemRows(db)
            #expect(rows == expected.keys.sorted().map { Self.values($0, expected[$0]!.0, expected[$0]!.1) })
            #expect(rows.count == 18)
        }
    }

    // MARK: - Callbacks that insert

    /// The names inserted by callbacks, and the rowids records got.
    final class Log: @unchecked Sendable {
        var ids: [String: Int64] = [:]
    }

    /// Inserts, from its callbacks, other records of its own type: in
    /// `willInsert`, in `aroundInsert` before and after the insert.
    struct Node: MutablePersistableRecord {
        static let databaseTableName = "node"
        var id: Int64?
        var name: String
        var value: Int
        var spawns: Bool
        var log: Log

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
            container["value"] = value
        }

        func willInsert(_ db: Database) throws {
            guard spawns else { return }
            var child = Node(id: nil, name: name + ".will", value: value + 1, spawns: false, log: log)
            try child.insert(db)
        }

        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            if spawns {
                var child = Node(id: nil, name: name + ".before", value: value + 2, spawns: false, log: log)
                try child.insert(db)
            }
            let success = try insert()
            #expect(success.persistenceContainer["name"]?.databaseValue == name.databaseValue)
            if spawns {
                var child = Node(id: nil, name: name + ".after", value: value + 3, spawns: false, log: log)
                try child.insert(db)
            }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) {
            id = inserted.rowID
            log.ids[name] = inserted.rowID
        }
    }

    @Test("Callbacks that insert records of the same type around a record's insert leave each row its values, and each record its rowid")
    func callbacksThatInsertTheSameType() throws {
        let dbQueue = try DatabaseQueue()
        let log = Log()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE node(id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, value INTEGER NOT NULL)")
            var expectedNames: [String] = []
            for index in 1...8 {
                let spawns = index % 3 == 0
                var node = Node(id: nil, name: "n\(index)", value: index * 10, spawns: spawns, log: log)
                try node.insert(db)
                #expect(node.id == log.ids["n\(index)"])
                expectedNames += spawns
                    ? ["n\(index).will", "n\(index).before", "n\(index)", "n\(index).after"]
                    : ["n\(index)"]
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, value FROM node ORDER BY id")
            #expect(rows.map { $0["name"] as String } == expectedNames)
            let offsets = [".will": 1, ".before": 2, ".after": 3]
            for row in rows {
                let name: String = row["name"]
                let base = name.split(separator: ".")[0].dropFirst()
                let suffix = name.contains(".") ? "." + name.split(separator: ".")[1] : ""
                #expect(row["value"] as Int == Int(base)! * 10 + (offsets[suffix] ?? 0), "\(name)")
                #expect(log.ids[name] == row["id"] as Int64, "\(name)")
            }
        }
    }

    /// Logs its insert in another table, from its callbacks.
    struct Audited: MutablePersistableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int

        struct Entry: MutablePersistableRecord {
            static let databaseTableName = "audit"
            var event: String
            func encode(to container: inout PersistenceContainer) {
                container["event"] = event
            }
        }

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }

        func willInsert(_ db: Database) throws {
            var entry = Entry(event: "will \(a)")
            try entry.insert(db)
        }

        func aroundInsert(_ db: Database, insert: () throws -> InsertionSuccess) throws {
            var before = Entry(event: "before \(a)")
            try before.insert(db)
            let success = try insert()
            var after = Entry(event: "after \(a) \(success.rowID)")
            try after.insert(db)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Callbacks that insert records of another type between the inserts of a loop")
    func callbacksThatInsertAnotherType() throws {
        let dbQueue = try Self.makeItemDatabase("CREATE TABLE audit(id INTEGER PRIMARY KEY, event TEXT NOT NULL)")
        try dbQueue.write { db in
            var ids: [Int64] = []
            for index in 1...6 {
                var record = Audited(id: nil, a: "a\(index)", b: index)
                try record.insert(db)
                ids.append(try #require(record.id))
            }
            #expect(ids == Array(1...6))
            #expect(try Self.itemRows(db) == (1...6).map { Self.values(Int64($0), "a\($0)", $0) })
            let events = try String.fetchAll(db, sql: "SELECT event FROM audit ORDER BY id")
            #expect(events == (1...6).flatMap { ["will a\($0)", "before a\($0)", "after a\($0) \($0)"] })
        }
    }

    // MARK: - Record classes

    private final class Player: Record {
        var id: Int64?
        var name: String
        var score: Int

        override class var databaseTableName: String { "player" }

        init(id: Int64? = nil, name: String, score: Int) {
            self.id = id
            self.name = name
            self.score = score
            super.init()
        }

        required init(row: Row) throws {
            id = row["id"]
            name = row["name"]
            score = row["score"]
            try super.init(row: row)
        }

        override func encode(to container: inout PersistenceContainer) throws {
            container["id"] = id
            container["name"] = name
            container["score"] = score
        }

        override func didInsert(_ inserted: InsertionSuccess) {
            super.didInsert(inserted)
            id = inserted.rowID
        }
    }

    @Test("A loop of inserts of Record subclasses, with updates and saves between them")
    func recordSubclassLoop() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE player(id INTEGER PRIMARY KEY, name TEXT NOT NULL, score INTEGER NOT NULL)")
            var players: [Player] = []
            for index in 1...9 {
                let player = Player(name: "p\(index)", score: index)
                try player.insert(db)
                // The save at index 5 takes rowid 6.
                #expect(player.id == Int64(index <= 5 ? index : index + 1))
                #expect(!player.hasDatabaseChanges)
                players.append(player)
                if index % 3 == 0 {
                    // An update of an earlier player between two inserts.
                    let earlier = players[index - 3]
                    earlier.score *= 100
                    #expect(try earlier.updateChanges(db))
                }
                if index == 5 {
                    let saved = Player(name: "saved", score: 55)
                    try saved.save(db)
                    #expect(saved.id == 6)
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, score FROM player ORDER BY id")
            #expect(rows.map { $0["name"] as String } == ["p1", "p2", "p3", "p4", "p5", "saved", "p6", "p7", "p8", "p9"])
            #expect(rows.map { $0["score"] as Int } == [100, 2, 3, 400, 5, 55, 6, 700, 8, 9])
            #expect(players.map(\.id) == [1, 2, 3, 4, 5, 7, 8, 9, 10])
            let fetched = try Player.fetchAll(db, sql: "SELECT * FROM player WHERE name LIKE 'p%' ORDER BY id")
            #expect(fetched.map(\.name) == players.map(\.name))
            #expect(fetched.map(\.score) == players.map(\.score))
        }
    }

    // MARK: - Columns that change from one record to the next

    /// Writes its columns in one of several shapes.
    struct Shaped: PersistableRecord {
        enum Shape { case full, noB, extraC, upperID, twiceA, reordered, mixedCase }
        static let databaseTableName = "item"
        var id: Int64
        var shape: Shape

        var a: String { "a\(id)" }
        var b: Int { Int(id) * 10 }

        func encode(to container: inout PersistenceContainer) {
            switch shape {
            case .full:
                container["id"] = id
                container["a"] = a
                container["b"] = b
            case .noB:
                container["id"] = id
                container["a"] = a
            case .extraC:
                container["id"] = id
                container["a"] = a
                container["b"] = b
                container["c"] = "c\(id)"
            case .upperID:
                container["ID"] = id
                container["a"] = a
                container["b"] = b
            case .twiceA:
                container["id"] = id
                container["a"] = "overwritten"
                container["a"] = a
                container["b"] = b
            case .reordered:
                container["b"] = b
                container["a"] = a
                container["id"] = id
            case .mixedCase:
                container["id"] = id
                container["A"] = "overwritten"
                container["b"] = b
                container["a"] = a
            }
        }
    }

    @Test("Records of one type whose encode writes fewer, more, repeated, reordered or differently cased columns")
    func columnsThatChangeFromOneRecordToTheNext() throws {
        let dbQueue = try DatabaseQueue()
        let shapes: [Shaped.Shape] = [
            .full, .full, .full, .noB, .full, .full, .extraC, .full, .full, .upperID, .full, .full, .twiceA,
            .full, .full, .reordered, .full, .noB, .noB, .noB, .full, .mixedCase, .mixedCase, .full, .extraC,
            .extraC, .noB, .full, .twiceA, .twiceA, .full,
        ]
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER, c TEXT DEFAULT 'default')")
            for (index, shape) in shapes.enumerated() {
                try Shaped(id: Int64(index + 1), shape: shape).insert(db)
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b, c FROM item ORDER BY id")
            #expect(rows.count == shapes.count)
            for (index, shape) in shapes.enumerated() where index < rows.count {
                let id = index + 1
                let row = rows[index]
                #expect(row["id"] as Int == id)
                #expect(row["a"] as String? == "a\(id)", "\(shape) at \(id)")
                #expect(row["b"] as Int? == (shape == .noB ? nil : id * 10), "\(shape) at \(id)")
                #expect(row["c"] as String? == (shape == .extraC ? "c\(id)" : "default"), "\(shape) at \(id)")
            }
        }
    }

    /// A Codable record whose `encode(to:)` leaves nil values out.
    struct Sparse: Codable, PersistableRecord {
        static let databaseTableName = "sparse"
        var id: Int64
        var a: String?
        var b: Double?
        var tags: [String]?

        enum CodingKeys: String, CodingKey { case id, a, b, tags }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)
            if let a { try container.encode(a, forKey: .a) }
            if let b { try container.encode(b, forKey: .b) }
            if let tags { try container.encode(tags, forKey: .tags) }
        }
    }

    @Test("Codable records that leave nil values out of their encoding write each row's values")
    func codableRecordsThatLeaveColumnsOut() throws {
        let dbQueue = try DatabaseQueue()
        let records = (1...16).map { (id: Int) -> Sparse in
            Sparse(
                id: Int64(id),
                a: id % 2 == 0 ? nil : "a\(id)",
                b: id % 3 == 0 ? nil : Double(id) / 4,
                tags: id % 5 == 0 ? ["t\(id)", "u"] : nil)
        }
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE sparse(id INTEGER PRIMARY KEY, a TEXT, b REAL, tags TEXT)")
            // Full records first, then the sparse ones, then full ones again.
            let full = (100...103).map { Sparse(id: Int64($0), a: "f\($0)", b: 1.5, tags: ["x"]) }
            for record in full { try record.insert(db) }
            for record in records { try record.insert(db) }
            let more = (200...203).map { Sparse(id: Int64($0), a: "f\($0)", b: 2.5, tags: ["y"]) }
            for record in more { try record.insert(db) }
            let all = records + full + more
            let rows = try Row.fetchAll(db, sql: "SELECT id, a, b, tags FROM sparse ORDER BY id")
            #expect(rows.map { $0["id"] as Int64 } == all.map(\.id))
            #expect(rows.map { $0["a"] as String? } == all.map(\.a))
            #expect(rows.map { $0["b"] as Double? } == all.map(\.b))
            #expect(rows.map { $0["tags"] as String? } == all.map { tags in
                tags.tags.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ",") + "]" }
            })
        }
    }

    /// A record written as the `@DatabaseRecord` macro writes its
    /// `encode(to:)`: dates, UUIDs, enums and JSON values, optionals.
    struct Gadget: MutablePersistableRecord {
        enum Kind: String, Codable { case small, large }
        struct Specs: Codable, Equatable {
            var ratio: Double
            var labels: [String]
        }
        static let databaseTableName = "gadget"
        var id: Int64?
        var name: String
        var kind: Kind
        var created: Date
        var uuid: UUID?
        var specs: Specs?
        var note: String?

        func encode(to container: inout PersistenceContainer) throws {
            try container.encodeIfPresent(id, forKey: "id", of: Self.self)
            try container.encode(name, forKey: "name", of: Self.self)
            try container.encode(kind, forKey: "kind", of: Self.self)
            try container.encode(created, forKey: "created", of: Self.self)
            try container.encodeIfPresent(uuid, forKey: "uuid", of: Self.self)
            try container.encodeIfPresent(specs, forKey: "specs", of: Self.self)
            try container.encodeIfPresent(note, forKey: "note", of: Self.self)
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Records encoded as the macro encodes them (dates, UUIDs, enums, JSON, optionals), with a JSON value that fails to encode halfway")
    func recordsEncodedAsTheMacroEncodesThem() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE gadget(
                    id INTEGER PRIMARY KEY, name TEXT NOT NULL, kind TEXT NOT NULL, created DATETIME NOT NULL,
                    uuid BLOB, specs TEXT, note TEXT)
                """)
            var inserted: [Gadget] = []
            for index in 1...12 {
                var gadget = Gadget(
                    name: "g\(index)",
                    kind: index % 5 == 0 ? .large : .small,
                    created: Date(timeIntervalSince1970: 1_700_000_000 + Double(index) * 60),
                    uuid: index % 3 == 0 ? nil : UUID(),
                    specs: index % 4 == 0 ? nil : Gadget.Specs(ratio: Double(index) / 8, labels: ["l\(index)", "m"]),
                    note: index % 2 == 0 ? nil : "note \(index)")
                if index == 6 {
                    // NaN does not encode as JSON: the insert fails before SQLite.
                    gadget.specs = Gadget.Specs(ratio: .nan, labels: [])
                    #expect(throws: EncodingError.self) { try gadget.insert(db) }
                    #expect(gadget.id == nil)
                    continue
                }
                try gadget.insert(db)
                inserted.append(gadget)
            }
            #expect(inserted.map(\.id) == (1...11).map { Int64($0) })
            let rows = try Row.fetchAll(db, sql: "SELECT * FROM gadget ORDER BY id")
            #expect(rows.count == inserted.count)
            for (row, gadget) in zip(rows, inserted) {
                #expect(row["id"] as Int64? == gadget.id)
                #expect(row["name"] as String == gadget.name)
                #expect(row["kind"] as String == gadget.kind.rawValue, "\(gadget.name)")
                #expect(row["created"] as Date == gadget.created, "\(gadget.name)")
                #expect(row["uuid"] as UUID? == gadget.uuid, "\(gadget.name)")
                let specs = try (row["specs"] as String?).map { try JSONDecoder().decode(Gadget.Specs.self, from: Data($0.utf8)) }
                #expect(specs == gadget.specs, "\(gadget.name)")
                #expect(row["note"] as String? == gadget.note, "\(gadget.name)")
            }
        }
    }

    // MARK: - Views, triggers, schema changes

    /// Tells the primary key of the view `itemView`.
    struct ViewKey: DatabaseSchemaSource {
        func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
            view.name == "itemView" ? ["id"] : nil
        }
    }

    struct ViewItem: MutablePersistableRecord {
        static let databaseTableName = "itemView"
        var id: Int64
        var a: String
        var b: Int

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = a
            container["b"] = b
        }
    }

    @Test("A loop of inserts into a view whose INSTEAD OF trigger writes the table")
    func insertsIntoAViewWithAnInsteadOfTrigger() throws {
        var config = Configuration()
        config.schemaSource = ViewKey()
        let dbQueue = try DatabaseQueue(configuration: config)
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER);
                CREATE VIEW itemView AS SELECT id, a, b FROM item;
                CREATE TRIGGER itemViewInsert INSTEAD OF INSERT ON itemView BEGIN
                    INSERT INTO item(id, a, b) VALUES (NEW.id, NEW.a || '!', NEW.b * 2);
                END;
                """)
            for index in 1...8 {
                var record = ViewItem(id: Int64(index), a: "v\(index)", b: index)
                try record.insert(db)
            }
            // A conflict in the trigger's insert fails the record's insert.
            var conflicting = ViewItem(id: 3, a: "conflict", b: -1)
            let error = #expect(throws: DatabaseError.self) { try conflicting.insert(db) }
            #expect(error?.resultCode == .SQLITE_CONSTRAINT)
            var next = ViewItem(id: 9, a: "v9", b: 9)
            try next.insert(db)
            #expect(try Self.itemRows(db) == (1...9).map { Self.values(Int64($0), "v\($0)!", $0 * 2) })
            #expect(try Self.itemRows(db, table: "itemView") == (1...9).map { Self.values(Int64($0), "v\($0)!", $0 * 2) })
        }
    }

    @Test("A loop of inserts into a table whose triggers insert into the same table, ignore or refuse a row: each record gets its own rowid")
    func insertsIntoATableWhoseTriggersInsertIgnoreOrRefuse() throws {
        let dbQueue = try Self.makeItemDatabase("""
            CREATE TRIGGER mirror AFTER INSERT ON item WHEN NEW.b >= 0 BEGIN
                INSERT INTO item(a, b) VALUES ('mirror of ' || NEW.a, -NEW.id);
            END;
            CREATE TRIGGER skip BEFORE INSERT ON item WHEN NEW.a LIKE 'skip%' BEGIN
                SELECT RAISE(IGNORE);
            END;
            CREATE TRIGGER refuse BEFORE INSERT ON item WHEN NEW.a LIKE 'refuse%' BEGIN
                SELECT RAISE(ABORT, 'refused');
            END;
            """)
        try dbQueue.write { db in
            var records: [Item] = []
            for index in 1...10 {
                let a = switch index { case 4: "skip4"; case 7: "refuse7"; default: "a\(index)" }
                var record = Item(a: a, b: index)
                if index == 7 {
                    let error = #expect(throws: DatabaseError.self) { try record.insert(db) }
                    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_TRIGGER)
                    #expect(error?.message == "refused")
                    #expect(error?.arguments?.values == [.null, "refuse7".databaseValue, 7.databaseValue])
                } else {
                    try record.insert(db)
                }
                records.append(record)
            }
            // The ignored and refused records keep their nil id.
            #expect(records.map(\.id) == [1, 3, 5, nil, 7, 9, nil, 11, 13, 15])
            var expected: [[DatabaseValue]] = []
            for (index, record) in records.enumerated() {
                guard let id = record.id else { continue }
                expected.append(Self.values(id, "a\(index + 1)", index + 1))
                expected.append(Self.values(id + 1, "mirror of a\(index + 1)", -Int(id)))
            }
            #expect(try Self.itemRows(db) == expected)
        }
    }

    @Test("Inserts go on with the right values when the table changes in the middle of the loop (ADD COLUMN, DROP and CREATE)")
    func schemaChangesInTheMiddleOfALoop() throws {
        let dbQueue = try Self.makeItemDatabase()
        try dbQueue.write { db in
            for index in 1...3 {
                var record = Item(a: "a\(index)", b: index)
                try record.insert(db)
            }
            try db.execute(sql: "ALTER TABLE item ADD COLUMN c TEXT DEFAULT 'added'")
            for index in 4...6 {
                var record = Item(a: "a\(index)", b: index)
                try record.insert(db)
            }
            // The same columns, in another order, and a NOT NULL column with a default.
            try db.execute(sql: """
                DROP TABLE item;
                CREATE TABLE item(c TEXT NOT NULL DEFAULT 'recreated', b INTEGER, a TEXT, id INTEGER PRIMARY KEY);
                """)
            for index in 7...9 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
            // A table without column b: the insert fails.
            try db.execute(sql: "DROP TABLE item; CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT)")
            var failing = Item(id: 10, a: "a10", b: 10)
            let error = #expect(throws: DatabaseError.self) { try failing.insert(db) }
            #expect(error?.resultCode == .SQLITE_ERROR)
            try db.execute(sql: "DROP TABLE item; CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER)")
            for index in 11...13 {
                var record = Item(a: "a\(index)", b: index)
                try record.insert(db)
                #expect(record.id == Int64(index - 10))
            }
            #expect(try Self.itemRows(db) == (11...13).map { Self.values(Int64($0 - 10), "a\($0)", $0) })
        }
    }

    @Test("Inserts go on with the right values when another connection recreates the table with its columns in another order")
    func schemaChangedByAnotherConnection() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("insert-binding-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER)")
            for index in 1...4 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
        }
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: """
                DROP TABLE item;
                CREATE TABLE item(b INTEGER, extra TEXT DEFAULT 'x', a TEXT, id INTEGER PRIMARY KEY);
                """)
            for index in 5...7 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
        }
        try dbPool.write { db in
            for index in 8...11 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
        }
        try other.write { db in
            for index in 12...13 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
        }
        try dbPool.write { db in
            for index in 14...15 {
                var record = Item(id: Int64(index), a: "a\(index)", b: index)
                try record.insert(db)
            }
        }
        let rows = try dbPool.read { db in try Self.itemRows(db) }
        #expect(rows == (5...15).map { Self.values(Int64($0), "a\($0)", $0) })
        #expect(try other.read { db in try Self.itemRows(db) } == rows)
    }

    struct Code: MutablePersistableRecord {
        static let databaseTableName = "code"
        var code: String
        var label: String
        var rank: Int

        func encode(to container: inout PersistenceContainer) {
            container["code"] = code
            container["label"] = label
            container["rank"] = rank
        }
    }

    @Test("A loop of inserts into a WITHOUT ROWID table, with ignored and failing conflicts")
    func withoutRowIDTable() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: "CREATE TABLE code(code TEXT PRIMARY KEY, label TEXT NOT NULL, rank INTEGER) WITHOUT ROWID")
            var expected: [[DatabaseValue]] = []
            for index in 1...10 {
                if index == 5 {
                    var ignored = Code(code: "c2", label: "ignored", rank: -1)
                    try ignored.insert(db, onConflict: .ignore)
                    continue
                }
                if index == 8 {
                    var failing = Code(code: "c3", label: "failing", rank: -1)
                    let error = #expect(throws: DatabaseError.self) { try failing.insert(db) }
                    #expect(error?.extendedResultCode == .SQLITE_CONSTRAINT_PRIMARYKEY)
                    continue
                }
                var record = Code(code: "c\(index)", label: "label \(index)", rank: index)
                try record.insert(db)
                expected.append(["c\(index)".databaseValue, "label \(index)".databaseValue, index.databaseValue])
            }
            let rows = try Row.fetchAll(db, sql: "SELECT code, label, rank FROM code ORDER BY rank").map {
                [$0["code"] as DatabaseValue, $0["label"] as DatabaseValue, $0["rank"] as DatabaseValue]
            }
            #expect(rows == expected)
        }
    }

    // MARK: - Errors

    /// A record of `checked`, whose columns have constraints.
    struct Checked: MutablePersistableRecord {
        static let databaseTableName = "checked"
        var id: Int64?
        var name: String?
        var amount: Int

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["name"] = name
            container["amount"] = amount
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("UNIQUE, NOT NULL and CHECK failures in a loop throw their DatabaseError, with the failing values, and the next inserts write their own values")
    func constraintFailuresInTheMiddleOfALoop() throws {
        let dbQueue = try DatabaseQueue()
        try dbQueue.write { db in
            try db.execute(sql: """
                CREATE TABLE checked(
                    id INTEGER PRIMARY KEY,
                    name TEXT NOT NULL UNIQUE,
                    amount INTEGER NOT NULL CHECK (amount >= 0))
                """)
            let plan: [(name: String?, amount: Int, failure: ResultCode?)] = [
                ("one", 1, nil), ("two", 2, nil), ("three", 3, nil),
                ("one", 4, .SQLITE_CONSTRAINT_UNIQUE),
                ("four", 4, nil),
                (nil, 5, .SQLITE_CONSTRAINT_NOTNULL),
                ("five", 5, nil),
                ("negative", -6, .SQLITE_CONSTRAINT_CHECK),
                ("six", 6, nil),
                ("two", -7, .SQLITE_CONSTRAINT_UNIQUE),  // both UNIQUE and CHECK fail: either is fine below
                ("seven", 7, nil), ("eight", 8, nil),
            ]
            var expected: [[DatabaseValue]] = []
            for (index, step) in plan.enumerated() {
                var record = Checked(id: Int64(index + 1), name: step.name, amount: step.amount)
                if let failure = step.failure {
                    let error = #expect(throws: DatabaseError.self) { try record.insert(db) }
                    #expect(error?.resultCode == .SQLITE_CONSTRAINT)
                    if index != 9 { #expect(error?.extendedResultCode == failure, "record \(index + 1)") }
                    #expect(error?.arguments?.values == [
                        Int64(index + 1).databaseValue, step.name?.databaseValue ?? .null, step.amount.databaseValue,
                    ])
                } else {
                    try record.insert(db)
                    #expect(record.id == Int64(index + 1))
                    expected.append([Int64(index + 1).databaseValue, step.name!.databaseValue, step.amount.databaseValue])
                }
            }
            let rows = try Row.fetchAll(db, sql: "SELECT id, name, amount FROM checked ORDER BY id").map {
                [$0["id"] as DatabaseValue, $0["name"] as DatabaseValue, $0["amount"] as DatabaseValue]
            }
            #expect(rows == expected)
        }
    }

    // MARK: - Connections

    @Test("Inserts from several write accesses of a pool, and from a queue on the same file, in a row")
    func poolAndQueueOnOneFile() throws {
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("insert-binding-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dbPool = try DatabasePool(path: path)
        try dbPool.write { db in
            try db.execute(sql: "CREATE TABLE item(id INTEGER PRIMARY KEY, a TEXT, b INTEGER)")
        }
        let dbQueue = try DatabaseQueue(path: path)
        var next = 1
        var ids: [Int64?] = []
        for round in 0..<4 {
            for writer in [dbPool as any DatabaseWriter, dbQueue as any DatabaseWriter] {
                try writer.write { db in
                    for _ in 0..<(3 + round) {
                        var record = Item(a: "a\(next)", b: next)
                        try record.insert(db)
                        ids.append(record.id)
                        next += 1
                    }
                }
            }
            // A read between two writes of the pool.
            #expect(try dbPool.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM item") } == next - 1)
        }
        #expect(ids == (1..<next).map { Int64($0) })
        let rows = try dbPool.read { db in try Self.itemRows(db) }
        #expect(rows == (1..<next).map { Self.values(Int64($0), "a\($0)", $0) })
        #expect(try dbQueue.read { db in try Self.itemRows(db) } == rows)
    }

    /// A record of another type on the table of `Item`, which writes its
    /// columns in another order and transforms its values.
    struct OtherItem: MutablePersistableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int

        func encode(to container: inout PersistenceContainer) {
            container["b"] = b * -1
            container["a"] = "other " + a
            container["id"] = id
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    /// The same columns as `Item`, in the same order.
    struct TwinItem: MutablePersistableRecord {
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int

        func encode(to container: inout PersistenceContainer) {
            container["id"] = id
            container["a"] = "twin " + a
            container["b"] = b + 1000
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    @Test("Three record types that share one table, inserted in turn, each write their own values")
    func recordTypesThatShareATable() throws {
        let dbQueue = try Self.makeItemDatabase()
        try dbQueue.write { db in
            var expected: [[DatabaseValue]] = []
            for index in 1...24 {
                let id = Int64(index)
                // Runs of one type, then alternation.
                let kind = index <= 6 ? index % 3 : (index <= 12 ? 0 : (index <= 15 ? 1 : index % 2 * 2))
                switch kind {
                case 0:
                    var record = Item(a: "a\(index)", b: index)
                    try record.insert(db)
                    #expect(record.id == id)
                    expected.append(Self.values(id, "a\(index)", index))
                case 1:
                    var record = OtherItem(a: "a\(index)", b: index)
                    try record.insert(db)
                    #expect(record.id == id)
                    expected.append(Self.values(id, "other a\(index)", -index))
                default:
                    var record = TwinItem(a: "a\(index)", b: index)
                    try record.insert(db)
                    #expect(record.id == id)
                    expected.append(Self.values(id, "twin a\(index)", index + 1000))
                }
            }
            #expect(try Self.itemRows(db) == expected)
        }
    }

    // MARK: - Containers kept and reused by records

    /// A container that records keep from one encode to a later one.
    final class TemplateBox: @unchecked Sendable {
        var template: PersistenceContainer?
    }

    /// Encodes its columns; or keeps a copy of its container and writes
    /// its values into a new container; or encodes, as a whole, the
    /// container that a record kept before.
    struct Templated: MutablePersistableRecord {
        enum Mode { case plain, keepThenRebuild, reuseKept }
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int
        var mode: Mode
        var box: TemplateBox

        func encode(to container: inout PersistenceContainer) {
            switch mode {
            case .plain:
                container["id"] = id
                container["a"] = a
                container["b"] = b
            case .keepThenRebuild:
                container["id"] = id
                container["a"] = a
                container["b"] = b
                box.template = container
                container = PersistenceContainer()
                container["id"] = id
                container["a"] = a
                container["b"] = b
            case .reuseKept:
                container = box.template!
            }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    // The kept container's storage was recycled for the insert that kept
    // it, and started binding then: a later insert that encodes it as a
    // whole must bind its values, not run the statement with those that the
    // insert before it left.
    @Test("A record that encodes, as a whole, a container kept by an earlier insert writes the values of that container")
    func containerKeptByAnEarlierInsertAndReusedWhole() throws {
        let dbQueue = try Self.makeItemDatabase()
        let box = TemplateBox()
        try dbQueue.write { db in
            var r1 = Templated(a: "a1", b: 1, mode: .plain, box: box)
            try r1.insert(db)
            var r2 = Templated(a: "a2", b: 2, mode: .keepThenRebuild, box: box)
            try r2.insert(db)
            var r3 = Templated(a: "a3", b: 3, mode: .plain, box: box)
            try r3.insert(db)
            // Encodes the container kept by r2: id NULL, "a2", 2.
            var r4 = Templated(a: "ignored", b: -1, mode: .reuseKept, box: box)
            try r4.insert(db)
            var r5 = Templated(a: "a5", b: 5, mode: .plain, box: box)
            try r5.insert(db)
            #expect([r1, r2, r3, r4, r5].map(\.id) == [1, 2, 3, 4, 5])
            let rows = try Self.itemRows(db)
            #expect(rows == [
                Self.values(1, "a1", 1), Self.values(2, "a2", 2), Self.values(3, "a3", 3),
                Self.values(4, "a2", 2), Self.values(5, "a5", 5),
            ])
        }
    }

    /// Keeps its container after its first column, then writes the others
    /// into a copy; or takes the kept container and writes the missing
    /// columns into it.
    struct HalfTemplated: MutablePersistableRecord {
        enum Mode { case plain, keepHalf, fillKept }
        static let databaseTableName = "item"
        var id: Int64?
        var a: String
        var b: Int
        var mode: Mode
        var box: TemplateBox

        func encode(to container: inout PersistenceContainer) {
            switch mode {
            case .plain:
                container["id"] = id
                container["a"] = a
                container["b"] = b
            case .keepHalf:
                container["id"] = id
                box.template = container
                container["a"] = a
                container["b"] = b
            case .fillKept:
                container = box.template!
                box.template = nil
                container["a"] = a
                container["b"] = b
            }
        }

        mutating func didInsert(_ inserted: InsertionSuccess) { id = inserted.rowID }
    }

    // The values that a later record writes into a kept container are not
    // bound as they are set (another storage binds): the insert binds them.
    @Test("A record that takes a container kept halfway by an earlier insert and fills it writes its own values")
    func containerKeptHalfwayAndFilledLater() throws {
        let dbQueue = try Self.makeItemDatabase()
        let box = TemplateBox()
        try dbQueue.write { db in
            var r1 = HalfTemplated(a: "a1", b: 1, mode: .plain, box: box)
            try r1.insert(db)
            var r2 = HalfTemplated(a: "a2", b: 2, mode: .keepHalf, box: box)
            try r2.insert(db)
            var r3 = HalfTemplated(a: "a3", b: 3, mode: .plain, box: box)
            try r3.insert(db)
            var r4 = HalfTemplated(a: "a4", b: 4, mode: .fillKept, box: box)
            try r4.insert(db)
            var r5 = HalfTemplated(a: "a5", b: 5, mode: .plain, box: box)
            try r5.insert(db)
            #expect([r1, r2, r3, r4, r5].map(\.id) == [1, 2, 3, 4, 5])
            let rows = try Self.itemRows(db)
            #expect(rows == (1...5).map { Self.values(Int64($0), "a\($0)", $0) })
        }
    }

    // MARK: - An encode that inserts

    /// The connection of the running access, for records whose encode
    /// writes (unusual, but nothing forbids it).
    final class ConnectionBox: @unchecked Sendable {
        var db: Database?
    }

    /// Inserts another record of its type, after it wrote its columns,
    /// from its `encode(to:)`.
    struct EncodeInserts: PersistableRecord {
        static let databaseTableName = "item"
        var a: String
        var b: Int
        var nested: String?
        var box: ConnectionBox

        func encode(to container: inout PersistenceContainer) throws {
            container["id"] = nil as Int64?
            container["a"] = a
            container["b"] = b
            if let nested, let db = box.db {
                try EncodeInserts(a: nested, b: -b, nested: nil, box: box).insert(db)
            }
        }
    }

    // The nested insert runs the statement that the outer insert's values
    // were bound to: the outer insert binds them again. The record reaches
    // the connection through a captured reference: unusual, but no API
    // forbids it.
    @Test("A record whose encode(to:) inserts another record of its type after writing its columns")
    func encodeThatInsertsARecordOfItsType() throws {
        let dbQueue = try Self.makeItemDatabase()
        let box = ConnectionBox()
        try dbQueue.write { db in
            box.db = db
            defer { box.db = nil }
            for index in 1...5 {
                try EncodeInserts(a: "a\(index)", b: index, nested: index == 3 ? "nested" : nil, box: box).insert(db)
            }
            let rows = try Self.itemRows(db)
            #expect(rows == [
                Self.values(1, "a1", 1), Self.values(2, "a2", 2), Self.values(3, "nested", -3),
                Self.values(4, "a3", 3), Self.values(5, "a4", 4), Self.values(6, "a5", 5),
            ])
        }
    }

    // MARK: - Containers and caches that outlive, or drop, the binding

    /// Keeps a copy of its container, taken before its first write.
    struct KeepsCopy: PersistableRecord {
        static let databaseTableName = "item"
        var id: Int64
        var keep: Bool
        var kept: InsertBindingTests.KeptContainers

        func encode(to container: inout PersistenceContainer) {
            if keep { kept.containers.append(container) }
            container["id"] = id
            container["a"] = "a\(id)"
            container["b"] = Int(id)
        }
    }

    @Test("A copy of its container that a record keeps holds neither the statement nor the connection")
    func keptCopyHoldsNoStatement() throws {
        let kept = InsertBindingTests.KeptContainers()
        weak var weakDatabase: Database?
        do {
            let dbQueue = try Self.makeItemDatabase()
            try dbQueue.write { db in
                weakDatabase = db
                for id in Int64(1)...4 {
                    try KeepsCopy(id: id, keep: id == 3, kept: kept).insert(db)
                }
                #expect(try Self.itemRows(db).map { $0[1] } == (1...4).map { "a\($0)".databaseValue })
            }
            // A statement that a kept container held would stay unfinalized.
            try dbQueue.close()
        }
        #expect(kept.containers.count == 1)
        #expect(weakDatabase == nil)
    }

    /// The connection, for records whose encode(to:) uses it.
    final class ConnectionAccess: @unchecked Sendable {
        var db: Database?
        var queue: DatabaseQueue?
    }

    /// Makes the connection forget its statements from `encode(to:)`,
    /// then replaces its container or writes its columns in another order.
    struct ForgetsStatements: PersistableRecord {
        enum Then { case nothing, releaseMemoryAndReplace, clearSchemaCacheAndReorder, queueReleaseMemory }
        static let databaseTableName = "item"
        var id: Int64
        var then: Then
        var access: ConnectionAccess

        func encode(to container: inout PersistenceContainer) {
            switch then {
            case .nothing:
                break
            case .releaseMemoryAndReplace:
                access.db?.releaseMemory()
                container = PersistenceContainer()
            case .clearSchemaCacheAndReorder:
                access.db?.clearSchemaCache()
                container["a"] = "a\(id)"
            case .queueReleaseMemory:
                access.queue?.releaseMemory()
            }
            container["id"] = id
            container["a"] = "a\(id)"
            container["b"] = Int(id)
        }
    }

    @Test("An encode(to:) that makes the connection forget its statements, then replaces or reorders its container, inserts its own values")
    func encodeThatForgetsTheStatements() throws {
        let dbQueue = try Self.makeItemDatabase()
        let access = ConnectionAccess()
        access.queue = dbQueue
        let plan: [ForgetsStatements.Then] = [
            .nothing, .nothing, .releaseMemoryAndReplace, .nothing, .nothing, .clearSchemaCacheAndReorder,
            .nothing, .nothing, .queueReleaseMemory, .nothing, .nothing,
        ]
        try dbQueue.write { db in
            access.db = db
            defer { access.db = nil }
            for (index, then) in plan.enumerated() {
                try ForgetsStatements(id: Int64(index + 1), then: then, access: access).insert(db)
            }
            #expect(try Self.itemRows(db) == (1...plan.count).map { Self.values(Int64($0), "a\($0)", $0) })
        }
        access.queue = nil
    }
}

import Foundation
import Testing
import Trellis

/// Datasette's test fixtures, a database built to hold the schemas that
/// break tools: a table named `select` whose columns are `group`,
/// `having`, `and` and `json`; a table named `table/with/slashes.csv`;
/// `varchar(30)` primary keys, compound keys of two and three columns,
/// a foreign key over two columns, three foreign keys from one table to
/// another, a foreign key to a table that does not exist, an untyped
/// column, infinite REAL values, a column name with dots and spaces, and
/// an FTS4 table whose content is another table.
@Suite struct DatasetteFixturesTests {
    static let script = """
        CREATE TABLE simple_primary_key (id varchar(30) primary key, content text);
        CREATE TABLE primary_key_multiple_columns (id varchar(30) primary key, content text, content2 text);
        CREATE TABLE compound_primary_key (pk1 varchar(30), pk2 varchar(30), content text, PRIMARY KEY (pk1, pk2));
        CREATE TABLE compound_three_primary_keys (pk1 varchar(30), pk2 varchar(30), pk3 varchar(30), content text, PRIMARY KEY (pk1, pk2, pk3));
        CREATE TABLE foreign_key_references (
          pk varchar(30) primary key,
          foreign_key_with_label varchar(30),
          foreign_key_with_blank_label varchar(30),
          foreign_key_with_no_label varchar(30),
          foreign_key_compound_pk1 varchar(30),
          foreign_key_compound_pk2 varchar(30),
          FOREIGN KEY (foreign_key_with_label) REFERENCES simple_primary_key(id),
          FOREIGN KEY (foreign_key_with_blank_label) REFERENCES simple_primary_key(id),
          FOREIGN KEY (foreign_key_with_no_label) REFERENCES primary_key_multiple_columns(id)
          FOREIGN KEY (foreign_key_compound_pk1, foreign_key_compound_pk2) REFERENCES compound_primary_key(pk1, pk2)
        );
        CREATE TABLE "complex_foreign_keys" (
          pk varchar(30) primary key,
          f1 text,
          f2 text,
          f3 text,
          FOREIGN KEY ("f1") REFERENCES [simple_primary_key](id),
          FOREIGN KEY ("f2") REFERENCES [simple_primary_key](id),
          FOREIGN KEY ("f3") REFERENCES [simple_primary_key](id)
        );
        CREATE TABLE "custom_foreign_key_label" (
          pk varchar(30) primary key,
          foreign_key_with_custom_label text,
          FOREIGN KEY ("foreign_key_with_custom_label") REFERENCES [primary_key_multiple_columns_explicit_label](id)
        );
        CREATE TABLE "table/with/slashes.csv" (pk varchar(30) primary key, content text);
        CREATE TABLE [select] ([group] text, [having] text, [and] text, [json] text);
        CREATE TABLE infinity (value REAL);
        CREATE TABLE binary_data (data BLOB);
        CREATE TABLE "123_starts_with_digits" (content text);
        CREATE TABLE searchable (pk integer primary key, text1 text, text2 text, [name with . and spaces] text);
        CREATE VIRTUAL TABLE "searchable_fts" USING FTS4 (text1, text2, [name with . and spaces], content="searchable");
        CREATE TABLE facet_cities (id integer primary key, name text);
        CREATE TABLE facetable (pk integer primary key, created text, planet_int integer, on_earth integer, state text, _city_id integer, _neighborhood text, tags text, complex_array text, distinct_some_null, n text, FOREIGN KEY ("_city_id") REFERENCES [facet_cities](id));
        CREATE VIEW simple_view AS SELECT content, upper(content) AS upper_content FROM simple_primary_key;
        INSERT INTO simple_primary_key VALUES (1, 'hello'), (2, 'world'), (3, ''), (4, 'RENDER_CELL_DEMO'), (5, 'RENDER_CELL_ASYNC');
        INSERT INTO primary_key_multiple_columns VALUES (1, 'hey', 'world');
        INSERT INTO compound_primary_key VALUES ('a', 'b', 'c'), ('a/b', '.c-d', 'c');
        INSERT INTO compound_three_primary_keys VALUES ('a', 'a', 'a', 'a-a-a'), ('a', 'a', 'b', 'a-a-b'), ('a', 'b', 'a', 'a-b-a');
        INSERT INTO foreign_key_references VALUES (1, 1, 3, 1, 'a', 'b'), (2, null, null, null, null, null);
        INSERT INTO complex_foreign_keys VALUES (1, 1, 2, 1);
        INSERT INTO custom_foreign_key_label VALUES (1, 1);
        INSERT INTO [table/with/slashes.csv] VALUES (3, 'hey');
        INSERT INTO [select] VALUES ('group', 'having', 'and', '{"href": "http://example.com/", "label":"Example"}');
        INSERT INTO infinity VALUES (1e999), (-1e999), (1.5);
        INSERT INTO binary_data VALUES (x'FD6A3C44'), (x'1E8FB8B7'), (null);
        INSERT INTO "123_starts_with_digits" VALUES ('');
        INSERT INTO searchable VALUES (1, 'barry cat', 'terry dog', 'panther'), (2, 'terry dog', 'sara weasel', 'puma');
        INSERT INTO searchable_fts (rowid, text1, text2, [name with . and spaces]) SELECT rowid, text1, text2, [name with . and spaces] FROM searchable;
        INSERT INTO facet_cities VALUES (1, 'San Francisco'), (2, 'Los Angeles'), (3, 'Detroit'), (4, 'Memnonia');
        INSERT INTO facetable (created, planet_int, on_earth, state, _city_id, _neighborhood, tags, complex_array, distinct_some_null, n) VALUES
          ("2019-01-14 08:00:00", 1, 1, 'CA', 1, 'Mission', '["tag1", "tag2"]', '[{"foo": "bar"}]', 'one', 'n1'),
          ("2019-01-14 08:00:00", 1, 1, 'CA', 1, 'Dogpatch', '["tag1", "tag3"]', '[]', 'two', 'n2'),
          ("2019-01-14 08:00:00", 1, 1, 'CA', 1, 'SOMA', '[]', '[]', null, null),
          ("2019-01-15 08:00:00", 1, 1, 'MI', 3, 'Downtown', '[]', '[]', 1, 3.5),
          ("2019-01-16 08:00:00", 2, 0, 'MC', 4, 'Arcadia Planitia', '[]', '[]', x'00', null);
        """

    struct SimplePrimaryKey: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "simple_primary_key"
        var id: String
        var content: String
    }

    struct CompoundPrimaryKey: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "compound_primary_key"
        var pk1: String
        var pk2: String
        var content: String
    }

    struct ForeignKeyReference: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "foreign_key_references"
        static let labelled = belongsTo(SimplePrimaryKey.self, key: "labelled", using: ForeignKey(["foreign_key_with_label"]))
        static let blank = belongsTo(SimplePrimaryKey.self, key: "blank", using: ForeignKey(["foreign_key_with_blank_label"]))
        static let compound = belongsTo(CompoundPrimaryKey.self, key: "compoundPrimaryKey")
        var pk: String
        var foreign_key_with_label: String?
        var foreign_key_with_blank_label: String?
        var foreign_key_compound_pk1: String?
        var foreign_key_compound_pk2: String?
    }

    struct Select: Codable, FetchableRecord, PersistableRecord {
        static let databaseTableName = "select"
        struct Link: Codable, Equatable { var href: String; var label: String }
        var group: String
        var having: String
        var and: String
        var json: Link
    }

    @Test func keysOfVarcharAndCompoundPrimaryKeys() throws {
        let file = try RealDatabaseFile(Self.script, doubleQuotedStrings: true)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            // `varchar(30) primary key` is no rowid: the key is text, and
            // the integer that was inserted stays an integer.
            #expect(try db.primaryKey("simple_primary_key").rowIDColumn == nil)
            #expect(try String.fetchOne(db, sql: "SELECT typeof(id) FROM simple_primary_key WHERE content = 'hello'") == "text")
            let hello = try #require(try SimplePrimaryKey.fetchOne(db, key: "1"))
            #expect(hello.content == "hello")
            #expect(try SimplePrimaryKey.fetchOne(db, key: 1)?.content == "hello")
            #expect(try SimplePrimaryKey.fetchOne(db, key: "3")?.content == "")
            let slashes = try #require(try CompoundPrimaryKey.fetchOne(db, key: ["pk1": "a/b", "pk2": ".c-d"]))
            #expect(slashes.content == "c")
            #expect(try db.primaryKey("compound_three_primary_keys").columns == ["pk1", "pk2", "pk3"])
            let three = try Row.fetchOne(db, Table("compound_three_primary_keys").filter(key: ["pk1": "a", "pk2": "b", "pk3": "a"]))
            #expect(three?["content"] == "a-b-a")
            let partial = #expect(throws: DatabaseError.self) {
                try Row.fetchOne(db, Table("compound_three_primary_keys").filter(key: ["pk1": "a", "pk2": "b"]))
            }
            #expect(partial?.message == "table compound_three_primary_keys has no unique key on column(s) pk1, pk2")
            try CompoundPrimaryKey(pk1: "a", pk2: "b", content: "updated").update(db)
            #expect(try CompoundPrimaryKey.fetchOne(db, key: ["pk1": "a", "pk2": "b"])?.content == "updated")
            #expect(try Table("table/with/slashes.csv").fetchAll(db).map { $0["content"] as String } == ["hey"])
            #expect(try Table("123_starts_with_digits").fetchCount(db) == 1)
            #expect(try Table("table/with/slashes.csv").filter(key: 3).fetchOne(db)?["content"] == "hey")
        }
    }

    @Test func foreignKeysOverTwoColumnsAndSeveralToOneTable() throws {
        struct Reference: Decodable, FetchableRecord {
            var foreignKeyReference: ForeignKeyReference
            var labelled: SimplePrimaryKey?
            var blank: SimplePrimaryKey?
            var compoundPrimaryKey: CompoundPrimaryKey?
        }
        let file = try RealDatabaseFile(Self.script, doubleQuotedStrings: true)
        try file.open().read { db in
            let foreignKeys = try db.foreignKeys(on: "foreign_key_references")
            #expect(foreignKeys.map(\.originColumns).contains(["foreign_key_compound_pk1", "foreign_key_compound_pk2"]))
            let references = try ForeignKeyReference
                .including(optional: ForeignKeyReference.labelled)
                .including(optional: ForeignKeyReference.blank)
                .including(optional: ForeignKeyReference.compound)
                .order(Column("pk")).asRequest(of: Reference.self).fetchAll(db)
            #expect(references.map { $0.labelled?.content } == ["hello", nil])
            #expect(references.map { $0.blank?.content } == ["", nil])
            #expect(references.map { $0.compoundPrimaryKey?.content } == ["c", nil])
            // Two keys to simple_primary_key: the association needs one.
            let error = #expect(throws: DatabaseError.self) {
                try ForeignKeyReference.including(optional: ForeignKeyReference.belongsTo(SimplePrimaryKey.self)).fetchAll(db)
            }
            #expect(error?.message.map { $0.hasPrefix("Ambiguous foreign key from foreign_key_references to simple_primary_key") } == true)
            // The reverse, to the missing table, names it.
            let missing = #expect(throws: DatabaseError.self) {
                try Row.fetchAll(db, Table("custom_foreign_key_label")
                    .including(required: Table("custom_foreign_key_label").belongsTo(Table("primary_key_multiple_columns_explicit_label"))))
            }
            #expect(missing?.message?.contains("primary_key_multiple_columns_explicit_label") == true)
            let counts = try Row.fetchAll(db, SimplePrimaryKey
                .annotated(with: SimplePrimaryKey.hasMany(Table("complex_foreign_keys"), key: "f1Keys", using: ForeignKey(["f1"])).count)
                .order(Column("id")))
            #expect(counts.map { $0["f1KeyCount"] as Int } == [1, 0, 0, 0, 0])
        }
    }

    @Test func keywordNamesJSONInfinityAndBlobs() throws {
        let file = try RealDatabaseFile(Self.script, doubleQuotedStrings: true)
        let dbQueue = try file.open()
        try dbQueue.write { db in
            let select = try #require(try Select.fetchOne(db))
            #expect(select.json == Select.Link(href: "http://example.com/", label: "Example"))
            #expect(select.group == "group")
            try Select(group: "g2", having: "h2", and: "a2", json: .init(href: "https://datasette.io/", label: "Datasette")).insert(db)
            let labels = try String.fetchAll(db, Select.select(JSONColumn("json")["label"]).order(Column("group")))
            #expect(labels == ["Datasette", "Example"])
            #expect(try Select.filter(Column("having") == "h2").filter(Column("and") == "a2").fetchCount(db) == 1)
            #expect(try Select.filter(Column("group") == "g2").deleteAll(db) == 1)

            let values = try Double.fetchAll(db, sql: "SELECT value FROM infinity ORDER BY rowid")
            #expect(values == [.infinity, -.infinity, 1.5])
            // Infinity is no integer.
            #expect(throws: (any Error).self) { try Int.fetchAll(db, sql: "SELECT value FROM infinity") }
            #expect(try Double.fetchOne(db, sql: "SELECT max(value) FROM infinity") == .infinity)

            let blobs = try Data?.fetchAll(db, sql: "SELECT data FROM binary_data ORDER BY rowid")
            #expect(blobs == [Data([0xFD, 0x6A, 0x3C, 0x44]), Data([0x1E, 0x8F, 0xB8, 0xB7]), nil])
            // Bytes that are not UTF-8 are no string.
            #expect(throws: (any Error).self) { try String.fetchOne(db, sql: "SELECT data FROM binary_data WHERE rowid = 1") }
        }
    }

    @Test func untypedAndMixedColumnsAndFullText() throws {
        // Hand-written: an untyped column is read as it is stored.
        struct Facet: FetchableRecord {
            var pk: Int64
            var created: Date
            var tags: [String]
            var cityID: Int64
            var distinctSomeNull: DatabaseValue
            var n: String?
            init(row: Row) throws {
                pk = row["pk"]
                created = row["created"]
                cityID = row["_city_id"]
                distinctSomeNull = row["distinct_some_null"]
                n = row["n"]
                tags = try JSONDecoder().decode([String].self, from: Data((row["tags"] as String).utf8))
            }
        }
        let file = try RealDatabaseFile(Self.script, doubleQuotedStrings: true)
        try file.open().read { db in
            #expect(try db.columns(in: "facetable").first { $0.name == "distinct_some_null" }?.type == "")
            let facets = try Facet.fetchAll(db, sql: "SELECT * FROM facetable ORDER BY pk")
            #expect(facets.map(\.tags) == [["tag1", "tag2"], ["tag1", "tag3"], [], [], []])
            #expect(facets.map(\.distinctSomeNull) == ["one".databaseValue, "two".databaseValue, .null, 1.databaseValue, Data([0]).databaseValue])
            // A text column stores 3.5 as text.
            #expect(facets.map(\.n) == ["n1", "n2", nil, "3.5", nil])
            #expect(facets[3].created == Date(timeIntervalSince1970: 1_547_539_200))
            let perCity = try Row.fetchAll(db, sql: """
                SELECT facet_cities.name, count(*) AS n FROM facetable JOIN facet_cities ON facet_cities.id = facetable._city_id
                GROUP BY facet_cities.id ORDER BY n DESC, facet_cities.name
                """)
            #expect(perCity.map { $0["name"] as String } == ["San Francisco", "Detroit", "Memnonia"])
            let tagged = try Int.fetchOne(db, sql: "SELECT count(*) FROM facetable, json_each(facetable.tags) WHERE json_each.value = 'tag1'")
            #expect(tagged == 2)

            let matches = try Row.fetchAll(db, Table("searchable_fts").matching(FTS3Pattern(matchingAllTokensIn: "dog")).select(Column("rowid")))
            #expect(matches.map { $0["rowid"] as Int64 } == [1, 2])
            let spaced = try String.fetchAll(db, Table("searchable").select(Column("name with . and spaces")).order(Column("pk")))
            #expect(spaced == ["panther", "puma"])
        }
    }
}

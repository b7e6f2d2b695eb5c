import Foundation
import Testing
import Trellis
import TrellisPostgres

// The cells of the PostgreSQL types that have no Trellis value of their
// own: those whose text is exact read as the text that `::text` writes;
// the others throw an error that names the column, the type and the
// cast, and never give their bytes as a value.

/// A record of a table with a column of a type that Trellis does not
/// convert (`point`).
private struct Place: Decodable, FetchableRecord, TableRecord, Equatable {
    var name: String
    var location: String
}

/// A record of the types that read as their text.
private struct Host: Decodable, FetchableRecord, TableRecord, Equatable {
    var name: String
    var address: String
    var uptime: String
    var tags: String
    var mood: String
    var moods: String
}

@Suite(.enabled(if: PostgresTestServer.isAvailable, PostgresTestServer.skipMessage))
struct PostgreSQLCellTypeTests {
    /// The Trellis values and the text of the values of `sql`, a query of
    /// one column `v`, by the type's output function, as psql shows it
    /// (`format('%s', v)`: the cast of an `inet` to text writes its
    /// netmask, which its output function leaves out for a host).
    private static func valuesAndTexts(_ sql: String, setup: String? = nil) async throws -> [(DatabaseValue, String?)] {
        try await PostgresTestServer.withDatabase { database in
            if let setup {
                try await database.write { db in try db.execute(sql: setup) }
            }
            return try await database.read { db in
                try Row.fetchAll(db, sql: "SELECT v, format('%s', v) AS t FROM (\(sql)) AS q").map { row in
                    (row["v"] as DatabaseValue, row["t"] as String?)
                }
            }
        }
    }

    /// The message of the error that reading `sql` throws, if any.
    private static func errorMessage(
        _ sql: String, setup: String? = nil,
        read: @escaping @Sendable (Database, String) throws -> Void = { db, sql in _ = try Row.fetchAll(db, sql: sql) }
    ) async throws -> DatabaseError? {
        try await PostgresTestServer.withDatabase { database in
            if let setup {
                try await database.write { db in try db.execute(sql: setup) }
            }
            return try await database.read { db in
                do {
                    try read(db, sql)
                    return nil
                } catch let error as DatabaseError {
                    return error
                }
            }
        }
    }

    // MARK: - Types that throw

    @Test(arguments: [
        ("'(1,2)'::point", "point", 600),
        ("'12.34'::money", "money", 790),
        ("'a fat cat'::tsvector", "tsvector", 3614),
        ("'[1,5)'::int4range", "int4range", 3904),
        ("'{\"(1,2)\"}'::point[]", "point[]", 1017),
        ("'{10:00}'::time[]", "time without time zone[]", 1183),
        ("'101'::bit(3)", "bit", 1560),
        ("'<(0,0),1>'::circle", "circle", 718),
    ])
    func aCellOfATypeThatTrellisDoesNotConvertThrows(expression: String, name: String, oid: Int) async throws {
        let error = try #require(await Self.errorMessage("SELECT 1 AS id, \(expression) AS shape"))
        #expect(error.resultCode == .SQLITE_MISMATCH)
        #expect(error.message == """
            column "shape" has the PostgreSQL type \(name) (OID \(oid)), which Trellis does not convert: \
            cast it in the query to a type that Trellis reads, such as text (SELECT "shape"::text ...)
            """)
        #expect(error.sql == "SELECT 1 AS id, \(expression) AS shape")
    }

    @Test func aCompositeValueThrowsAndItsCastToTextIsRead() async throws {
        let setup = "CREATE TYPE pair AS (a int, b text); CREATE TABLE t (p pair); INSERT INTO t VALUES (ROW(1, 'x'))"
        let error = try #require(await Self.errorMessage("SELECT p FROM t", setup: setup))
        #expect(error.message?.hasPrefix("column \"p\" has the PostgreSQL type pair (OID ") == true)
        let anonymous = try #require(await Self.errorMessage("SELECT ROW(1, 2) AS r"))
        #expect(anonymous.message?.hasPrefix("column \"r\" has the PostgreSQL type record (OID 2249)") == true)
        let cast = try await Self.valuesAndTexts("SELECT p::text AS v FROM t", setup: setup)
        #expect(cast.map(\.0) == ["(1,x)".databaseValue])
    }

    @Test func rowsWithACellOfATypeThatTrellisDoesNotConvertThrowAndTheirCastIsRead() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: """
                    CREATE TABLE place (name TEXT NOT NULL, location POINT NOT NULL);
                    INSERT INTO place VALUES ('origin', '(0,0)'), ('far', '(1.5,-2)')
                    """)
            }
            try await database.read { db in
                let error = #expect(throws: DatabaseError.self) {
                    try Row.fetchAll(db, sql: "SELECT name, location FROM place ORDER BY name")
                }
                #expect(error?.message?.hasPrefix(#"column "location" has the PostgreSQL type point (OID 600)"#) == true)
                #expect(error?.message?.hasSuffix(#"(SELECT "location"::text ...)"#) == true)

                let stringError = #expect(throws: DatabaseError.self) {
                    try String.fetchOne(db, sql: "SELECT location FROM place WHERE name = 'far'")
                }
                #expect(stringError?.message?.contains("point (OID 600)") == true)

                // Decoding a record throws too, by the query interface
                // as by raw SQL.
                let recordError = #expect(throws: DatabaseError.self) { try Place.order(Column("name")).fetchAll(db) }
                #expect(recordError?.message?.contains(#"column "location" has the PostgreSQL type point"#) == true)

                // The casts that the error suggests.
                let rows = try Row.fetchAll(db, sql: "SELECT name, location::text FROM place ORDER BY name")
                #expect(rows.map { $0["location"] as String } == ["(1.5,-2)", "(0,0)"])
                #expect(try String.fetchOne(db, sql: "SELECT location::text FROM place WHERE name = 'far'") == "(1.5,-2)")
                let places = try Place.fetchAll(db, sql: "SELECT name, location::text AS location FROM place ORDER BY name")
                #expect(places == [Place(name: "far", location: "(1.5,-2)"), Place(name: "origin", location: "(0,0)")])
                // A NULL of any type is NULL.
                #expect(try String.fetchOne(db, sql: "SELECT NULL::point") == nil)
            }
        }
    }

    @Test func anErrorAfterTheFirstRowLeavesTheTransactionUsable() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.read { db in
                #expect(throws: DatabaseError.self) {
                    try Row.fetchAll(db, sql: "SELECT g, point(g, g) FROM generate_series(1, 3) AS g")
                }
                let answer = try Int.fetchOne(db, sql: "SELECT 42")
                #expect(answer == 42)
            }
        }
    }

    // MARK: - Types that read as their text

    @Test func intervalsReadAsTheirText() async throws {
        let literals = [
            "0", "1 second", "-1 second", "0.000001 second", "-0.000001 second", "1.5 seconds", "59.999999 seconds",
            "1 minute", "100 hours", "-100 hours 5 minutes", "1 day", "-1 day", "2 days", "1 mon", "-1 mon",
            "1 year", "-1 year", "1 year 2 mons -3 days 04:05:06.5", "-1 year -2 mons", "1 year -1 day",
            "-1 day 01:00", "1 day -01:00", "-1 day -01:00", "1 mon -1 day 1 second", "-1 mon 1 day -1 second",
            "178000000 years", "-178000000 years", "2147483647 days", "-2147483648 days",
            "2562047788 hours", "-2562047788 hours",
        ]
        let values = literals.map { "('\($0)'::interval)" }.joined(separator: ", ")
        let read = try await Self.valuesAndTexts("SELECT v FROM (VALUES \(values)) AS x(v)")
        #expect(read.count == literals.count)
        for (value, text) in read {
            #expect(value == text?.databaseValue)
        }
        let generated = try await Self.valuesAndTexts("""
            SELECT make_interval(0, m, 0, d, 0, 0, s) AS v
            FROM generate_series(-25, 25, 7) AS m, generate_series(-2, 2) AS d,
                 (VALUES (-3661.25), (-0.5), (0), (59.000001), (86400)) AS s(s)
            """)
        #expect(generated.count == 8 * 5 * 5)
        for (value, text) in generated {
            #expect(value == text?.databaseValue)
        }
        let first = try #require(generated.first)
        #expect(first.0 == "-2 years -1 mons -2 days -01:01:01.25".databaseValue)
    }

    @Test func networkAddressesReadAsTheirText() async throws {
        let literals = [
            "'1.2.3.4'::inet", "'1.2.3.4/24'::inet", "'0.0.0.0/0'::inet", "'255.255.255.255'::inet",
            "'10.0.0.0/8'::cidr", "'1.2.3.4'::cidr", "'0.0.0.0/0'::cidr",
            "'::'::inet", "'::1'::inet", "'::2'::inet", "'1::'::inet", "'1::1'::inet", "'::ffff:1.2.3.4'::inet",
            "'::1.2.3.4'::inet", "'::ffff:0:0'::inet", "'1:0:0:1:0:0:0:1'::inet", "'1:0:0:1:0:0:1:1'::inet",
            "'1:2:3:4:5:6:7:8'::inet", "'0:0:1:0:0:0:0:0'::inet", "'fe80::1:2:3:4/64'::inet",
            "'2001:db8::/32'::cidr", "'::/0'::cidr", "'abcd:ef01::'::cidr", "'::ffff:1.2.3.4/120'::inet",
        ]
        let values = literals.map { "(\($0)::inet)" }.joined(separator: ", ")
        let read = try await Self.valuesAndTexts("SELECT v FROM (VALUES \(values)) AS x(v)")
        #expect(read.count == literals.count)
        for (value, text) in read {
            #expect(value == text?.databaseValue)
        }
        // Each pattern of zero groups of an IPv6 address, with and
        // without `ffff` in the sixth group.
        let patterns = try await Self.valuesAndTexts("""
            SELECT array_to_string(ARRAY(
                       SELECT CASE WHEN i = 5 AND f THEN 'ffff'
                                   WHEN (g >> i) & 1 = 1 THEN to_hex(4096 * i + 1) ELSE '0' END
                       FROM generate_series(0, 7) AS i), ':')::inet AS v
            FROM generate_series(0, 255) AS g, (VALUES (true), (false)) AS x(f)
            """)
        #expect(patterns.count == 512)
        for (value, text) in patterns {
            #expect(value == text?.databaseValue)
        }
        let cidrs = try await Self.valuesAndTexts("SELECT ('1.2.3.4/' || g)::inet::cidr AS v FROM generate_series(0, 32) AS g")
        for (value, text) in cidrs {
            #expect(value == text?.databaseValue)
        }
    }

    @Test func arraysOfTheTypesThatReadAsTextReadAsTheirText() async throws {
        let literals = [
            "'{1,2,NULL}'::int4[]", "'{}'::int4[]", "'[0:1]={5,6}'::int8[]", "'{{1,2},{3,4}}'::int2[]",
            "'[2:3][-1:0]={{1,2},{3,4}}'::int4[]", "'{{{1}},{{2}}}'::int8[]", "'{{NULL,NULL}}'::int4[]",
            #"ARRAY['a', '', 'NULL', 'null', 'Nul', 'with space', 'q"uote', 'back\slash', '{brace}', 'comma,', E'tab\t', E'line\n', 'é', 'x y'::text]"#,
            "ARRAY[true, false, NULL]", "ARRAY['a', 'b', '']::\"char\"[]", "ARRAY['1.2.3.4'::inet, '::1', NULL]",
            "ARRAY['10.0.0.0/8'::cidr]", "ARRAY['1 day'::interval, '-01:00', '0']",
            "ARRAY['0F0E0D0C-0B0A-0908-0706-050403020100'::uuid]", #"ARRAY['{"a": [1, "x y"]}'::jsonb, 'null']"#,
            #"ARRAY['{"a": 1}'::json]"#, "ARRAY['x'::varchar, 'y z']", "ARRAY['c'::char(3)]", "ARRAY[1::oid, 4294967295]",
            "ARRAY['pg_class'::name]", "ARRAY['<a>b</a>'::xml]",
        ]
        for literal in literals {
            let read = try await Self.valuesAndTexts("SELECT \(literal) AS v")
            #expect(read.count == 1)
            for (value, text) in read {
                #expect(value == text?.databaseValue, "\(literal)")
            }
        }
        let read = try await Self.valuesAndTexts("SELECT '[0:1]={5,6}'::int8[] AS v")
        #expect(read.first?.0 == "[0:1]={5,6}".databaseValue)
    }

    // MARK: - Arrays of the types that Trellis converts

    /// Checks that each array of `literals` reads as the text that the
    /// server writes for it.
    private static func expectServerText(_ literals: [String], sourceLocation: SourceLocation = #_sourceLocation)
        async throws
    {
        for literal in literals {
            let read = try await Self.valuesAndTexts("SELECT \(literal) AS v")
            #expect(read.count == 1, sourceLocation: sourceLocation)
            for (value, text) in read {
                #expect(value == text?.databaseValue, "\(literal)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func arraysOfFloatsReadAsTheShortestTextOfTheirElements() async throws {
        let doubles = [
            "0", "-0", "1", "-1", "2", "100", "1.5", "0.1", "0.0001", "0.00001", "0.000123", "1e14", "1e15",
            "123456789012345", "1234567890123456", "999999999999999.9", "1e22", "9007199254740993", "1e100", "1e-100",
            "5e-324", "2.2250738585072014e-308", "1.7976931348623157e308", "-2.5e-5", "NaN", "Infinity", "-Infinity",
        ]
        let floats = [
            "0", "-0", "0.1", "1.5", "100000", "999999", "123456", "1234567", "1e6", "1e-4", "1.5e-5", "1e-45",
            "3.4028235e38", "-16777217", "NaN", "-Infinity",
        ]
        try await Self.expectServerText([
            "ARRAY[" + doubles.map { "'\($0)'::float8" }.joined(separator: ", ") + "]",
            "ARRAY[" + floats.map { "'\($0)'::float4" }.joined(separator: ", ") + "]",
            "'{1.5,NULL,2}'::float8[]", "'{NULL}'::float4[]", "'{}'::float8[]", "'{}'::float4[]",
            "'{{1.5,NULL},{NaN,-Infinity}}'::float8[]", "'[0:1]={0.25,3}'::float4[]",
            // Doubles of all magnitudes, with up to 17 significant digits.
            "ARRAY(SELECT sin(g) * 10 ^ (g % 61 - 30) FROM generate_series(1, 400) AS g)",
            "ARRAY(SELECT (sin(g) * 10 ^ (g % 21 - 10))::float4 FROM generate_series(1, 400) AS g)",
        ])
        let read = try await Self.valuesAndTexts("SELECT ARRAY[1.5, 2, NULL, 1e-5, 'NaN']::float8[] AS v")
        #expect(read.first?.0 == "{1.5,2,NULL,1e-05,NaN}".databaseValue)
    }

    @Test func arraysOfNumericsReadAsTheExactTextOfTheirElements() async throws {
        try await Self.expectServerText([
            "ARRAY[1.50, 0, -0.0001, 12345678901234567.89, 123456789012345678901234567890, 1e-400, 5.00]::numeric[]",
            "'{NaN,Infinity,-Infinity,NULL,1.5}'::numeric[]", "'{}'::numeric[]", "'{NULL,NULL}'::numeric[]",
            "'{{1.5,2},{NULL,-3.25}}'::numeric(10, 3)[]", "'[3:3]={7}'::numeric[]",
            "ARRAY(SELECT (g * 1.0001 ^ g - g * 7)::numeric(30, 10) FROM generate_series(-50, 50) AS g)",
        ])
        // The scale of each element, which a double would lose.
        let read = try await Self.valuesAndTexts("SELECT '{1.50,NULL,12345678901234567.89}'::numeric[] AS v")
        #expect(read.first?.0 == "{1.50,NULL,12345678901234567.89}".databaseValue)
    }

    @Test func arraysOfBytesReadAsTheHexadecimalTextOfTheirElements() async throws {
        try await Self.expectServerText([
            #"ARRAY['\x00'::bytea, '\xdeadbeef', '', NULL, 'a b,c"d']"#, "'{}'::bytea[]",
            #"ARRAY[ARRAY['\x01'::bytea, NULL], ARRAY['\xff'::bytea, '\x']]"#,
            "ARRAY(SELECT decode(lpad(to_hex(g), 2, '0'), 'hex') FROM generate_series(0, 255) AS g)",
        ])
        let read = try await Self.valuesAndTexts(#"SELECT ARRAY['\x0102'::bytea, NULL, ''] AS v"#)
        #expect(read.first?.0 == #"{"\\x0102",NULL,"\\x"}"#.databaseValue)
    }

    @Test func arraysOfDatesAndTimestampsReadAsTheTextOfTheirElements() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.read { db in
                // The text of a `TIMESTAMPTZ` depends on the session's time
                // zone; Trellis's text of its elements does not.
                try db.execute(sql: "SET LOCAL TimeZone = 'America/New_York'")
                let row = try #require(try Row.fetchOne(db, sql: """
                    SELECT '{2024-01-02,NULL,infinity,-infinity,1999-12-31}'::date[] AS dates,
                           '{"2024-01-02 03:04:05.123456",NULL,infinity}'::timestamp[] AS timestamps,
                           '{"2024-01-02 03:04:05+00","2000-01-01 00:00:00.5+02"}'::timestamptz[] AS zoned,
                           '{{"2024-01-02 03:04:05"},{NULL}}'::timestamp[] AS grid,
                           '{}'::date[] AS "noDates", '{}'::timestamptz[] AS "noTimestamps",
                           '[0:0]={2024-02-29}'::date[] AS bounded
                    """))
                #expect(row["dates"] == "{2024-01-02,NULL,infinity,-infinity,1999-12-31}".databaseValue)
                #expect(row["timestamps"] == #"{"2024-01-02 03:04:05.123",NULL,infinity}"#.databaseValue)
                #expect(row["zoned"] == #"{"2024-01-02 03:04:05.000","1999-12-31 22:00:00.500"}"#.databaseValue)
                #expect(row["grid"] == #"{{"2024-01-02 03:04:05.000"},{NULL}}"#.databaseValue)
                #expect(row["noDates"] == "{}".databaseValue)
                #expect(row["noTimestamps"] == "{}".databaseValue)
                #expect(row["bounded"] == "[0:0]={2024-02-29}".databaseValue)

                // Each element is the text of the value of the scalar.
                let elements = try Row.fetchAll(db, sql: """
                    SELECT t, t::date AS d, t::timestamptz AS z
                    FROM unnest('{"2024-01-02 03:04:05.123456","1970-01-01 00:00:00",infinity}'::timestamp[]) AS t
                    """)
                let arrays = try #require(try Row.fetchOne(db, sql: """
                    SELECT a AS t, a::date[] AS d, a::timestamptz[] AS z
                    FROM (SELECT '{"2024-01-02 03:04:05.123456","1970-01-01 00:00:00",infinity}'::timestamp[] AS a) AS q
                    """))
                for column in ["t", "d", "z"] {
                    let texts = elements.map { ($0[column] as String).contains(" ") ? "\"\($0[column] as String)\"" : $0[column] }
                    #expect(arrays[column] == ("{" + texts.joined(separator: ",") + "}").databaseValue, "\(column)")
                }
                #expect(try Date.fetchOne(db, sql: "SELECT ('{\"2024-01-02 03:04:05+00\"}'::timestamptz[])[1]")
                    == Date(timeIntervalSince1970: 1_704_164_645))
            }
        }
    }

    @Test func otherBuiltInTypesReadAsTheirValues() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.read { db in
                let row = try #require(try Row.fetchOne(db, sql: """
                    SELECT 'a'::"char" AS c, ''::"char" AS empty, '\\310'::"char" AS high,
                           4294967295::oid AS oid, '{"a": [1, 2]}'::json AS json, '{"a": [1, 2]}'::jsonb AS jsonb,
                           '<a>b</a>'::xml AS xml, 'infinity'::timestamp AS ts, '-infinity'::timestamptz AS tstz,
                           'infinity'::date AS day, '-infinity'::date AS past
                    """))
                #expect(row["c"] == "a".databaseValue)
                #expect(row["empty"] == "".databaseValue)
                #expect(row["high"] == #"\310"#.databaseValue)
                #expect(row["oid"] == Int64(4_294_967_295).databaseValue)
                #expect(row["json"] == #"{"a": [1, 2]}"#.databaseValue)
                #expect(row["jsonb"] == #"{"a": [1, 2]}"#.databaseValue)
                #expect(row["xml"] == "<a>b</a>".databaseValue)
                #expect(row["ts"] == "infinity".databaseValue)
                #expect(row["tstz"] == "-infinity".databaseValue)
                #expect(row["day"] == "infinity".databaseValue)
                #expect(row["past"] == "-infinity".databaseValue)
                // An infinite date is no `Date`.
                #expect(throws: (any Error).self) { try Date.fetchOne(db, sql: "SELECT 'infinity'::timestamp") }
                #expect(try String.fetchOne(db, sql: "SELECT '1 day 02:00'::interval") == "1 day 02:00:00")
                #expect(try String.fetchOne(db, sql: "SELECT '{a,b}'::text[]") == "{a,b}")
            }
        }
    }

    @Test func enumsTheirArraysAndDomainsReadAsTheirValues() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: """
                    CREATE TYPE mood AS ENUM ('sad', 'ok', 'very happy', 'NULL');
                    CREATE DOMAIN positive AS integer CHECK (VALUE > 0);
                    CREATE DOMAIN label AS text;
                    CREATE TABLE host (
                        name TEXT PRIMARY KEY, address INET NOT NULL, uptime INTERVAL NOT NULL,
                        tags TEXT[] NOT NULL, mood mood NOT NULL, moods mood[] NOT NULL,
                        cores positive, note label);
                    INSERT INTO host VALUES
                        ('a', '10.0.0.1', '3 days 04:00', '{web,"eu west"}', 'ok', '{sad,"very happy",NULL,"NULL"}', 4, 'x'),
                        ('b', '::1', '00:00:01.5', '{}', 'very happy', '{}', NULL, NULL)
                    """)
            }
            let expected = [
                Host(
                    name: "a", address: "10.0.0.1", uptime: "3 days 04:00:00", tags: #"{web,"eu west"}"#, mood: "ok",
                    moods: #"{sad,"very happy",NULL,"NULL"}"#),
                Host(name: "b", address: "::1", uptime: "00:00:01.5", tags: "{}", mood: "very happy", moods: "{}"),
            ]
            // Twice: the second access knows the enum from the first.
            for _ in 0..<2 {
                try await database.read { db in
                    #expect(try Host.order(Column("name")).fetchAll(db) == expected)
                    let rows = try Row.fetchAll(db, sql: "SELECT mood, cores, note FROM host ORDER BY name")
                    #expect(rows.map { $0["mood"] as String } == ["ok", "very happy"])
                    #expect(rows.map { $0["cores"] as Int? } == [4, nil])
                    #expect(rows.map { $0["note"] as String? } == ["x", nil])
                    #expect(try String.fetchOne(db, sql: "SELECT 'sad'::mood") == "sad")
                }
            }
        }
    }

    @Test func extensionTypesThatSendTextReadAsText() async throws {
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: """
                    CREATE EXTENSION IF NOT EXISTS citext;
                    CREATE TABLE account (email CITEXT PRIMARY KEY, aliases CITEXT[] NOT NULL);
                    INSERT INTO account VALUES ('Ann@Example.com', '{a@x.org,"B C"}')
                    """)
            }
            try await database.read { db in
                let row = try #require(try Row.fetchOne(db, sql: "SELECT email, aliases FROM account WHERE email = 'ann@example.com'"))
                #expect(row["email"] as String == "Ann@Example.com")
                #expect(row["aliases"] as String == #"{a@x.org,"B C"}"#)
            }
        }
    }

    @Test func numericsKeepEveryDigit() async throws {
        struct Payment: Codable, FetchableRecord, PersistableRecord, Equatable {
            var id: Int64
            var amount: Decimal
        }
        try await PostgresTestServer.withDatabase { database in
            try await database.write { db in
                try db.execute(sql: "CREATE TABLE payment (id BIGINT PRIMARY KEY, amount NUMERIC(40, 2))")
                let payment = Payment(id: 1, amount: Decimal(string: "12345678901234567.89")!)
                try payment.insert(db)
                #expect(try Payment.fetchOne(db, key: 1) == payment)

                let row = try #require(try Row.fetchOne(db, sql: """
                    SELECT 5.00 AS integral, 19.99 AS price, -0.0001 AS small,
                           12345678901234567.89 AS long, 123456789012345678901234567890 AS huge,
                           1e-400::numeric AS tiny, 'NaN'::numeric AS nan, '-Infinity'::numeric AS negativeInfinity
                    """))
                #expect(row["integral"] == Int64(5).databaseValue)
                #expect(row["price"] == 19.99.databaseValue)
                #expect(row["small"] == (-0.0001).databaseValue)
                #expect(row["long"] == "12345678901234567.89".databaseValue)
                #expect(row["huge"] == "123456789012345678901234567890".databaseValue)
                #expect(row["tiny"] == ("0." + String(repeating: "0", count: 399) + "1").databaseValue)
                #expect((row["nan"] as Double).isNaN)
                #expect(row["negativeInfinity"] as Double == -.infinity)
                // A double reads the nearest value; an integer does not read a fraction.
                #expect(row["long"] as Double == 12345678901234567.89)
                #expect(throws: (any Error).self) { try Int64.fetchOne(db, sql: "SELECT 123456789012345678901234567890") }
            }
        }
    }
}

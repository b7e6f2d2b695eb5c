import Foundation
import Logging
import PostgresNIO

/// The server of the benchmarks, named by `TRELLIS_POSTGRES_URL`
/// (`postgres://user@127.0.0.1:port/database`, as
/// `.ci/postgres-server start` prints it).
struct Server: Sendable {
    var host: String
    var port: Int
    var username: String
    var password: String?
    var database: String?

    static let logger = Logger(label: "TrellisPostgresBenchmarks")

    init(environment: [String: String]) throws {
        guard let text = environment["TRELLIS_POSTGRES_URL"], let url = URLComponents(string: text), let host = url.host else {
            throw BenchmarkError("TRELLIS_POSTGRES_URL is not set, or is not a URL: eval \"$(.ci/postgres-server start)\" starts a server")
        }
        self.host = host
        port = url.port ?? 5432
        username = url.user ?? "postgres"
        password = url.password
        database = url.path.isEmpty ? nil : String(url.path.dropFirst())
    }

    /// The configuration of a client of the server.
    var clientConfiguration: PostgresClient.Configuration {
        var configuration = PostgresClient.Configuration(
            host: host, port: port, username: username, password: password, database: database, tls: .disable)
        configuration.options.maximumConnections = 2
        return configuration
    }
}

/// Creates the tables that the workloads read and write, with raw
/// postgres-nio, before anything is timed. The values are those of the
/// SQLite benchmarks' fixture.
enum Fixture {
    static func create(on connection: PostgresConnection, sizes: Sizes) async throws {
        let itemColumns = (1...9).map { "\"c\($0)\" BIGINT NOT NULL" }.joined(separator: ", ")
        let statements = [
            #"DROP TABLE IF EXISTS "item", "insertedItem", "book", "author""#,
            #"CREATE TABLE "item" ("id" BIGINT PRIMARY KEY, "# + itemColumns + ")",
            #"CREATE TABLE "insertedItem" ("id" BIGINT PRIMARY KEY, "# + itemColumns + ")",
            #"CREATE TABLE "author" ("id" BIGINT PRIMARY KEY, "name" TEXT NOT NULL)"#,
            #"""
            CREATE TABLE "book" ("id" BIGINT PRIMARY KEY, "authorId" BIGINT NOT NULL REFERENCES "author"("id"),
              "title" TEXT NOT NULL, "year" BIGINT NOT NULL)
            """#,
            #"CREATE INDEX "book_authorId" ON "book"("authorId")"#,
            #"INSERT INTO "item" SELECT i, "# + (2...10).map { "i * \($0) % 1000" }.joined(separator: ", ")
                + " FROM generate_series(1, \(max(sizes.rows, sizes.lookups))) AS i",
            #"INSERT INTO "author" SELECT a, 'Author ' || a FROM generate_series(1, \#(sizes.authors)) AS a"#,
            #"""
            INSERT INTO "book" SELECT b, (b - 1) % \#(sizes.authors) + 1, 'Book ' || b, 1900 + b % 120
            FROM generate_series(1, \#(sizes.books)) AS b
            """#,
            "ANALYZE",
        ]
        for statement in statements {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: Server.logger)
        }
    }

    /// The setup of a workload, outside the timed part: W1 inserts into an
    /// empty table, with no dead rows of the previous run.
    static func prepare(_ workload: String, on connection: PostgresConnection) async throws {
        if baseWorkload(of: workload) == "W1" {
            try await connection.query(#"TRUNCATE "insertedItem""#, logger: Server.logger)
        }
    }

    /// The checksum of what a write workload left in the database.
    static func verification(_ workload: String, on connection: PostgresConnection) async throws -> Int? {
        guard baseWorkload(of: workload) == "W1" else { return nil }
        let rows = try await connection.query(
            #"""
            SELECT COUNT(*)::BIGINT * 1000000 + COALESCE(SUM("id" + "c1" + "c2" + "c3" + "c4" + "c5" + "c6" + "c7" + "c8" + "c9"), 0)::BIGINT
            FROM "insertedItem"
            """#,
            logger: Server.logger)
        for try await checksum in rows.decode(Int.self) {
            return checksum
        }
        throw BenchmarkError("\(workload): the verification query returned no row")
    }
}

struct BenchmarkError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

import Foundation
import PostgresNIO
import Testing
import TrellisPostgres

/// The PostgreSQL server of the tests, named by `TRELLIS_POSTGRES_URL`
/// (`.ci/postgres-server start` prints it). Without it the PostgreSQL
/// tests are skipped with a message, unless `TRELLIS_POSTGRES_REQUIRED=1`
/// (CI), where its absence fails.
enum PostgresTestServer {
    static let environment = ProcessInfo.processInfo.environment

    /// The URL of the server, if any.
    static let url: URLComponents? = environment["TRELLIS_POSTGRES_URL"].flatMap(URLComponents.init(string:))

    static let isRequired = environment["TRELLIS_POSTGRES_REQUIRED"] == "1"

    static let isAvailable = url != nil

    static let skipMessage: Comment =
        "No PostgreSQL server: set TRELLIS_POSTGRES_URL (eval \"$(.ci/postgres-server start)\") to run these tests"

    struct MissingServer: Error, CustomStringConvertible {
        var description: String
    }

    static func configuration(searchPath: String?, timeZone: String? = nil) throws -> PostgresClient.Configuration {
        guard let url, let host = url.host else {
            throw MissingServer(description: "TRELLIS_POSTGRES_URL is not set, or is not a URL")
        }
        var configuration = PostgresClient.Configuration(
            host: host, port: url.port ?? 5432, username: url.user ?? "postgres", password: url.password,
            database: url.path.isEmpty ? nil : String(url.path.dropFirst()), tls: .disable)
        configuration.options.maximumConnections = 4
        if let searchPath {
            configuration.options.additionalStartupParameters.append(("search_path", searchPath))
        }
        if let timeZone {
            configuration.options.additionalStartupParameters.append(("TimeZone", timeZone))
        }
        return configuration
    }

    /// Runs `body` with a database whose tables go to a schema of their
    /// own, dropped afterwards: tests that run at the same time do not
    /// see each other's tables.
    /// Its sessions start in `timeZone`, when given.
    static func withDatabase<T: Sendable>(
        timeZone: String? = nil, _ body: (PostgreSQLDatabase) async throws -> T) async throws -> T
    {
        let schema = "test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let client = PostgresClient(configuration: try configuration(searchPath: schema, timeZone: timeZone))
        return try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { await client.run() }
            defer { group.cancelAll() }
            let database = PostgreSQLDatabase(client: client)
            try await database.write { db in try db.execute(sql: "CREATE SCHEMA \(schema)") }
            do {
                let value = try await body(database)
                try await database.write { db in try db.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
                return value
            } catch {
                _ = try? await database.write { db in try db.execute(sql: "DROP SCHEMA \(schema) CASCADE") }
                throw error
            }
        }
    }
}

@Suite struct PostgresTestServerTests {
    /// In CI (`TRELLIS_POSTGRES_REQUIRED=1`), a missing or unreachable
    /// server fails instead of skipping the PostgreSQL tests.
    @Test(.enabled(if: PostgresTestServer.isRequired, "TRELLIS_POSTGRES_REQUIRED is not set"))
    func theRequiredServerIsReachable() async throws {
        #expect(PostgresTestServer.url != nil, "TRELLIS_POSTGRES_REQUIRED=1 but TRELLIS_POSTGRES_URL is not set")
        let one = try await PostgresTestServer.withDatabase { database in
            try await database.read { db in try Int.fetchOne(db, sql: "SELECT 1") }
        }
        #expect(one == 1)
    }
}

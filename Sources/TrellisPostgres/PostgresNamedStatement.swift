import NIOCore
import PostgresNIO

/// A statement that postgres-nio runs as a named statement of the
/// protocol: prepared once on its connection (Parse, Describe), then run
/// with Bind and Execute alone.
///
/// postgres-nio runs named statements through `PostgresPreparedStatement`,
/// whose name, SQL and parameter types are static, made for SQL known when
/// the app is compiled. Trellis prepares the SQL of its requests and
/// records, known when they run: the static requirements read them from a
/// task-local value, which `run(on:logger:)` sets around the call. postgres-nio
/// reads them before it sends anything, and keeps its own cache of the
/// statements of the connection by name: the caller gives each SQL a name
/// of its own, never given to another SQL (see ``PostgresStatementCache``).
struct PostgresNamedStatement: Sendable {
    var name: String
    var sql: String
    /// The types declared in the Parse message: `bytea` for blobs, 0 for
    /// the other values, whose type the server infers from their place.
    var parameterTypes: [PostgresDataType]
    var bindings: PostgresBindings

    @TaskLocal static var current: PostgresNamedStatement?

    /// Runs the statement and waits for its rows, on the thread of the
    /// caller, which is not an event loop.
    ///
    /// postgres-nio gives the rows of a named statement, but not its command
    /// tag: the caller runs so only the statements whose number of changed
    /// rows is known from their rows. (Its `execute` of statements without
    /// rows reads the tag before the end of the rows, and traps.)
    ///
    /// - throws: The `PSQLError` of postgres-nio.
    func run(on connection: PostgresConnection, logger: Logger) throws -> [PostgresRow] {
        let promise = connection.eventLoop.makePromise(of: [PostgresRow].self)
        let operation: @Sendable () async throws -> [PostgresRow] = { [self] in
            try await Self.$current.withValue(self) {
                var rows: [PostgresRow] = []
                for try await row in try await connection.execute(Query(bindings: bindings), logger: logger) {
                    rows.append(row)
                }
                return rows
            }
        }
        if #available(macOS 26.0, iOS 26.0, watchOS 26.0, tvOS 26.0, visionOS 26.0, *) {
            // The task sends the statement on this thread, as an unnamed
            // statement is sent, instead of waiting for a thread of the
            // concurrency pool.
            Task.immediate {
                do {
                    promise.succeed(try await operation())
                } catch {
                    promise.fail(error)
                }
            }
        } else {
            promise.completeWithTask(operation)
        }
        return try promise.futureResult.wait()
    }

    /// The statement of postgres-nio, which returns rows.
    private struct Query: PostgresPreparedStatement {
        static var name: String { current?.name ?? "" }
        static var sql: String { current?.sql ?? "" }
        static var bindingDataTypes: [PostgresDataType] { current?.parameterTypes ?? [] }

        let bindings: PostgresBindings

        func makeBindings() throws -> PostgresBindings { bindings }

        func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
    }

}

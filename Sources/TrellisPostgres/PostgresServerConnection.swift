import PostgresNIO
import Trellis

/// The connection of one access of a ``PostgreSQLDatabase``, under the
/// ``Trellis/Database`` that the access's closure receives: it runs the
/// statements of that database on a leased postgres-nio connection.
///
/// Each statement is sent on its own and waited for on the thread of the
/// access, and its rows are copied as Trellis values (see
/// `DatabaseValue+PostgresCell.swift`).
final class PostgresServerConnection: DatabaseServerConnection {
    private let connection: PostgresNIO.PostgresConnection
    private let logger: Logger
    /// The types of the database that the answers held, shared by the
    /// accesses of a ``PostgreSQLDatabase``.
    let userTypes: PostgresUserTypes

    init(connection: PostgresNIO.PostgresConnection, logger: Logger, userTypes: PostgresUserTypes) {
        self.connection = connection
        self.logger = logger
        self.userTypes = userTypes
    }

    var dialect: SQLDialect { .postgreSQL }

    /// The commands whose row count is a number of changed rows.
    private static let changingCommands: Set<String> = ["INSERT", "UPDATE", "DELETE", "MERGE"]

    func run(_ statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> DatabaseServerRows {
        var bindings = PostgresBindings(capacity: statement.values.count)
        for value in statement.values {
            bindings.appendValue(PostgresParameter(value))
        }
        let query = PostgresQuery(unsafeSQL: statement.sql, binds: bindings)
        // The rows are converted on the event loop of the connection as
        // they arrive, while the server sends the next ones, rather than
        // all at once after the last one.
        let answer = Answer()
        let metadata: PostgresQueryMetadata
        do {
            metadata = try connection.query(query, logger: logger) { row in answer.append(row) }.wait()
        } catch let error as PSQLError {
            throw DatabaseError(error, sql: sql, arguments: arguments)
        }
        // PostgreSQL answers the COMMIT of a transaction that a failed
        // statement aborted with a rollback, and no error: the caller that
        // went on after the error must not believe its writes committed.
        if metadata.command == "ROLLBACK", Self.commitWords.contains(Self.firstWord(of: statement.sql)) {
            throw DatabaseError(
                sqlState: "25P02", message: "the transaction was rolled back: a statement failed in it", sql: sql,
                arguments: arguments)
        }
        if let error = answer.error { throw error }
        if !answer.unresolved.isEmpty {
            try resolve(answer, sql: sql, arguments: arguments)
        }
        let changesCount = Self.changingCommands.contains(metadata.command) ? metadata.rows : nil
        return DatabaseServerRows(
            columnNames: answer.names, values: answer.values, rowCount: answer.rowCount, changesCount: changesCount)
    }

    /// The rows of an answer, converted to Trellis values as they arrive.
    ///
    /// Only the event loop of the connection writes it, until the query
    /// ends; the thread of the access reads it once it has waited for the
    /// end, which orders the accesses: they are not checked at run time
    /// (a check for each value costs more than its copy).
    private final class Answer: @unchecked Sendable {
        @exclusivity(unchecked) var names: [String] = []
        @exclusivity(unchecked) var values: [DatabaseValue] = []
        @exclusivity(unchecked) var rowCount = 0
        /// The first cell that Trellis could not read: the statement runs
        /// to its end all the same, and the error is thrown then.
        @exclusivity(unchecked) var error: (any Error)?
        /// The cells of the types that only the catalog tells, NULL in
        /// `values` until they are resolved.
        @exclusivity(unchecked) var unresolved: [UnresolvedCell] = []
        /// Whether a cell of a built-in type that Trellis does not convert
        /// came: it is the last of `unresolved`, whose resolution throws,
        /// and the rows after it are not read.
        @exclusivity(unchecked) var isUnconvertible = false

        /// The identifiers of the types that a database defines start at
        /// this one (`FirstNormalObjectId`): the types below are built in.
        private static let firstUserType: UInt32 = 16384

        func append(_ row: PostgresRow) {
            guard error == nil, !isUnconvertible else { return }
            if rowCount == 0 {
                names = row.map(\.columnName)
            }
            do {
                for cell in row {
                    if let value = try DatabaseValue(cell) {
                        values.append(value)
                    } else {
                        // `DatabaseValue(cell)` gives a value for NULL.
                        let bytes = cell.bytes ?? ByteBuffer()
                        let type = cell.dataType.rawValue
                        unresolved.append(UnresolvedCell(
                            index: values.count, columnName: cell.columnName, type: type, bytes: bytes))
                        values.append(.null)
                        if type < Self.firstUserType {
                            isUnconvertible = true
                            return
                        }
                    }
                }
                rowCount += 1
            } catch {
                self.error = error
            }
        }
    }

    /// A cell whose type Trellis does not know without the catalog.
    struct UnresolvedCell {
        /// The index of the cell in the values of the answer.
        var index: Int
        var columnName: String
        /// The identifier (OID) of the cell's type.
        var type: UInt32
        var bytes: ByteBuffer
    }

    /// Converts the cells of the types that only the catalog tells: the
    /// enums and their arrays are their text; the other types throw,
    /// naming the column, the type, and the cast that reads it.
    private func resolve(_ answer: Answer, sql: String, arguments: StatementArguments) throws {
        let types = try userTypes.types(Set(answer.unresolved.map(\.type))) { missing in
            try lookUpTypes(missing)
        }
        var form = PostgresTextForm()
        form.userTypes = types.mapValues(\.kind)
        for cell in answer.unresolved {
            let text: String?
            do {
                text = try form.text(of: cell.bytes, type: cell.type)
            } catch {
                throw DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "column \(cell.columnName) holds bytes that are not a value of its PostgreSQL type "
                        + "\(types[cell.type]?.name ?? "") (OID \(cell.type))",
                    sql: sql, arguments: arguments)
            }
            guard let text else {
                let name = types[cell.type]?.name ?? "of OID \(cell.type)"
                let quotedColumn = "\"" + cell.columnName.replacingOccurrences(of: "\"", with: "\"\"") + "\""
                throw DatabaseError(
                    resultCode: .SQLITE_MISMATCH,
                    message: "column \(quotedColumn) has the PostgreSQL type \(name) (OID \(cell.type)), "
                        + "which Trellis does not convert: cast it in the query to a type that Trellis reads, "
                        + "such as text (SELECT \(quotedColumn)::text ...)",
                    sql: sql, arguments: arguments)
            }
            answer.values[cell.index] = text.databaseValue
        }
    }

    /// The functions that send the values of a type in binary form as
    /// their text: those of the text types, and of the extensions' types
    /// that store text (`citext`).
    private static let textSendFunctions: Set<String> = ["textsend", "varcharsend", "bpcharsend", "namesend", "citextsend"]

    /// Reads the given types in the catalog: their names, and whether
    /// their binary form is their text (enums, `citext`) or they are
    /// arrays.
    private func lookUpTypes(_ oids: Set<UInt32>) throws -> [UInt32: PostgresUserTypes.UserType] {
        let rows = try self.rows("""
            SELECT t.oid::int8 AS oid, format_type(t.oid, NULL) AS name, t.typtype::text AS kind, s.proname::text AS send,
                   CASE WHEN t.typsend = 'pg_catalog.array_send'::regproc THEN t.typelem ELSE 0 END::int8 AS element,
                   e.typtype::text AS "elementKind", es.proname::text AS "elementSend"
            FROM pg_catalog.pg_type t
            LEFT JOIN pg_catalog.pg_proc s ON s.oid = t.typsend
            LEFT JOIN pg_catalog.pg_type e ON e.oid = t.typelem AND t.typsend = 'pg_catalog.array_send'::regproc
            LEFT JOIN pg_catalog.pg_proc es ON es.oid = e.typsend
            WHERE t.oid = ANY (string_to_array(?, ',')::oid[])
            """, arguments: [oids.map(String.init).joined(separator: ",")])
        func isText(kind: String?, send: String?) -> Bool {
            kind == "e" || send.map(Self.textSendFunctions.contains) == true
        }
        var types: [UInt32: PostgresUserTypes.UserType] = [:]
        for row in rows {
            guard let oid = UInt32(exactly: try row.decode(Int64.self, forColumn: "oid")) else { continue }
            let name: String = try row.decode(forColumn: "name")
            let element = UInt32(exactly: try row.decode(Int64.self, forColumn: "element")) ?? 0
            let kind: PostgresTextForm.UserType
            if isText(kind: try row.decode(forColumn: "kind"), send: try row.decodeIfPresent(forColumn: "send")) {
                kind = .text
            } else if element != 0 {
                kind = .array(element: element)
                if isText(kind: try row.decodeIfPresent(forColumn: "elementKind"), send: try row.decodeIfPresent(forColumn: "elementSend")) {
                    types[element] = types[element] ?? PostgresUserTypes.UserType(name: "", kind: .text)
                }
            } else {
                kind = .other
            }
            types[oid] = PostgresUserTypes.UserType(name: name, kind: kind)
        }
        // A type that the catalog no longer has: Trellis does not read it.
        for oid in oids where types[oid] == nil {
            types[oid] = PostgresUserTypes.UserType(name: "of OID \(oid)", kind: .other)
        }
        return types
    }

    /// The words that commit a transaction: `END` is PostgreSQL's synonym
    /// of `COMMIT`.
    private static let commitWords: Set<String> = ["COMMIT", "END"]

    private static func firstWord(of sql: String) -> String {
        sql.drop { $0.isWhitespace }.prefix { $0.isLetter }.uppercased()
    }

    func columnNames(of statement: DialectStatement, sql: String, arguments: StatementArguments) throws -> [String] {
        // Trellis asks for the columns of queries only, which a subquery
        // takes. A server tells the columns with the rows, and a query may return
        // none: this one returns one row, of NULLs, in the query's columns,
        // which it does not run.
        var described = statement
        described.sql = "SELECT trellis_columns.* FROM (VALUES (1)) AS trellis_row "
            + "LEFT JOIN (\(statement.sql)) AS trellis_columns ON FALSE"
        return try run(described, sql: sql, arguments: arguments).columnNames
    }

    /// The rows of a catalog query, written with `?` for its arguments.
    func rows(_ sql: String, arguments: StatementArguments) throws -> [Row] {
        var rows: [Row] = []
        for statement in try dialect.statements(sql, arguments: arguments) {
            let answer = try run(statement, sql: sql, arguments: arguments)
            let width = answer.columnNames.count
            rows = (0..<answer.rowCount).map { index in
                Row(columns: Array(zip(answer.columnNames, answer.values[(index * width)..<((index + 1) * width)])))
            }
        }
        return rows
    }
}

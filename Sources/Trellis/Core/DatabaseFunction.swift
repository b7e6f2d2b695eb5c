import Foundation
import TrellisSQLite

/// An SQL function written in Swift, added to a connection with
/// ``Database/add(function:)``.
///
/// ```swift
/// let succ = DatabaseFunction("succ", argumentCount: 1, pure: true) { dbValues in
///     guard let int = Int.fromDatabaseValue(dbValues[0]) else { return nil }
///     return int + 1
/// }
///
/// var config = Configuration()
/// config.prepareDatabase { db in db.add(function: succ) }
/// let dbQueue = try DatabaseQueue(path: path, configuration: config)
///
/// try dbQueue.read { db in
///     try Int.fetchOne(db, sql: "SELECT succ(1)")               // 2
///     try Int.fetchOne(db, Player.select(succ(Column("score"))))  // in the query interface
/// }
/// ```
///
/// An error thrown by the function fails the statement that calls it, with
/// the error's description as its message.
///
/// A function can also be an aggregate, such as `SUM`: see
/// ``DatabaseAggregate``.
public final class DatabaseFunction: Hashable, @unchecked Sendable {
    // Immutable: shared by every connection the function is added to.

    /// The name of the function in SQL.
    public let name: String

    /// The number of arguments; nil for any number.
    public let argumentCount: Int?

    /// Whether the function always returns the same result for the same
    /// arguments: SQLite may then use it in indexes and CHECK constraints.
    public let isPure: Bool

    /// What SQLite calls: a function of one row's arguments, or an aggregate
    /// that steps over the rows of a group.
    enum Kind {
        case function(([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
        case aggregate(any DatabaseAggregate.Type)
    }

    let kind: Kind

    /// A function.
    ///
    /// - parameter name: the name of the function in SQL.
    /// - parameter argumentCount: the number of arguments; nil for any
    ///   number.
    /// - parameter pure: whether the result depends on the arguments only.
    /// - parameter function: the result for the given arguments.
    public init(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false,
        function: @escaping @Sendable ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .function(function)
    }

    /// An aggregate function: a new `Aggregate` steps over the rows of each
    /// group, and its `finalize()` gives the group's result.
    ///
    /// ```swift
    /// let maxLength = DatabaseFunction("maxLength", argumentCount: 1, pure: true, aggregate: MaxLength.self)
    /// ```
    ///
    /// - parameter name: the name of the aggregate in SQL.
    /// - parameter argumentCount: the number of arguments; nil for any
    ///   number.
    /// - parameter pure: whether the result depends on the arguments only.
    /// - parameter aggregate: the type of the aggregate, made anew for
    ///   each group.
    public init<Aggregate: DatabaseAggregate>(
        _ name: String, argumentCount: Int? = nil, pure: Bool = false, aggregate: Aggregate.Type)
    {
        self.name = name
        self.argumentCount = argumentCount
        self.isPure = pure
        self.kind = .aggregate(aggregate)
    }

    /// Functions are identified by name and number of arguments, as SQLite
    /// identifies them (case-insensitively).
    public static func == (lhs: DatabaseFunction, rhs: DatabaseFunction) -> Bool {
        lhs.name.lowercased() == rhs.name.lowercased() && lhs.argumentCount == rhs.argumentCount
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(name.lowercased())
        hasher.combine(argumentCount)
    }

    /// Runs a plain function on SQLite's arguments, and gives SQLite its
    /// result.
    fileprivate func call(
        _ body: ([DatabaseValue]) throws -> (any DatabaseValueConvertible)?,
        _ context: OpaquePointer?, _ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?)
    {
        do {
            try Self.setResult(body(Self.arguments(argc, argv)), of: context)
        } catch {
            Self.setError(error, of: context)
        }
    }

    /// The function that SQLite calls, from its user data.
    static func function(of context: OpaquePointer?) -> DatabaseFunction? {
        guard let userData = sqlite3_user_data(context) else { return nil }
        return Unmanaged<DatabaseFunction>.fromOpaque(userData).takeUnretainedValue()
    }

    static func arguments(_ argc: CInt, _ argv: UnsafeMutablePointer<OpaquePointer?>?) -> [DatabaseValue] {
        var arguments: [DatabaseValue] = []
        arguments.reserveCapacity(Int(argc))
        for index in 0..<Int(argc) {
            arguments.append(DatabaseValue(sqliteValue: argv?[index]))
        }
        return arguments
    }

    static func setResult(_ value: (any DatabaseValueConvertible)?, of context: OpaquePointer?) {
        switch (value?.databaseValue ?? .null).storage {
        case .null:
            sqlite3_result_null(context)
        case .int64(let value):
            sqlite3_result_int64(context, value)
        case .double(let value):
            sqlite3_result_double(context, value)
        case .string(var value):
            value.withUTF8 { buffer in
                buffer.withMemoryRebound(to: CChar.self) { chars in
                    if let base = chars.baseAddress {
                        sqlite3_result_text(context, base, CInt(chars.count), SQLITE_TRANSIENT)
                    } else {
                        sqlite3_result_text(context, "", 0, SQLITE_TRANSIENT)
                    }
                }
            }
        case .blob(let data):
            data.withUnsafeBytes { buffer in
                if let base = buffer.baseAddress {
                    sqlite3_result_blob(context, base, CInt(buffer.count), SQLITE_TRANSIENT)
                } else {
                    sqlite3_result_zeroblob(context, 0)
                }
            }
        }
    }

    static func setError(_ error: any Error, of context: OpaquePointer?) {
        if let error = error as? DatabaseError {
            sqlite3_result_error(context, error.message ?? "\(error)", -1)
            sqlite3_result_error_code(context, error.resultCode.primaryResultCode.rawValue)
        } else {
            sqlite3_result_error(context, "\(error)", -1)
        }
    }
}

extension DatabaseFunction {
    /// Swift's `capitalized`: every connection has it, as
    /// `swiftCapitalizedString(x)`; `Column("name").capitalized` calls it.
    public static let capitalize = stringFunction("swiftCapitalizedString", pure: true) { $0.capitalized }

    /// Swift's `lowercased()`, Unicode-aware unlike SQLite's `LOWER`.
    public static let lowercase = stringFunction("swiftLowercaseString", pure: true) { $0.lowercased() }

    /// Swift's `uppercased()`, Unicode-aware unlike SQLite's `UPPER`.
    public static let uppercase = stringFunction("swiftUppercaseString", pure: true) { $0.uppercased() }

    /// Swift's `localizedCapitalized`, in the current locale.
    public static let localizedCapitalize = stringFunction("swiftLocalizedCapitalizedString", pure: false) { $0.localizedCapitalized }

    /// Swift's `localizedLowercase`, in the current locale.
    public static let localizedLowercase = stringFunction("swiftLocalizedLowercaseString", pure: false) { $0.localizedLowercase }

    /// Swift's `localizedUppercase`, in the current locale.
    public static let localizedUppercase = stringFunction("swiftLocalizedUppercaseString", pure: false) { $0.localizedUppercase }

    /// The functions every connection has.
    static let builtIn: [DatabaseFunction] = [
        capitalize, lowercase, uppercase, localizedCapitalize, localizedLowercase, localizedUppercase,
    ]

    /// Whether SQLite may call the function from the schema of a file
    /// that ``Configuration/defensive`` does not trust (`SQLITE_INNOCUOUS`):
    /// Trellis's own functions only, which change the case of a string and
    /// nothing else. A database whose generated columns call them can then
    /// still be opened defensively.
    var isInnocuous: Bool {
        Self.builtIn.contains { $0 === self }
    }

    /// A function of one text argument; other values pass through.
    private static func stringFunction(
        _ name: String, pure: Bool, _ transform: @escaping @Sendable (String) -> String) -> DatabaseFunction
    {
        DatabaseFunction(name, argumentCount: 1, pure: pure) { values in
            guard case .string(let string) = values[0].storage else { return values[0] }
            return transform(string)
        }
    }
}

extension Database {
    /// Adds an SQL function to the connection, or replaces the function of
    /// the same name and number of arguments.
    ///
    /// ```swift
    /// db.add(function: succ)
    /// try Int.fetchOne(db, sql: "SELECT succ(1)") // 2
    /// ```
    public func add(function: DatabaseFunction) {
        guard let connection = sqliteConnection else {
            recordUnsupportedFeature("add(function:)")
            return
        }
        let flags = SQLITE_UTF8 | (function.isPure ? SQLITE_DETERMINISTIC : 0) | (function.isInnocuous ? SQLITE_INNOCUOUS : 0)
        // SQLite keeps the function until it is replaced or the connection
        // closes, then calls the destructor, which releases it.
        let userData = Unmanaged.passRetained(function).toOpaque()
        let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { userData in
            guard let userData else { return }
            Unmanaged<DatabaseFunction>.fromOpaque(userData).release()
        }
        switch function.kind {
        case .function:
            sqlite3_create_function_v2(
                connection, function.name, CInt(clamping: function.argumentCount ?? -1), flags, userData,
                { context, argc, argv in
                    guard let function = DatabaseFunction.function(of: context),
                          case .function(let body) = function.kind else { return }
                    function.call(body, context, argc, argv)
                },
                nil, nil, release)
        case .aggregate:
            sqlite3_create_function_v2(
                connection, function.name, CInt(clamping: function.argumentCount ?? -1), flags, userData,
                nil,
                { context, argc, argv in AggregateState.step(context, argc, argv) },
                { context in AggregateState.finalize(context) },
                release)
        }
    }

    /// Removes an SQL function from the connection.
    public func remove(function: DatabaseFunction) {
        guard let connection = sqliteConnection else {
            recordUnsupportedFeature("remove(function:)")
            return
        }
        sqlite3_create_function_v2(
            connection, function.name, CInt(clamping: function.argumentCount ?? -1), SQLITE_UTF8, nil, nil, nil, nil, nil)
    }
}

/// A type that tells what SQLite can not introspect: the primary keys of
/// views.
///
/// ```swift
/// struct GameSchemaSource: DatabaseSchemaSource {
///     func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
///         view.name == "captain" ? ["id"] : nil
///     }
/// }
///
/// var config = Configuration()
/// config.schemaSource = GameSchemaSource()
/// let dbQueue = try DatabaseQueue(configuration: config)
/// // SELECT * FROM captain WHERE id = 'alice'
/// let alice = try dbQueue.read { db in try Captain.find(db, id: "alice") }
/// ```
public protocol DatabaseSchemaSource: Sendable {
    /// The columns of the primary key of a view, or nil when the view has
    /// no primary key.
    ///
    /// - Throws: Any error, for a view the source cannot describe: the
    ///   operation that needed the primary key throws it.
    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]?
}

extension DatabaseSchemaSource {
    /// Returns nil: views have no primary key by default.
    ///
    /// - Throws: Never.
    public func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        nil
    }

    /// A schema source that asks this one, then `other` when this one has
    /// no answer.
    ///
    /// ```swift
    /// config.schemaSource = GameSchemaSource().then(ScoreSchemaSource())
    /// ```
    public func then(_ other: some DatabaseSchemaSource) -> some DatabaseSchemaSource {
        ChainedSchemaSource(first: self, second: other)
    }
}

private struct ChainedSchemaSource<First: DatabaseSchemaSource, Second: DatabaseSchemaSource>: DatabaseSchemaSource {
    let first: First
    let second: Second

    func columnsForPrimaryKey(_ db: Database, inView view: DatabaseObjectID) throws -> [String]? {
        try first.columnsForPrimaryKey(db, inView: view) ?? second.columnsForPrimaryKey(db, inView: view)
    }
}

/// A schema of a connection: `main`, `temp`, or an attached database.
///
/// ```swift
/// DatabaseSchemaID.main.schemaTableName              // "sqlite_master"
/// DatabaseSchemaID.attached("archive").schemaTableName // "archive.sqlite_master"
/// ```
public struct DatabaseSchemaID: Hashable, Sendable {
    /// The name of the schema: `main`, `temp`, or the name of an attached
    /// database.
    public let name: String

    /// The main schema.
    public static let main = DatabaseSchemaID(name: "main")

    /// The schema of temporary objects.
    public static let temp = DatabaseSchemaID(name: "temp")

    /// The schema of an attached database.
    ///
    /// ```swift
    /// let schemaID = DatabaseSchemaID.attached("archive")
    /// ```
    public static func attached(_ name: String) -> DatabaseSchemaID {
        DatabaseSchemaID(name: name)
    }

    /// The table that holds the schema: `sqlite_master`, or
    /// `sqlite_temp_master` for `temp`.
    public var schemaTableName: String {
        switch self {
        case .main: "sqlite_master"
        case .temp: "sqlite_temp_master"
        default: "\(name).sqlite_master"
        }
    }
}

/// A table, a view, or another object of a database schema.
///
/// ```swift
/// let captain = DatabaseObjectID(name: "captain", schemaID: .main)
/// ```
public struct DatabaseObjectID: Hashable, Sendable {
    /// The name of the object.
    public var name: String

    /// The schema of the object.
    public var schemaID: DatabaseSchemaID

    /// The object `name` of the schema `schemaID`.
    public init(name: String, schemaID: DatabaseSchemaID) {
        self.name = name
        self.schemaID = schemaID
    }
}

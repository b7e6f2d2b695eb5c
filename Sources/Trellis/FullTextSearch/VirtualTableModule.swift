/// A virtual table module, such as ``FTS5``, ``FTS4`` or ``FTS3``: it
/// turns a table definition into the arguments of
/// `CREATE VIRTUAL TABLE ... USING module(arguments)`.
///
/// ```swift
/// // CREATE VIRTUAL TABLE document USING fts5(content)
/// try db.create(virtualTable: "document", using: FTS5()) { t in
///     t.column("content")
/// }
/// ```
///
/// Adopt it to give a module of your own a definition body:
///
/// ```swift
/// final class VocabularyDefinition { var source = "" }
///
/// struct Vocabulary: VirtualTableModule {
///     let moduleName = "fts4aux"
///     func makeTableDefinition(configuration: VirtualTableConfiguration) -> VocabularyDefinition {
///         VocabularyDefinition()
///     }
///     func moduleArguments(for definition: VocabularyDefinition, in db: Database) throws -> [String] {
///         [definition.source]
///     }
///     func database(_ db: Database, didCreate tableName: String, using definition: VocabularyDefinition) throws { }
/// }
///
/// // CREATE VIRTUAL TABLE vocabulary USING fts4aux(document)
/// try db.create(virtualTable: "vocabulary", using: Vocabulary()) { t in
///     t.source = "document"
/// }
/// ```
public protocol VirtualTableModule {
    /// The type that the body of `create(virtualTable:options:using:_:)`
    /// configures.
    associatedtype TableDefinition

    /// The name of the module, after `USING`: `fts5`.
    ///
    /// ```swift
    /// FTS5().moduleName // "fts5"
    /// ```
    var moduleName: String { get }

    /// A new definition, given to the body of
    /// `create(virtualTable:options:using:_:)`.
    ///
    /// ```swift
    /// let definition = FTS5().makeTableDefinition(configuration: configuration)
    /// ```
    func makeTableDefinition(configuration: VirtualTableConfiguration) -> TableDefinition

    /// The arguments of the module, written between the parentheses of
    /// `USING module(...)` and separated with commas. No argument writes
    /// `USING module`.
    ///
    /// ```swift
    /// try FTS5().moduleArguments(for: definition, in: db) // ["title", "author UNINDEXED"]
    /// ```
    ///
    /// - Throws: Any error, for a definition the module cannot write: the table
    ///   is then not created.
    func moduleArguments(for definition: TableDefinition, in db: Database) throws -> [String]

    /// Called after the table is created, in the same savepoint: an error
    /// thrown here undoes the creation.
    ///
    /// ```swift
    /// func database(_ db: Database, didCreate tableName: String, using definition: Definition) throws {
    ///     try db.execute(sql: "INSERT INTO \(tableName.quotedDatabaseIdentifier) ...")
    /// }
    /// ```
    ///
    /// - Throws: Any error, which undoes the creation of the table and is
    ///   thrown by `create(virtualTable:...)`.
    func database(_ db: Database, didCreate tableName: String, using definition: TableDefinition) throws
}

/// How a virtual table is created, as given to
/// ``VirtualTableModule/makeTableDefinition(configuration:)``.
///
/// ```swift
/// func makeTableDefinition(configuration: VirtualTableConfiguration) -> Definition {
///     Definition(isTemporary: configuration.temporary)
/// }
/// ```
public struct VirtualTableConfiguration: Hashable, Sendable {
    /// Whether the statement is `CREATE VIRTUAL TABLE IF NOT EXISTS`.
    ///
    /// ```swift
    /// if configuration.ifNotExists { ... }
    /// ```
    public let ifNotExists: Bool
    /// Whether the table is created in the `temp` schema.
    ///
    /// ```swift
    /// if configuration.temporary { ... }
    /// ```
    public let temporary: Bool

    init(options: VirtualTableOptions) {
        ifNotExists = options.contains(.ifNotExists)
        temporary = options.contains(.temporary)
    }
}

/// Options of `create(virtualTable:options:using:_:)`.
///
/// ```swift
/// try db.create(virtualTable: "document", options: [.ifNotExists, .temporary], using: FTS5()) { t in
///     t.column("content")
/// }
/// ```
public struct VirtualTableOptions: OptionSet, Hashable, Sendable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// Only creates the table if it does not exist.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", options: .ifNotExists, using: FTS5()) { t in ... }
    /// ```
    public static let ifNotExists = VirtualTableOptions(rawValue: 1 << 0)
    /// Creates the table in the `temp` schema.
    ///
    /// ```swift
    /// try db.create(virtualTable: "document", options: .temporary, using: FTS5()) { t in ... }
    /// ```
    public static let temporary = VirtualTableOptions(rawValue: 1 << 1)
}

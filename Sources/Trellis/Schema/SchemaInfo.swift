/// A column of a table, as introspected.
///
/// ```swift
/// let columns = try db.columns(in: "player")
/// for column in columns {
///     print(column.name, column.type, column.isNotNull)
/// }
/// ```
public struct ColumnInfo: Hashable, Sendable {
    /// The column name.
    public let name: String
    /// The declared type, as written in the schema (may be empty).
    public let type: String
    /// Whether the column is NOT NULL.
    public let isNotNull: Bool
    /// The SQL of the default value, if any.
    public let defaultValueSQL: String?
    /// The 1-based position of the column in the primary key, or 0.
    public let primaryKeyIndex: Int
    /// The position of the column in the table.
    public let cid: Int
    /// How the column is generated (`GENERATED ALWAYS AS`): its value is
    /// computed on read (`.virtual`) or on write (`.stored`); nil for an
    /// ordinary column.
    ///
    /// ```swift
    /// // CREATE TABLE player (score INTEGER, bonus INTEGER AS (score * 2) STORED)
    /// try db.columns(in: "player")[1].generated // .stored
    /// ```
    public let generated: Database.GeneratedColumnQualification?

    /// The declared type as a column type, if any.
    public var columnType: Database.ColumnType? {
        type.isEmpty ? nil : Database.ColumnType(rawValue: type)
    }
}

/// The primary key of a table, as introspected: explicit columns, or the
/// hidden rowid.
public struct PrimaryKeyInfo: Hashable, Sendable {
    /// The primary key columns. `["rowid"]` for a table without an
    /// explicit primary key.
    public let columns: [String]
    /// The column that aliases the rowid (`INTEGER PRIMARY KEY`), if any:
    /// nil for the hidden rowid, and for `INTEGER PRIMARY KEY DESC`, which
    /// SQLite does not make an alias of the rowid.
    ///
    /// ```swift
    /// // CREATE TABLE player (id INTEGER PRIMARY KEY, name TEXT)
    /// try db.primaryKey("player").rowIDColumn // "id"
    /// ```
    public let rowIDColumn: String?
    /// Whether the primary key is the rowid: the hidden one, or the
    /// `INTEGER PRIMARY KEY` column that aliases it.
    ///
    /// ```swift
    /// // CREATE TABLE log (message TEXT)
    /// try db.primaryKey("log").isRowID // true
    /// try db.primaryKey("log").rowIDColumn // nil: the rowid is hidden
    /// ```
    public let isRowID: Bool

    /// Whether the key is the one a ``DatabaseSchemaSource`` gives a view.
    var isViewKey = false

    /// Whether the primary key is the hidden rowid of a table that
    /// declares none.
    var isHiddenRowID: Bool { isRowID && rowIDColumn == nil }

    static let hiddenRowID = PrimaryKeyInfo(columns: ["rowid"], rowIDColumn: nil, isRowID: true)
}

/// A foreign key, as introspected.
public struct ForeignKeyInfo: Hashable, Sendable {
    /// The SQLite id of the foreign key.
    public let id: Int
    /// The referenced table.
    public let destinationTable: String
    /// Pairs of origin and destination columns.
    public let mapping: [(origin: String, destination: String)]

    /// The columns of the origin table.
    public var originColumns: [String] { mapping.map(\.origin) }
    /// The columns of the destination table.
    public var destinationColumns: [String] { mapping.map(\.destination) }
    /// What a delete of the referenced row does (`ON DELETE`); nil for
    /// `NO ACTION`.
    ///
    /// ```swift
    /// // CREATE TABLE book (authorId REFERENCES author ON DELETE CASCADE)
    /// try db.foreignKeys(on: "book")[0].onDelete // .cascade
    /// ```
    public let onDelete: Database.ForeignKeyAction?
    /// What an update of the referenced key does (`ON UPDATE`); nil for
    /// `NO ACTION`.
    public let onUpdate: Database.ForeignKeyAction?

    init(id: Int, destinationTable: String, mapping: [(origin: String, destination: String)],
         onDelete: Database.ForeignKeyAction? = nil, onUpdate: Database.ForeignKeyAction? = nil)
    {
        self.id = id
        self.destinationTable = destinationTable
        self.mapping = mapping
        self.onDelete = onDelete
        self.onUpdate = onUpdate
    }

    public static func == (lhs: ForeignKeyInfo, rhs: ForeignKeyInfo) -> Bool {
        lhs.id == rhs.id && lhs.destinationTable == rhs.destinationTable
            && lhs.originColumns == rhs.originColumns && lhs.destinationColumns == rhs.destinationColumns
            && lhs.onDelete == rhs.onDelete && lhs.onUpdate == rhs.onUpdate
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(destinationTable)
        hasher.combine(originColumns)
    }
}

/// An index, as introspected.
public struct IndexInfo: Hashable, Sendable {
    /// How the index was created.
    public enum Origin: String, Sendable {
        case createIndex = "c"
        case uniqueConstraint = "u"
        case primaryKeyConstraint = "pk"
    }

    /// The index name.
    public let name: String
    /// The indexed columns.
    public let columns: [String]
    /// Whether the index is unique.
    public let isUnique: Bool
    /// How the index was created.
    public let origin: Origin
    /// Whether the index covers only the rows of its `WHERE` clause: such
    /// an index makes its columns unique among those rows only.
    public let isPartial: Bool
    /// Whether the index is on expressions (`lower(name)`): its
    /// ``columns`` are then empty. See
    /// ``Database/indexes(on:in:includingExpressions:)``.
    public let isOnExpressions: Bool
}

/// A foreign key, as a table declares it: see
/// ``Database/declaredForeignKeys(on:in:)``.
public struct DeclaredForeignKeyInfo: Hashable, Sendable {
    /// The SQLite id of the foreign key: 0 for the last declared one.
    public let id: Int
    /// The referenced table, as the declaration spells it: it may not exist.
    public let destinationTable: String
    /// The columns of the origin table.
    public internal(set) var originColumns: [String]
    /// The columns of the destination table, nil when the declaration
    /// names none: the foreign key then references the primary key.
    public internal(set) var destinationColumns: [String]?
    /// What a delete of the referenced row does; nil for `NO ACTION`.
    public let onDelete: Database.ForeignKeyAction?
    /// What an update of the referenced key does; nil for `NO ACTION`.
    public let onUpdate: Database.ForeignKeyAction?
}

// The schema of another engine (PostgreSQL's catalog) is described with
// the same values as SQLite's.

extension ColumnInfo {
    package init(name: String, declaredType: String, notNull: Bool, defaultSQL: String?, primaryKeyPosition: Int, index: Int) {
        self.init(name: name, type: declaredType, isNotNull: notNull, defaultValueSQL: defaultSQL,
                  primaryKeyIndex: primaryKeyPosition, cid: index, generated: nil)
    }
}

extension PrimaryKeyInfo {
    /// A primary key of explicit columns: PostgreSQL tables have no rowid.
    package init(explicitColumns columns: [String]) {
        self.init(columns: columns, rowIDColumn: nil, isRowID: false)
    }
}

extension ForeignKeyInfo {
    package init(
        identifier: Int, destination: String, columnMapping: [(origin: String, destination: String)],
        deleteAction: Database.ForeignKeyAction? = nil, updateAction: Database.ForeignKeyAction? = nil)
    {
        self.init(id: identifier, destinationTable: destination, mapping: columnMapping,
                  onDelete: deleteAction, onUpdate: updateAction)
    }
}

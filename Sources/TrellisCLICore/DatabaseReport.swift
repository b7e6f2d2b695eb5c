import Foundation
import Trellis

/// What `trellis inspect` reports about a database: its tables, and the
/// associations Trellis can infer from its foreign keys.
///
/// The JSON output encodes this value; its field names are stable.
public struct DatabaseReport: Codable, Equatable, Sendable {
    public struct Column: Codable, Equatable, Sendable {
        public var name: String
        public var type: String
        public var notNull: Bool
        public var defaultValue: String?
        /// The 1-based position in the primary key, or nil.
        public var primaryKeyIndex: Int?
        /// For a generated column (`GENERATED ALWAYS AS (...)`): `virtual`
        /// when computed on each read, `stored` when saved in the row.
        /// Nil for an ordinary column.
        public var generated: String?
    }

    public struct ForeignKey: Codable, Equatable, Sendable {
        public var columns: [String]
        public var destinationTable: String
        /// Empty for a foreign key that does not name them, to a table
        /// that is missing.
        public var destinationColumns: [String]
        /// The action on deletion of the referenced row (`CASCADE`, `SET
        /// NULL`...), or nil for none.
        public var onDelete: String?
        /// The action on update of the referenced key, or nil for none.
        public var onUpdate: String?
        /// Why SQLite can not use the foreign key, which it calls a
        /// "foreign key mismatch": its columns are not a key of its
        /// destination table (`the primary key of user has 1 column`).
        /// Nil for a foreign key that matches, or whose destination is not
        /// a table that could be read.
        public var mismatch: String?
    }

    public struct Trigger: Codable, Equatable, Sendable {
        public var name: String
        /// The `CREATE TRIGGER` statement.
        public var sql: String

        /// The statement up to its body: `CREATE TRIGGER t AFTER INSERT ON a`.
        public var header: String {
            let words = sql.split(whereSeparator: \.isWhitespace)
            let body = words.firstIndex { $0.uppercased() == "BEGIN" } ?? words.endIndex
            return words[..<body].joined(separator: " ")
        }
    }

    public struct Index: Codable, Equatable, Sendable {
        public var name: String
        /// The indexed columns; empty for an index on expressions.
        public var columns: [String]
        public var unique: Bool
        /// Whether the index covers only the rows of its `WHERE` clause.
        public var partial: Bool
        /// The `CREATE INDEX` statement of an index on expressions, which
        /// its columns can not describe.
        public var definition: String?
    }

    public struct Table: Codable, Equatable, Sendable {
        public var name: String
        /// The module of a virtual table (`fts5`, `rtree`...), or nil for a
        /// table that SQLite stores itself.
        public var virtualTableModule: String?
        public var columns: [Column]
        /// The options of the table: `WITHOUT ROWID`, `STRICT`, and
        /// `AUTOINCREMENT` for a table whose rowid never reuses a value.
        public var options: [String]
        /// The primary key columns; `["rowid"]` for a table without one.
        public var primaryKey: [String]
        public var hasExplicitPrimaryKey: Bool
        /// The column that is an alias of the rowid (`id INTEGER PRIMARY
        /// KEY`), which SQLite fills when an insert gives it no value; nil
        /// when the table has none (`id INT PRIMARY KEY`, `id INTEGER
        /// PRIMARY KEY DESC`, a WITHOUT ROWID table).
        public var rowIDColumn: String? = nil
        public var foreignKeys: [ForeignKey]
        public var indexes: [Index]
        public var triggers: [Trigger]
        /// Why the table could not be read (a virtual table whose module is
        /// not available, for example), if it could not.
        public var error: String?
    }

    public struct View: Codable, Equatable, Sendable {
        public var name: String
        public var columns: [Column]
        /// The triggers of the view (`INSTEAD OF` triggers).
        public var triggers: [Trigger]
        /// Why the view could not be read (it selects from a table that is
        /// gone, for example), if it could not.
        public var error: String?
    }

    public struct Association: Codable, Equatable, Sendable {
        /// `belongsTo`, `hasOne`, `hasMany`, `hasManyThrough` or `hasOneThrough`.
        public var kind: String
        /// The table that declares the association.
        public var table: String
        /// The associated table.
        public var destination: String
        /// The foreign key columns, on the table that holds them.
        public var foreignKey: [String]
        /// For `hasManyThrough` and `hasOneThrough`: the join table.
        public var through: String?
        /// Whether the association needs an explicit `ForeignKey`, because
        /// several foreign keys link the two tables.
        public var needsExplicitForeignKey: Bool
        /// The Swift declaration of the association.
        public var declaration: String
    }

    public struct Ambiguity: Codable, Equatable, Sendable {
        public var from: String
        public var to: String
        /// The columns of each foreign key from `from` to `to`.
        public var foreignKeys: [[String]]
        public var advice: String
    }

    public var path: String
    public var tables: [Table]
    public var views: [View]
    public var associations: [Association]
    public var ambiguities: [Ambiguity]
    /// What keeps parts of the schema from being used as associations: a
    /// foreign key to a missing table or to a view, or a foreign key
    /// mismatch, for example.
    public var warnings: [String]
}

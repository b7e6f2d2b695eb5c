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

// The schema of another engine (PostgreSQL's catalog) is described with
// the same values as SQLite's.
extension ForeignKeyInfo {
    package init(
        identifier: Int, destination: String, columnMapping: [(origin: String, destination: String)],
        deleteAction: Database.ForeignKeyAction? = nil, updateAction: Database.ForeignKeyAction? = nil)
    {
        self.init(id: identifier, destinationTable: destination, mapping: columnMapping,
                  onDelete: deleteAction, onUpdate: updateAction)
    }
}

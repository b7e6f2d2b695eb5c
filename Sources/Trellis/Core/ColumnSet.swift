/// Columns of one table, as regions and changes name them: all of them, or
/// some of them by lowercased name.
///
/// A region that reads `SELECT score FROM player` holds `player: .some(["score"])`;
/// an update of `name` changes `player: .some(["name"])`, which it does not
/// intersect; an insertion or a deletion changes `player: .all`.
enum ColumnSet: Hashable, Sendable {
    case all
    case some(Set<String>)

    /// The set with one more column (a name that SQLite reported).
    mutating func insert(_ column: String) {
        if case .some(var columns) = self {
            columns.insert(column.lowercased())
            self = .some(columns)
        }
    }

    func union(_ other: ColumnSet) -> ColumnSet {
        switch (self, other) {
        case (.some(let columns), .some(let otherColumns)): return .some(columns.union(otherColumns))
        default: return .all
        }
    }

    /// Whether a column is in both sets (all columns meet any column).
    func intersects(_ other: ColumnSet) -> Bool {
        switch (self, other) {
        case (.some(let columns), .some(let otherColumns)): return !columns.isDisjoint(with: otherColumns)
        default: return true
        }
    }
}

extension Dictionary where Key == String, Value == ColumnSet {
    /// Adds the columns of `other`, table by table.
    mutating func formColumnUnion(_ other: [String: ColumnSet]) {
        for (table, columns) in other {
            if let current = self[table] {
                self[table] = current.union(columns)
            } else {
                self[table] = columns
            }
        }
    }

    /// Whether both maps have a column of a table in common.
    func intersectsColumns(of other: [String: ColumnSet]) -> Bool {
        let (small, large) = count <= other.count ? (self, other) : (other, self)
        for (table, columns) in small {
            if let otherColumns = large[table], columns.intersects(otherColumns) { return true }
        }
        return false
    }
}
